import { describe, expect, it } from 'vitest';
import { defaultRules, parseRules, partialMention, ruleMatches } from '../../../electron/core/domains/inbox';

const ADR = `# Inbox Processing Rules

## Auto-File Rules

### Work Meetings
- **Pattern:** Title contains "meeting" or content has "## Attendees"
- **Destination:** \`work/meetings/{date}-{title-slug}.md\`
- **Transform:** Add frontmatter with date and attendees extracted from content

### Recipes
- **Pattern:** Content matches recipe structure (ingredients + instructions)
- **Destination:** \`home/recipes/{title-slug}.md\`
- **Transform:** Ensure "## Ingredients" and "## Instructions" headers

## Default Behavior
- Items with no matching rule: Keep in inbox, flag for manual review
- Confidence threshold: 0.7 (below this, suggest but don't auto-approve)

## Folder Structure
- \`work/\` — Professional projects and meetings
- \`home/\` — Personal, family, household
- \`resources/\` — Reference material, bookmarks, snippets

## My own rules
- anything about Owen's soccer → family/owen/
- 'PN' means Priya
- Receipts go to finances/receipts/
- Be nice to future me when naming things
`;

const item = (title: string, body: string, tags: string[] = []) => ({ title, body, tags });

describe('inbox rules', () => {
  const r = parseRules(ADR);

  it('reads the ADR format: rules with patterns and destination templates, threshold, folder descriptions', () => {
    expect(r.loaded).toBe(true);
    expect(r.threshold).toBe(0.7);
    expect(r.rules.map((x) => [x.name, x.destination])).toEqual([
      ['Work Meetings', 'work/meetings/{date}-{title-slug}.md'],
      ['Recipes', 'home/recipes/{title-slug}.md'],
      ["anything about Owen's soccer → family/owen/", 'family/owen/'],
      ['Receipts go to finances/receipts/', 'finances/receipts/'],
    ]);
    expect([...r.folders.keys()]).toEqual(['work', 'home', 'resources']);
  });

  it('reads Folder Structure lines however the folder is written (backticks, hyphens, bold, colon)', () => {
    const r = parseRules('## Folder Structure\n- `kestrel/expenses` — receipts and invoices for the business\n- reading-circle/ — book group\n- **dad/** - Dad\'s care\n- money/tax: taxes\n');
    expect(Object.fromEntries(r.folders)).toEqual({
      'kestrel/expenses': 'receipts and invoices for the business',
      'reading-circle': 'book group',
      dad: "Dad's care",
      'money/tax': 'taxes',
    });
    expect(r.unparsed).toEqual([]);
  });

  it('a several-word loose rule an item only partly mentions is partial evidence, not a match', () => {
    const r = parseRules('## Loose rules\n- receipts for the business → kestrel/expenses/\n');
    const item = { title: 'Monitor receipt', body: 'Receipt: 27 inch monitor for the studio.', tags: [] };
    expect(ruleMatches(r.rules[0], item, r.aliases)).toBe(false);
    expect(partialMention(r.rules[0], item, r.aliases)).toBe(0.5);
    expect(partialMention(r.rules[0], { ...item, body: 'Business receipt: monitor' }, r.aliases)).toBe(0);
  });

  it('matches patterns the way a person means them', () => {
    const [meetings, recipes, soccer] = r.rules;
    expect(ruleMatches(meetings, item('Q1 planning Meeting', 'x'), r.aliases)).toBe(true);
    expect(ruleMatches(meetings, item('Sync', '## Attendees\n- PN'), r.aliases)).toBe(true);
    expect(ruleMatches(meetings, item('Sync', 'no'), r.aliases)).toBe(false);
    expect(ruleMatches(recipes, item('Soup', '## Ingredients\n...\n## Instructions\n...'), r.aliases)).toBe(true);
    expect(ruleMatches(recipes, item('Soup', 'just ingredients'), r.aliases)).toBe(false);
    expect(ruleMatches(soccer, item("Owen's game", 'Soccer practice moved to 5pm'), r.aliases)).toBe(true);
    expect(ruleMatches(soccer, item('Game', 'Soccer practice'), r.aliases)).toBe(false);
  });

  it('turns "X means Y" into an alias, and returns what it cannot apply in unparsed', () => {
    expect(r.aliases.get('pn')).toBe('Priya');
    expect(r.unparsed).toContain('Be nice to future me when naming things');
    expect(r.unparsed.some((u) => u.startsWith('Work Meetings — Transform'))).toBe(true);
  });

  it('without a rules file uses the ADR defaults: no rules, threshold 0.5', () => {
    const d = defaultRules();
    expect(d).toMatchObject({ loaded: false, rules: [], threshold: 0.5, unparsed: [] });
  });
});
