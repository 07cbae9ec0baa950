import { afterAll, describe, expect, it } from 'vitest';
import { mailServiceForTest } from './helpers';

const MAP_TAXONOMY = `name: Home and work
intents:
  money:
    description: Bills, invoices, receipts and refunds.
    examples: [Your invoice is attached, Refund issued]
  family: "Relatives, friends and weekend plans."
  ops:
    description: Alerts and outages.
precedence: [ops, money]
urgency:
  high: needs my attention within hours — production is down even once on-call has acknowledged it, or a bill is overdue.
  medium: this week.
  low: can wait — newsletters and receipts.
sentiment:
  negative: the writer is upset or something is broken.
  positive: thanks and praise.
`;

const LIST_TAXONOMY = `intents:
  - id: a
    description: first
    urgency: urgent
  - name: b
    examples: [x y z]
urgency:
  high: [asap, urgent]
  low: [fyi]
`;

const PLAIN_POLICY = `# How I answer mail

Friendly and brief. 150 words maximum.

- Sign as **Jordan**
- Never promise dates or money without my approval.
- External recipients are anyone outside of lakeside.example and lakeside-labs.example.
- Never reply to automated senders such as no-reply addresses or newsletters.
`;

const t = mailServiceForTest({}, {
  '_brain_config/mail/taxonomies/map.yaml': MAP_TAXONOMY,
  '_brain_config/mail/taxonomies/list.yaml': LIST_TAXONOMY,
  '_brain_config/mail/taxonomies/none.yaml': 'intents: 3\n',
  '_brain_config/mail/policies/plain.md': PLAIN_POLICY,
  '_brain_config/mail/policies/fm.md': '---\nsignature: Sam\nmax_words: 90\n---\nSign as **Jordan**. 150 words maximum.\n',
});
afterAll(() => t.close());

describe('taxonomy shapes', () => {
  it('accepts intents as a map keyed by id (object or plain description), with precedence and prose levels', () => {
    const tax = t.mail.files.taxonomy('map');
    expect(tax.intents.map((i) => i.id)).toEqual(['money', 'family', 'ops']);
    expect(tax.intents[1].description).toBe('Relatives, friends and weekend plans.');
    expect(tax.intents[0].examples).toEqual(['Your invoice is attached', 'Refund issued']);
    expect(tax.precedence).toEqual(['ops', 'money']);
    expect(tax.urgency.prose.high).toMatch(/within hours/);
    expect(tax.urgency.prose.low).toMatch(/newsletters/);
    expect(tax.urgency.medium).toEqual(['this week.']);
    expect(tax.sentiment.prose.negative).toMatch(/upset/);
  });

  it('still accepts the list shape with cue-word lists and maps level synonyms (urgent → high)', () => {
    const tax = t.mail.files.taxonomy('list');
    expect(tax.intents.map((i) => [i.id, i.urgency])).toEqual([
      ['a', 'high'],
      ['b', undefined],
    ]);
    expect(tax.urgency.high).toEqual(['asap', 'urgent']);
    expect(tax.precedence).toEqual([]);
  });

  it('explains both accepted shapes when there are no intents', () => {
    expect(() => t.mail.files.taxonomy('none')).toThrow(/as a list .* or a map/);
  });
});

describe('policies in plain markdown', () => {
  it('reads the signature, the word limit, who is external and the automated-sender rule from prose', () => {
    const p = t.mail.files.policy('plain');
    expect(p.signature).toBe('Jordan');
    expect(p.maxWords).toBe(150);
    expect(p.internalDomains).toEqual(['lakeside.example', 'lakeside-labs.example']);
    expect(p.refuseAutomated).toBe(true);
    expect(p.noPromises).toEqual({ dates: true, money: true });
    expect(p.rules.mustNot.some((r) => /promise dates/.test(r))).toBe(true);
  });

  it('reads the common ways of writing a signature and a length limit', async () => {
    const { parsePolicyProse } = await import('../../../electron/core/domains/mail/config');
    const cases: Array<[string, string | undefined, number | undefined]> = [
      ['Sign off with "Best, Jordan". Keep it under 120 words.', 'Best, Jordan', 120],
      ['- **Signature:** Jordan Lee\n- 150-word limit', 'Jordan Lee', 150],
      ['Always sign emails as Jordan, never with a title. No longer than 90 words.', 'Jordan', 90],
      ['End every email with “Cheers, Jo”. Maximum of 200 words.', 'Cheers, Jo', 200],
      ['Be kind.', undefined, undefined],
    ];
    for (const [text, sig, words] of cases) {
      const p = parsePolicyProse(text);
      expect([p.signature, p.maxWords]).toEqual([sig, words]);
    }
  });

  it('lets front matter win over the prose', () => {
    const p = t.mail.files.policy('fm');
    expect(p.signature).toBe('Sam');
    expect(p.maxWords).toBe(90);
  });
});
