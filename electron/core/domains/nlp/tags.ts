/**
 * Tag suggestions without a keyword model: the kind of memory (from the intent), the entities
 * that make good handles (products, organisations, places), and the content words that carry
 * the topic, as lowercase slugs.
 */
import type { EntitySpan, Intent } from './contract';
import { tokenize } from './tokenize';

const INTENT_TAG: Partial<Record<Intent, string>> = {
  SAVE_PREFERENCE: 'preference',
  SAVE_DECISION: 'decision',
  SAVE_FACT: 'fact',
  UPDATE_INFO: 'update',
};

const STOP = new Set(
  `a an the and or but if then so of to in on at by for with from about as into over under than too very
  i me my mine we us our you your he him his she her it its they them their this that these those there here
  is are was were be been being am do does did doing have has had having will would shall should can could may might must
  not no yes just also only really actually please pls thanks thank ok okay hey hi hello remember note save store keep mind
  don't dont forget never always from now going go gonna want like prefer decided decide use using used get got make made
  what when where who which why how again anymore instead new old one two three some any all more most less much many
  today tomorrow yesterday week month year time day thing things stuff lot bit way`.split(/\s+/),
);

export function slug(s: string): string {
  return s
    .toLowerCase()
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[^a-z0-9+#.]+/g, '-')
    .replace(/^[-.]+|[-.]+$/g, '')
    .slice(0, 40);
}

export function suggestTags(text: string, intent: Intent, entities: readonly EntitySpan[], limit = 5): string[] {
  const tags: string[] = [];
  const add = (t: string) => {
    const s = slug(t);
    if (s && s.length > 1 && !tags.includes(s)) tags.push(s);
  };
  const kind = INTENT_TAG[intent];
  if (kind) add(kind);
  for (const e of entities) if (e.type === 'PRODUCT' || e.type === 'ORG' || e.type === 'GPE') add(e.text);
  const inEntity = (start: number) => entities.some((e) => start >= e.start && start < e.end);
  const counts = new Map<string, number>();
  for (const t of tokenize(text)) {
    const w = t.text.toLowerCase();
    if (w.length < 4 || STOP.has(w) || !/^\p{L}[\p{L}-]*$/u.test(w) || inEntity(t.start)) continue;
    counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  // Longer and repeated words first; ties keep reading order (Map preserves insertion).
  const words = [...counts.entries()].sort((a, b) => b[1] * 10 + b[0].length - (a[1] * 10 + a[0].length));
  for (const [w] of words) {
    if (tags.length >= limit) break;
    add(w);
  }
  return tags.slice(0, limit);
}
