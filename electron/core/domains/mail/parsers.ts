/** Value parsers for extraction: dates, times, amounts, phones, emails, street addresses. */

export interface Found<T> {
  value: T;
  index: number;
  text: string;
}

const MONTHS: Record<string, number> = {
  jan: 1, january: 1, feb: 2, february: 2, mar: 3, march: 3, apr: 4, april: 4, may: 5, jun: 6, june: 6, jul: 7, july: 7,
  aug: 8, august: 8, sep: 9, sept: 9, september: 9, oct: 10, october: 10, nov: 11, november: 11, dec: 12, december: 12,
  januar: 1, februar: 2, märz: 3, mai: 5, juni: 6, juli: 7, oktober: 10, dezember: 12, janvier: 1, février: 2, mars: 3, avril: 4, juin: 6, juillet: 7, août: 8, septembre: 9, octobre: 10, novembre: 11, décembre: 12,
};
const MONTH_ALT = Object.keys(MONTHS).sort((a, b) => b.length - a.length).join('|');
const WEEKDAYS = ['sunday', 'monday', 'tuesday', 'wednesday', 'thursday', 'friday', 'saturday'];

const pad = (n: number) => String(n).padStart(2, '0');
const ymd = (y: number, m: number, d: number) => `${y}-${pad(m)}-${pad(d)}`;
function valid(y: number, m: number, d: number): boolean {
  const dt = new Date(Date.UTC(y, m - 1, d));
  return dt.getUTCFullYear() === y && dt.getUTCMonth() === m - 1 && dt.getUTCDate() === d;
}

/**
 * Calendar dates in text, as YYYY-MM-DD. Years missing from "15 March" are taken from the
 * message date (the next such day on or after it); "tomorrow" and weekday names resolve
 * against the message date too — derived from the message, never guessed.
 */
export function findDates(text: string, ref: Date): Array<Found<string>> {
  const out: Array<Found<string>> = [];
  const push = (index: number, t: string, y: number, m: number, d: number) => {
    if (valid(y, m, d)) out.push({ value: ymd(y, m, d), index, text: t });
  };
  const refY = ref.getUTCFullYear();
  const yearFor = (m: number, d: number) => {
    const cand = Date.UTC(refY, m - 1, d);
    return cand < Date.UTC(refY, ref.getUTCMonth(), ref.getUTCDate()) - 31 * 86400_000 ? refY + 1 : refY;
  };
  let m: RegExpExecArray | null;
  const iso = /\b(\d{4})-(\d{2})-(\d{2})\b/g;
  while ((m = iso.exec(text))) push(m.index, m[0], Number(m[1]), Number(m[2]), Number(m[3]));
  const num = /\b(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})\b/g;
  const nums = [...text.matchAll(num)].map((x) => {
    const [whole, a = '', sep = '', b = '', y = ''] = x;
    return { index: x.index ?? 0, text: whole, a: Number(a), b: Number(b), sep, y: y.length === 2 ? 2000 + Number(y) : Number(y) };
  });
  const monthFirst = numericDateOrder(nums, ref) === 'mdy';
  for (const n of nums) {
    // Impossible readings settle it ("03/15/2025" is month-first, "27/02/2026" day-first); dotted dates are day-first.
    if (n.b > 12 && n.a <= 12) push(n.index, n.text, n.y, n.a, n.b);
    else if (n.a > 12 || n.sep === '.' || !monthFirst) push(n.index, n.text, n.y, n.b, n.a);
    else push(n.index, n.text, n.y, n.a, n.b);
  }
  const dmy = new RegExp(`\\b(\\d{1,2})(?:st|nd|rd|th)?\\.?\\s+(?:of\\s+)?(${MONTH_ALT})\\.?(?:,?\\s+(\\d{4}))?\\b`, 'giu');
  while ((m = dmy.exec(text))) {
    const mo = MONTHS[(m[2] ?? '').toLowerCase()];
    if (mo === undefined) continue; // MONTH_ALT only matches MONTHS keys
    const d = Number(m[1]);
    push(m.index, m[0], m[3] ? Number(m[3]) : yearFor(mo, d), mo, d);
  }
  // Airline and ticketing shape: "27MAR2026", "05NOV26", "14APR" (the next such day)
  const compact = /\b(\d{1,2})(jan|feb|mar|apr|may|jun|jul|aug|sep|oct|nov|dec)(\d{4}|\d{2})?\b/gi;
  while ((m = compact.exec(text))) {
    const [whole, day = '', mon = '', year = ''] = m;
    const mo = MONTHS[mon.toLowerCase()] ?? NaN;
    push(m.index, whole, !year ? yearFor(mo, Number(day)) : year.length === 2 ? 2000 + Number(year) : Number(year), mo, Number(day));
  }
  const mdy = new RegExp(`\\b(${MONTH_ALT})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?(?:,?\\s+(\\d{4}))?\\b`, 'giu');
  while ((m = mdy.exec(text))) {
    const mo = MONTHS[(m[1] ?? '').toLowerCase()];
    if (mo === undefined) continue; // MONTH_ALT only matches MONTHS keys
    const d = Number(m[2]);
    if (out.some((o) => o.index <= m!.index && o.index + o.text.length > m!.index)) continue;
    push(m.index, m[0], m[3] ? Number(m[3]) : yearFor(mo, d), mo, d);
  }
  const rel = /\b(today|tomorrow|(?:next\s+|this\s+|on\s+)?(sunday|monday|tuesday|wednesday|thursday|friday|saturday))\b/gi;
  while ((m = rel.exec(text))) {
    const base = new Date(Date.UTC(ref.getUTCFullYear(), ref.getUTCMonth(), ref.getUTCDate()));
    const w = (m[1] ?? '').toLowerCase();
    let add = 0;
    if (w === 'tomorrow') add = 1;
    else if (w !== 'today') {
      const target = WEEKDAYS.indexOf((m[2] ?? '').toLowerCase());
      add = (target - base.getUTCDay() + 7) % 7 || 7;
      if (/^next\s/.test(w) && add < 7) add += 0;
    }
    const d = new Date(base.getTime() + add * 86400_000);
    push(m.index, m[0], d.getUTCFullYear(), d.getUTCMonth() + 1, d.getUTCDate());
  }
  return out.sort((a, b) => a.index - b.index);
}

