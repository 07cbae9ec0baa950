/**
 * Time pressure read from a message relative to its own date: "due by 7 March 2026", "dispatch
 * by: 6 March", "expires on 6 March", "by Friday", "within 48 hours", "before tomorrow 12:00".
 * Used by urgency: a deadline a day away is pressing, one within the week is an ask, one a month
 * away is not yet. Only dates tied to deadline words count — "delivered on 3 March" is no deadline.
 */
import { findDates } from './parsers';

/** Words that make the date after them a deadline. */
const DEADLINE_WORDS = String.raw`(?:due(?:\s+date)?|payable|pay(?:ment)?\s+by|by|before|until|no\s+later\s+than|deadline|expir(?:es|y|ing|ation)|lapses?|ends?|closes?|cut-?off|respond\s+by|reply\s+by|dispatch\s+by|ship\s+by|renew\s+by|renews?|renewal(?:\s+date)?|last\s+day)`;

const DAY = 86_400_000;

export interface Deadline {
  /** Days from the message date to the deadline (fractions for hours; negative when already past). */
  days: number;
  /** The words that said so, for explanations and tests. */
  text: string;
}

/** The nearest deadline the message states, relative to `ref` (the message's date), or undefined. */
export function nearestDeadline(text: string, ref: Date): Deadline | undefined {
  const t = text.replace(/[’‘]/g, "'");
  const found: Deadline[] = [];
  // "within 48 hours", "in the next 2 days"
  for (const m of t.matchAll(/\b(?:within|in\s+the\s+next|in)\s+(\d{1,3}|an?|one|two|three|seven)\s+(hours?|days?|working\s+days?|business\s+days?)\b/gi)) {
    const words: Record<string, number> = { a: 1, an: 1, one: 1, two: 2, three: 3, seven: 7 };
    const [, count = '', unit = ''] = m;
    const n = /^\d+$/.test(count) ? Number(count) : (words[count.toLowerCase()] ?? 1);
    const days = /hour/i.test(unit) ? n / 24 : n;
    // "arrive within 2 working days" (a payout) is a promise, not an ask: only deadline-ish context counts.
    const before = t.slice(Math.max(0, (m.index ?? 0) - 80), m.index ?? 0);
    if (/\b(arrive|delivered|deliver|reach|processed|refund(?:ed)?|credited|appear)\b[^.\n]*$/i.test(before)) continue;
    found.push({ days, text: m[0] });
  }
  // "<deadline word> … <date>" within a short span on the same line
  // (the words after are looked at, not consumed: "renews … renews on 12 March" finds the second)
  // ("year-end audit", "front-end" are names, not deadlines: never a word right after a hyphen)
  const re = new RegExp(String.raw`(?<![-\p{L}])${DEADLINE_WORDS}\b[ \t]*:?[ \t]*(?:on\s+|the\s+)?(?=([^\n]{0,40}))`, 'giu');
  const base = Date.UTC(ref.getUTCFullYear(), ref.getUTCMonth(), ref.getUTCDate());
  for (const m of t.matchAll(re)) {
    const after = m[1] ?? '';
    const d = findDates(after, ref)[0];
    // the date must follow the word closely ("by 6 March", "due date: 2026-03-07")
    if (!d || d.index > 14) continue;
    const at = Date.parse(`${d.value}T00:00:00Z`);
    if (Number.isNaN(at)) continue;
    found.push({ days: Math.round((at - base) / DAY), text: `${m[0]}${after.slice(0, d.index)}${d.text}` });
  }
  // A date already well past ("paid by 1 March") is a record, not a deadline.
  const ahead = found.filter((f) => f.days >= -1);
  if (!ahead.length) return undefined;
  return ahead.sort((a, b) => a.days - b.days)[0];
}
