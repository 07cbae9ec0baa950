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

  it('reads a list of things as alternatives, each needing to be what the item is about', () => {
    const r = parseRules('## Mine\n- Larchwood, Auntie B, LPA stuff → bisi/\n- Puglia bookings/confirmations → trips/puglia/\n');
    const [bisi, puglia] = r.rules;
    expect(ruleMatches(bisi!, item('LPA copy', 'Certify the copy at the bank.'), r.aliases)).toBe(true);
    expect(ruleMatches(bisi!, item('Visit', 'Larchwood called about the care plan.'), r.aliases)).toBe(true);
    // A passing mention deep in a long note is not what it is about.
    const long = 'Slept late, made breakfast, walked the dog along the river for an hour, read the paper, then a quick call; ' + 'nothing much else today. '.repeat(3) + 'Larchwood rang.';
    expect(ruleMatches(bisi!, item('Sunday', long), r.aliases)).toBe(false);
    // "bookings/confirmations": either word, with Puglia.
    expect(ruleMatches(puglia!, item('Masseria', 'Puglia confirmation for September'), r.aliases)).toBe(true);
    expect(ruleMatches(puglia!, item('Masseria', 'Confirmation for September'), r.aliases)).toBe(false);
  });

  it('what a loose rule lists after its subject is partial evidence; the subject is the rule', () => {
    const r = parseRules('## Mine\n- anything about Pickle — vet, meds, boots → pickle/\n');
    const [rule] = r.rules;
    expect(ruleMatches(rule!, item('Pickle boots', 'New boots for her'), r.aliases)).toBe(true);
    expect(ruleMatches(rule!, item('Vet', 'Vet invoice £45'), r.aliases)).toBe(false);
    expect(partialMention(rule!, item('Vet', 'Vet invoice £45'), r.aliases)).toBe(0.5);
  });

  it('reads several statements in one bullet: aliases with several short forms, and a rule about whoever was just named', () => {
    const r = parseRules('## Mine\n- "Gid" = Gideon Bone. "Jadey"/"JW" = Jade.\n- "the Colonel" = Reg Fairbrother. His emails/complaints → `council/casework/` (and a line in his log)\n');
    expect(r.aliases.get('gid')).toBe('Gideon Bone');
    expect(r.aliases.get('jadey')).toBe('Jade');
    expect(r.aliases.get('jw')).toBe('Jade');
    expect(r.aliases.get('the colonel')).toBe('Reg Fairbrother');
    expect(r.rules.map((x) => x.destination)).toEqual(['council/casework/']);
    expect(ruleMatches(r.rules[0]!, item('Again', 'The Colonel wrote about the bins.'), r.aliases)).toBe(true);
    expect(ruleMatches(r.rules[0]!, item('Bins', 'Reg Fairbrother wrote about the bins.'), r.aliases)).toBe(true);
    expect(ruleMatches(r.rules[0]!, item('Bins', 'A resident wrote about the bins.'), r.aliases)).toBe(false);
  });

  it('reads a pattern written as a list of cues: any two of them', () => {
    const r = parseRules('### Business receipts\n- **Pattern:** Receipt, order confirmation or invoice from a supplier (Acme Timber, Boltco, Glueworks...) with an amount\n- **Destination:** `money/tax/`\n');
    const [rule] = r.rules;
    expect(ruleMatches(rule!, item('Boltco order', 'Order confirmation #12: screws £14'), r.aliases)).toBe(true);
    expect(ruleMatches(rule!, item('Kettle', 'Receipt for a kettle £30'), r.aliases)).toBe(false);
  });

  it('reads a reference format from its examples', () => {
    const r = parseRules('### Planning\n- **Pattern:** Content contains a planning reference in the format `YYYY/NNNN/TYPE` (e.g. `2026/0142/FUL`)\n- **Destination:** `council/planning/`\n');
    const [rule] = r.rules;
    expect(ruleMatches(rule!, item('Barn', 'Application 2025/0377/LBC for the barn'), r.aliases)).toBe(true);
    expect(ruleMatches(rule!, item('Barn', 'Application 2025-0377-LBC for the barn'), r.aliases)).toBe(true);
    expect(ruleMatches(rule!, item('Barn', 'Met on 2025/03/07 about the barn'), r.aliases)).toBe(false);
  });

  it('reads nested Folder Structure bullets and several folders on a line as full paths', () => {
    const r = parseRules(
      '## Folder Structure\n- `workshop/` — the unit, pricing\n  - `jobs/` — one note per commission\n  - `suppliers/`, `selling/` (Etsy, fairs)\n- `council/` — town council: `planning/`, `casework/` (residents\' issues)\n',
    );
    expect(r.folders.get('workshop/jobs')).toBe('one note per commission');
    expect(r.folders.has('workshop/suppliers')).toBe(true);
    expect(r.folders.get('workshop/selling')).toBe('(Etsy, fairs)');
    expect(r.folders.has('council/planning')).toBe(true);
    expect(r.folders.get('council/casework')).toBe("residents' issues");
    expect(r.unparsed).toEqual([]);
  });

  it('a Destination written as prose names its folder in backticks; the path Mailroom can fill in wins', () => {
    const r = parseRules(
      '### Glossary terms\n- **Pattern:** title contains "Termes"\n- **Destination:** append to the matching `work/termbase/{pair} {field}.md` if one exists; otherwise new note in `work/termbase/`\n\n### Plain\n- **Pattern:** title contains "x"\n- **Destination:** `notes/{year}/`\n',
    );
    expect(r.rules.map((x) => x.destination)).toEqual(['work/termbase/', 'notes/{year}/']);
  });
});