/**
 * Which way round slashed dates like "03/12/2026" are written in this text: an unambiguous one
 * ("27/02/2026", "04/15/2026") decides; otherwise the reading that lands nearer the message's own
 * date (an invoice dated the day it was sent, due a month later), day-first when that is a tie.
 */
export function numericDateOrder(nums: Array<{ a: number; b: number; y: number; sep: string }>, ref: Date): 'dmy' | 'mdy' {
  let dmy = 0;
  let mdy = 0;
  const r = ref.getTime();
  for (const n of nums) {
    if (n.sep === '.') continue;
    if (n.a > 12 && n.b <= 12) dmy += 3;
    else if (n.b > 12 && n.a <= 12) mdy += 3;
    else if (n.a !== n.b && valid(n.y, n.b, n.a) && valid(n.y, n.a, n.b)) {
      const asDmy = Math.abs(Date.UTC(n.y, n.b - 1, n.a) - r);
      const asMdy = Math.abs(Date.UTC(n.y, n.a - 1, n.b) - r);
      if (asMdy < asDmy) mdy += 1;
      else if (asDmy < asMdy) dmy += 1;
    }
  }
  return mdy > dmy ? 'mdy' : 'dmy';
}

/** Clock times as HH:MM (24 h): "3pm", "3:30 PM", "15:00". */
export function findTimes(text: string): Array<Found<string>> {
  const out: Array<Found<string>> = [];
  let m: RegExpExecArray | null;
  // (am/pm on the same line and not the start of a word: "07:00\nAmsterdam" is seven o'clock, then a place)
  // ("8:15a" / "11:40p", as travel sites write them: a single letter right after minutes)
  const re = /\b(\d{1,2})(?::(\d{2}))?[ \t]*(am|pm|a\.m\.|p\.m\.)(?![A-Za-z])|\b(\d{1,2}):(\d{2})([ap])(?![A-Za-z])|\b([01]?\d|2[0-3]):([0-5]\d)\b/gi;
  while ((m = re.exec(text))) {
    // "UTC+01:00", "-05:00" are offsets, not clock times
    // (but "7:00-7:45 pm" and "2:00 PM-3:00 PM" are ranges: a clock time right before the hyphen, no seconds, no date-time "T")
    const before = text.slice(Math.max(0, m.index - 14), m.index);
    const rangeEnd = /(?<![:\dT])(?:\d{1,2}:\d{2}|\d{1,2}(?::\d{2})?[ \t]*(?:am|pm|a\.m\.|p\.m\.))\s*[-\u2212]$/i.test(before) && !/(?:UTC|GMT)\s*[+\-\u2212]?\d{1,2}:\d{2}\s*[-\u2212]$/i.test(before);
    if (!rangeEnd && /(?:(?:UTC|GMT)\s*[+\-\u2212]?|[+\-\u2212])$/i.test(text.slice(Math.max(0, m.index - 5), m.index))) continue;
    if (m[3] || m[6]) {
      const hour = Number(m[1] ?? m[4]);
      let h = hour % 12;
      if (/^p/i.test(m[3] ?? m[6] ?? '')) h += 12;
      if (hour > 12) continue;
      out.push({ value: `${pad(h)}:${m[2] ?? m[5] ?? '00'}`, index: m.index, text: m[0] });
    } else {
      let h = Number(m[7]);
      // "7:00-7:45 pm": a range's start without its own am/pm shares the end's when that keeps it
      // before the end ("11:00-1:00 pm" stays 11 in the morning).
      const range = /^\s*(?:[-–—]|to|until|till)\s*(\d{1,2})(?::(\d{2}))?[ \t]*(am|pm|a\.m\.|p\.m\.)(?![A-Za-z])/i.exec(text.slice(m.index + m[0].length, m.index + m[0].length + 24));
      if (range && h >= 1 && h < 12 && /^p/i.test(range[3] ?? '') && h + 12 <= (Number(range[1]) % 12) + 12) h += 12;
      out.push({ value: `${pad(h)}:${m[8]}`, index: m.index, text: m[0] });
    }
  }
  return out;
}

