/**
 * What kind of capture a text is, from its shape rather than its words: a link, a quotation, an
 * amount of money, a date as title, a personal name as title, a question, a checklist, times of
 * day. Each shape is a pseudo-term (`~link`, `~quote`, …) added to the TF-IDF vectors of notes,
 * items and earlier decisions, so a folder that holds quotations, dated journal entries or
 * receipts attracts the same kind of item whatever the folder is called and whatever words the
 * item uses. The IDF weighs them like words: a shape every note has says nothing.
 */
import { PERSON_TITLE } from './person-title';

const URL = /\bhttps?:\/\/[^\s)>\]]+|\bwww\.[^\s)>\]]+/gi;

/** The shape pseudo-terms of a text (body) and its title. */
export function shapeTerms(body: string, title = ''): string[] {
  const out: string[] = [];
  const t = title.trim();
  if (URL.test(body) || URL.test(t)) out.push('~link');
  URL.lastIndex = 0;
  // A quotation: a passage of four or more words between quotation marks.
  if (/["“][^"“”]*?(?:\s+[^"“”\s]+){3,}[^"“”]*["”]/u.test(body)) out.push('~quote');
  if (/[£$€¥]\s?\d|\d\s?(?:€|eur|usd|gbp)\b/i.test(body)) out.push('~money');
  if (/^\d{4}-\d{2}-\d{2}\b|^\d{1,2}[./-]\d{1,2}[./-]\d{2,4}$|^\d{4}-\d{2}\b/.test(t)) out.push('~datetitle');
  if (t && PERSON_TITLE.test(t)) out.push('~nametitle');
  if (/\?\s*$/.test(body.trim())) out.push('~question');
  if (/^\s*[-*]\s+\[[ xX]\]/m.test(body)) out.push('~checklist');
  if (/\b\d{1,2}[:.]\d{2}\b/.test(body)) out.push('~clock');
  return out;
}

/** A text with its links reduced to the site's name ("https://www.bbc.co.uk/news/…" → "bbc"). */
export function withoutUrls(text: string): string {
  return text.replace(URL, (u) => {
    const host = /^(?:https?:\/\/)?([^/\s?#]+)/i.exec(u)?.[1] ?? '';
    const parts = host.replace(/^www\./i, '').split('.');
    const second = parts.at(-2) ?? '';
    return ` ${parts.length > 2 && second.length <= 3 ? parts.at(-3) : parts[0]} `;
  });
}