const CUR: Record<string, string> = { 'a$': 'AUD', 'au$': 'AUD', 'c$': 'CAD', 'ca$': 'CAD', 'nz$': 'NZD', 'us$': 'USD', 'hk$': 'HKD', 's$': 'SGD', '$': 'USD', '€': 'EUR', '£': 'GBP', '¥': 'JPY', usd: 'USD', eur: 'EUR', gbp: 'GBP', chf: 'CHF', jpy: 'JPY', cad: 'CAD', aud: 'AUD', sek: 'SEK', nok: 'NOK', dkk: 'DKK' };

function toNumber(s: string): number | undefined {
  let t = s.replace(/[\s\u00a0']/g, '');
  const lastSep = Math.max(t.lastIndexOf('.'), t.lastIndexOf(','));
  if (lastSep !== -1 && t.length - lastSep - 1 === 2) {
    t = t.slice(0, lastSep).replace(/[.,]/g, '') + '.' + t.slice(lastSep + 1);
  } else {
    t = t.replace(/[.,]/g, '');
  }
  const n = Number(t);
  return Number.isFinite(n) ? n : undefined;
}

/**
 * Money amounts with a currency symbol or ISO code on either side: "€1,815.00", "1.234,56 €",
 * "CHF 94.93". A symbol right before
 * another number is that number's ("06/03/2026 €1,815.00" is €1,815.00, never 2026 €).
 */
export function findAmounts(text: string): Array<Found<{ amount: number; currency: string }>> {
  const out: Array<Found<{ amount: number; currency: string }>> = [];
  const NUM = String.raw`\d{1,3}(?:[,.\s\u00a0']\d{3})*(?:[.,]\d{1,2})?|\d+(?:[.,]\d{1,2})?`;
  const re = new RegExp(String.raw`(?:(USD|EUR|GBP|CHF|JPY|CAD|AUD|NZD|SEK|NOK|DKK|(?<![\p{L}])(?:AU|A|CA|C|NZ|US|HK|S)\$|[$€£¥])[ \t\u00a0]{0,8}(${NUM}))|(?:(${NUM})[ \t\u00a0]?(USD|EUR|GBP|CHF|JPY|CAD|AUD|NZD|SEK|NOK|DKK|[€$£¥]|euros?|dollars?)(?![\p{L}])(?![ \t\u00a0]?\d))`, 'giu');
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const curRaw = (m[1] ?? m[4] ?? '').toLowerCase();
    const currency = CUR[curRaw] ?? (curRaw.startsWith('euro') ? 'EUR' : curRaw.startsWith('dollar') ? 'USD' : curRaw.toUpperCase());
    const amount = toNumber((m[2] ?? m[3] ?? '').trim());
    if (amount !== undefined) out.push({ value: { amount, currency }, index: m.index, text: m[0] });
  }
  return out;
}

export function findEmails(text: string): Array<Found<string>> {
  const out: Array<Found<string>> = [];
  const re = /[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\.[A-Za-z]{2,}/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) out.push({ value: m[0], index: m.index, text: m[0] });
  return out;
}

export function findPhones(text: string): Array<Found<string>> {
  const out: Array<Found<string>> = [];
  const re = /(?:\+\d{1,3}[\s.-]?)?(?:\(\d{1,4}\)[\s.-]?)?\d{2,4}(?:[\s.-]\d{2,4}){2,4}\b/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const digits = m[0].replace(/\D/g, '');
    if (digits.length >= 7 && digits.length <= 15 && !/^\d{4}-\d{2}-\d{2}$/.test(m[0])) out.push({ value: m[0].trim(), index: m.index, text: m[0] });
  }
  return out;
}

/** Street addresses like "221B Baker Street, London NW1 6XE" or "Hauptstraße 5, 10115 Berlin". */
export function findAddresses(text: string): Array<Found<string>> {
  const out: Array<Found<string>> = [];
  const street = String.raw`(?:street|st\.?|road|rd\.?|avenue|ave\.?|boulevard|blvd\.?|lane|ln\.?|drive|dr\.?|way|place|pl\.?|square|sq\.?|court|ct\.?)`;
  const re1 = new RegExp(String.raw`\b\d{1,5}[A-Za-z]?\s+(?:[A-Z][\p{L}'-]+\s+){1,4}${street}(?:,\s*[^\n,]{2,40}){0,2}`, 'gu');
  const re2 = /\b[A-ZÄÖÜ][\p{L}-]*(?:straße|strasse|str\.|weg|gasse|platz|allee)\s+\d{1,4}[a-z]?(?:,\s*\d{4,5}\s+[A-ZÄÖÜ][\p{L}-]+)?/gu;
  for (const re of [re1, re2]) {
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) out.push({ value: m[0].trim().replace(/[.,;]+$/, ''), index: m.index, text: m[0] });
  }
  return out.sort((a, b) => a.index - b.index);
}
