import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Nlp, EntitySpan } from '../nlp';
import type { MessageRow } from './store';
import type { MessageFacts } from './facts';
import { findAddresses, findAmounts, findDates, findEmails, findPhones, findTimes, type Found } from './parsers';
import { findDateTimes, withZone, offsetString, ZONE_ABBR } from './datetime';
import { latestText, stem } from './text';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export interface ExtractResult {
  data: Record<string, unknown>;
  confidence: number;
  missing_fields: string[];
  validation_errors: string[];
}

type Kind = 'date' | 'datetime' | 'time' | 'amount' | 'number' | 'currency' | 'email' | 'uri' | 'phone' | 'address' | 'enum' | 'pattern' | 'person' | 'org' | 'iban' | 'boolean' | 'emails' | 'strings' | 'rows' | 'string';

interface FieldSpec {
  name: string;
  kind: Kind;
  /** Words that name the field: its name, title, description and x-cues (stemmed). */
  words: string[];
  /** How strongly each word names the field: name/x-cues 1, title 0.9, description 0.45. */
  weight: Map<string, number>;
  /** Whole phrases (x-cues, name, title) for exact label matches. */
  cues: string[];
  schema: Record<string, unknown>;
  pattern?: RegExp;
  check: (v: unknown) => boolean;
}

interface Cand {
  value: unknown;
  score: number;
  /** Position in the text (for sibling ordering); -1 when not from the text. */
  index: number;
}

const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase().trim();

/** Words in schema descriptions that say nothing about where a value is. */
const SCHEMA_STOP = new Set('a an the of in on at for to from by with as is are be or and its it this that which when where who what iso 8601 format formatted value values string field fields e g eg i e ie example examples like such given including include includes included if any one two three uppercase lowercase letter letters digit digits number code codes text written exactly per list array item items each all should must may optional required yyyy mm dd hh ss'.split(' '));

function fieldWords(...texts: string[]): string[] {
  const out: string[] = [];
  for (const t of texts) for (const w of t.toLowerCase().match(/[a-z]+/g) ?? []) if (w.length > 1 && !SCHEMA_STOP.has(w)) out.push(stem(w));
  return [...new Set(out)];
}

/** Words that label the same thing in mail (tables, "Label: value" lines), in both directions. */
const SYNONYMS: string[][] = [
  ['from', 'origin', 'departure', 'depart', 'departs', 'departing', 'leave', 'leaves', 'leaving', 'outbound', 'takes off'],
  ['to', 'destination', 'arrival', 'arrive', 'arrives', 'arriving', 'land', 'lands', 'landing', 'inbound'],
  ['start', 'starts', 'begin', 'begins', 'when'],
  ['end', 'ends', 'until', 'finish', 'finishes', 'when'],
  ['total', 'amount', 'sum', 'balance', 'payable', 'grand', 'gross', 'amount due', 'total due', 'amount paid'],
  ['net', 'subtotal', 'sub total', 'before tax', 'excl'],
  ['tax', 'vat', 'mwst', 'gst', 'sales tax'],
  ['invoice', 'receipt', 'bill', 'rechnung'],
  ['vendor', 'supplier', 'seller', 'issuer', 'merchant', 'business', 'company', 'biller'],
  ['number', 'no', 'nr', 'ref', 'reference', 'id', 'identifier'],
  ['issued', 'issue', 'dated', 'invoice date', 'paid on'],
  ['due', 'deadline', 'payable by', 'pay by', 'last day'],
  ['organizer', 'organiser', 'host', 'owner'],
  ['attendee', 'attendees', 'participant', 'participants', 'invitee', 'invitees', 'guest', 'guests', 'invited'],
  ['location', 'room', 'venue', 'place', 'where'],
  ['link', 'url', 'join', 'video', 'call'],
  ['title', 'subject', 'summary', 'topic', 'event'],
  ['booking', 'confirmation', 'pnr', 'record locator', 'reservation'],
  ['airline', 'carrier', 'operated'],
  ['flight', 'flight no'],
  ['quantity', 'qty', 'units', 'pcs', 'count', 'hours', 'hrs'],
  ['description', 'item', 'items', 'product', 'service', 'details', 'particulars', 'article'],
  ['price', 'rate', 'unit price', 'cost'],
];
const SYN = new Map<string, Set<string>>();
for (const g of SYNONYMS) {
  const st = g.map((w) => stem(w));
  for (const w of st) SYN.set(w, new Set([...(SYN.get(w) ?? []), ...st.filter((x) => x !== w)]));
}

function kindOf(name: string, s: Record<string, unknown>, desc: string): Kind {
  const n = words(name);
  const type = Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type;
  const all = `${n} ${desc}`.toLowerCase();
  if (type === 'array') {
    const it = (s.items ?? {}) as Record<string, unknown>;
    if (it.type === 'object' && it.properties && typeof it.properties === 'object') return 'rows';
    if (it.format === 'email' || /\bemails?\b/.test(n)) return 'emails';
    return 'strings';
  }
  if (Array.isArray(s.enum)) return 'enum';
  if (type === 'boolean') return 'boolean';
  if (s.format === 'date-time') return 'datetime';
  if (s.format === 'date') return 'date';
  if (s.format === 'time') return 'time';
  if (s.format === 'email' || s.format === 'idn-email') return 'email';
  if (s.format === 'uri' || s.format === 'iri' || s.format === 'uri-reference') return 'uri';
  if (/\bcurrency\b/.test(all) && (type === 'string' || !type)) return 'currency';
  if (typeof s.pattern === 'string') {
    try {
      if (new RegExp(s.pattern).test('16:00') && !new RegExp(s.pattern).test('ABC')) return 'time';
    } catch {
      // an invalid pattern is the schema's problem; ajv reports it
    }
    return 'pattern';
  }
  if (type === 'number' || type === 'integer') return /\b(amount|total|price|cost|sum|fee|balance|subtotal|paid|due|vat|tax)\b/.test(all) ? 'amount' : 'number';
  if (/\b(date|deadline)\b/.test(n) && !/\btime\b/.test(n)) return 'date';
  if (/\bemail\b/.test(n)) return 'email';
  if (/\biban\b/.test(n)) return 'iban';
  if (/\b(url|link|uri|website)\b/.test(n)) return 'uri';
  if (/\b(phone|tel|telephone|mobile|cell)\b/.test(n)) return 'phone';
  if (/\b(address|street)\b/.test(n)) return 'address';
  if (/\btime\b/.test(n)) return 'time';
  if (/\b(vendor|company|org|organisation|organization|employer|issuer|supplier|airline|carrier|merchant|seller|business)\b/.test(n)) return 'org';
  if (/\b(name|person|sender|contact|passenger|customer)\b/.test(n)) return 'person';
  return 'string';
}

function fieldSpecs(schema: Record<string, unknown>, ajv: Ajv2020): FieldSpec[] {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  // Names that would reach an object's prototype are never filled.
  return Object.entries(props).filter(([name, s]) => !['__proto__', 'constructor', 'prototype'].includes(name) && s && typeof s === 'object').map(([name, s]) => {
    const extra = Array.isArray(s['x-cues']) ? (s['x-cues'] as unknown[]).filter((x): x is string => typeof x === 'string') : [];
    const title = typeof s.title === 'string' ? s.title : '';
    const desc = typeof s.description === 'string' ? s.description : '';
    const cues = [...new Set([...extra.map((c) => c.toLowerCase()), words(name), ...(title ? [title.toLowerCase()] : [])])].filter(Boolean);
    let pattern: RegExp | undefined;
    const pat = typeof s.pattern === 'string' ? s.pattern : typeof (s.items as Record<string, unknown> | undefined)?.pattern === 'string' ? ((s.items as Record<string, unknown>).pattern as string) : undefined;
    if (pat) {
      try {
        pattern = new RegExp(pat, 'u');
      } catch {
        pattern = undefined;
      }
    }
    let validate: ValidateFunction | undefined;
    try {
      validate = ajv.compile(s);
    } catch {
      validate = undefined;
    }
    const weight = new Map<string, number>();
    const put = (ws: string[], w: number) => ws.forEach((x) => weight.set(x, Math.max(weight.get(x) ?? 0, w)));
    put(fieldWords(desc), 0.45);
    // synonyms of the name's words: "origin" is labelled "From" in a table
    for (const w of fieldWords(words(name), title)) for (const x of SYN.get(w) ?? []) if (!weight.has(x)) weight.set(x, 0.7);
    put(fieldWords(title), 0.9);
    put(fieldWords(words(name), ...extra), 1);
    return { name, kind: kindOf(name, s, desc), words: [...weight.keys()], weight, cues, schema: s, pattern, check: (v: unknown) => (validate ? !!validate(v) : true) };
  });
}

interface Labelled {
  label: string;
  value: string;
  index: number;
  /** 1 for "Label: value" lines, less for table cells and headers. */
  weight: number;
  /** Typed value already known (calendar, headers). */
  typed?: unknown;
}

/** "Label: value" lines — the strongest cue a mail gives for a field. */
function labelledLines(text: string): Labelled[] {
  const out: Labelled[] = [];
  const re = /^[ \t*•>-]*([\p{L}][\p{L}\p{N} #./()'&-]{0,40}?)\s*[:：]\s*(\S.*)$/gmu;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const [, label = '', value = ''] = m;
    if (/^(https?|mailto)$/i.test(label.trim())) continue;
    out.push({ label: normLabel(label), value: value.trim(), index: m.index, weight: 1 });
  }
  return out;
}

const normLabel = (s: string) => s.toLowerCase().replace(/[#.()*]/g, ' ').replace(/\s+/g, ' ').trim();

const decode = (s: string) =>
  s
    .replace(/<br\s*\/?>/gi, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&nbsp;|&#160;/g, ' ')
    .replace(/&amp;/g, '&')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;|&apos;/g, "'")
    .replace(/&euro;/g, '€')
    .replace(/&pound;/g, '£')
    .replace(/&#(\d+);/g, (_, n: string) => String.fromCodePoint(Number(n)))
    .replace(/\s+/g, ' ')
    .trim();

/** HTML tables as rows of cell texts. */
export function htmlTables(html: string): string[][][] {
  const tables: string[][][] = [];
  for (const t of html.match(/<table[\s\S]*?<\/table>/gi) ?? []) {
    const inner = t.replace(/^<table[^>]*>/i, '');
    // nested tables: take the innermost rows only
    const rows: string[][] = [];
    for (const r of inner.match(/<tr[\s\S]*?<\/tr>/gi) ?? []) {
      const cells = (r.match(/<t[dh][^>]*>[\s\S]*?<\/t[dh]>/gi) ?? []).map(decode);
      if (cells.some(Boolean)) rows.push(cells);
    }
    if (rows.length) tables.push(rows);
  }
  return tables;
}

const isLabelCell = (c: string) => c.length > 0 && c.length <= 40 && /\p{L}/u.test(c) && !/\d{3,}/.test(c) && c.split(/\s+/).length <= 5;

/** Header → value and label cell → next cell pairs from rows of cells (HTML tables or aligned text). */
function tablePairs(rows: Array<{ cells: string[]; index: number }>): Labelled[] {
  const out: Labelled[] = [];
  for (const [i, { cells, index }] of rows.entries()) {
    const filled = cells.filter(Boolean);
    const isHeader = cells.length >= 2 && cells.every((c) => !c || isLabelCell(c)) && rows[i + 1]?.cells.length === cells.length && !rows[i + 1]?.cells.every((c) => !c || isLabelCell(c));
    const [first = '', second = ''] = filled; // used only when there are two or more
    if (!isHeader && filled.length >= 2 && isLabelCell(first) && filled.length <= 3) {
      // "Total | | 1,234.00": label cell → the last filled cell (and the next one)
      out.push({ label: normLabel(first.replace(/[:：]\s*$/, '')), value: filled.at(-1) ?? second, index, weight: 0.9 });
      if (filled.length === 3) out.push({ label: normLabel(first), value: second, index, weight: 0.6 });
    }
    // a header row: every cell a label, followed by rows with the same number of cells
    if (cells.length >= 2 && cells.every((c) => !c || isLabelCell(c))) {
      for (const [d, next] of rows.slice(i + 1).entries()) {
        if (next.cells.length !== cells.length || next.cells.every((c) => !c || isLabelCell(c))) break;
        cells.forEach((h, k) => {
          const v = next.cells[k];
          if (h && v) out.push({ label: normLabel(h), value: v, index: next.index, weight: d === 0 ? 0.85 : 0.5 });
        });
      }
    }
  }
  return out;
}

/** Plain-text rows whose columns are separated by 2+ spaces, tabs or pipes. */
function alignedRows(text: string): Array<{ cells: string[]; index: number }> {
  const out: Array<{ cells: string[]; index: number }> = [];
  let at = 0;
  for (const line of text.split('\n')) {
    const cells = line
      .trim()
      .replace(/^\||\|$/g, '')
      .split(/\s*\|\s*|\t+|\s{2,}/)
      .map((c) => c.trim())
      // "EUR    35.00": a currency alone belongs to the number after it
      .reduce<string[]>((acc, c) => {
        const prev = acc[acc.length - 1];
        if (prev !== undefined && /^(?:[A-Z]{3}|[$€£¥])$/.test(prev) && /^-?[\d.,' ]+$/.test(c)) acc[acc.length - 1] = `${prev} ${c}`;
        else acc.push(c);
        return acc;
      }, []);
    if (cells.length >= 2 && !/^[-=+| ]+$/.test(line)) out.push({ cells, index: at });
    at += line.length + 1;
  }
  return out;
}

const LABEL_STOP = new Set(['the', 'a', 'an', 'of', 'your', 'our', 'my', 'and', 'in', 'on', 'at', 'for', 'is', 'incl', 'including', 'e', 'g']);

/** Matches a field's words in a label: weighted share of the label's words that name the field. */
function labelScore(label: string, spec: FieldSpec, idf: (w: string) => number): number {
  if (spec.cues.includes(label)) return 1;
  const lw = [...new Set((label.match(/[a-z]+/g) ?? []).filter((w) => !LABEL_STOP.has(w)).map(stem))];
  if (!lw.length) return 0;
  let hit = 0;
  let tot = 0;
  for (const w of lw) {
    const x = idf(w);
    tot += x;
    hit += x * (spec.weight.get(w) ?? 0);
  }
  const nameHit = fieldWords(words(spec.name)).filter((w) => lw.includes(w)).length > 0 ? 0.15 : 0;
  return Math.min(1, (tot ? hit / tot : 0) * 0.85 + nameHit);
}

/** Positions right after each occurrence of a field word in the text, with its weight. */
function wordSpots(text: string, spec: FieldSpec, idf: (w: string) => number): Array<{ at: number; w: number; start: number }> {
  const out: Array<{ at: number; w: number; start: number }> = [];
  const re = /[A-Za-z]+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const s = stem(m[0].toLowerCase());
    const fw = spec.weight.get(s);
    if (fw && (fw >= 0.9 || s.length > 3 || fw === 0.45)) out.push({ at: m.index + m[0].length, w: idf(s) * fw, start: m.index });
  }
  return out;
}

/** Closeness of a candidate at `index` to the field's words (0..1): nearer after a word is better. */
function closeness(index: number, spots: Array<{ at: number; w: number; start: number }>, reach = 90): number {
  let best = 0;
  for (const s of spots) {
    const d = index - s.at;
    const v = d >= -2 && d <= reach ? s.w * (1 - Math.max(0, d) / (reach * 1.2)) : d < 0 && d > -30 ? s.w * 0.25 : 0;
    if (v > best) best = v;
  }
  return Math.min(1, best);
}

const clean = (s: string) => s.replace(/\s+/g, ' ').replace(/[\s.,;]+$/, '').trim();
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
const cueRe = (cue: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${esc(cue).replace(/\s+/g, '\\s+')}($|[^\\p{L}\\p{N}])`, 'giu');

function numberOf(raw: string): number | undefined {
  const a = findAmounts(raw)[0];
  if (a) return a.value.amount;
  const n = /-?\d{1,3}(?:[,\u00a0' ]\d{3})+(?:\.\d+)?|-?\d+(?:[.,]\d+)?/.exec(raw);
  if (!n) return undefined;
  let t = n[0].replace(/[\u00a0' ]/g, '');
  if (/,\d{3}(?!\d)/.test(t) && !/,\d{1,2}$/.test(t)) t = t.replace(/,/g, '');
  else t = t.replace(',', '.');
  const v = Number(t);
  return Number.isFinite(v) ? v : undefined;
}

/** Every value a raw snippet can give for a field, typed by the field's kind. */
function coerceAll(spec: FieldSpec, raw: string, ref: Date, zone: string | undefined): unknown[] {
  switch (spec.kind) {
    case 'date': {
      const iso = /^\d{4}-\d{2}-\d{2}/.exec(raw.trim());
      if (iso) return [iso[0]];
      return findDates(raw, ref).slice(0, 1).map((d) => d.value);
    }
    case 'datetime':
      return findDateTimes(raw, ref, zone).map((d) => d.value);
    case 'time':
      return findTimes(raw).slice(0, 1).map((t) => (spec.schema.format === 'time' ? `${t.value}:00` : t.value));
    case 'amount':
    case 'number': {
      const v = numberOf(raw);
      if (v === undefined) return [];
      return spec.schema.type === 'integer' && !Number.isInteger(v) ? [] : [v];
    }
    case 'currency': {
      const a = findAmounts(raw)[0];
      if (a) return [a.value.currency];
      const c = /\b([A-Z]{3})\b/.exec(raw);
      return c ? [c[1]] : [];
    }
    case 'email':
      return findEmails(raw).map((e) => e.value);
    case 'emails': {
      const all = [...new Set(findEmails(raw).map((e) => e.value))];
      return all.length ? [all] : [];
    }
    case 'uri':
      return (raw.match(/\bhttps?:\/\/[^\s<>"')\]]+/gi) ?? []).map((u) => u.replace(/[.,;]+$/, ''));
    case 'phone':
      return findPhones(raw).slice(0, 1).map((p) => p.value);
    case 'iban': {
      const m = /\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,4})?\b/.exec(raw);
      return m ? [m[0].replace(/\s/g, '')] : [];
    }
    case 'enum': {
      const opts = (spec.schema.enum as unknown[]).filter((x): x is string => typeof x === 'string');
      return opts.filter((o) => cueRe(o.toLowerCase().replace(/[_-]/g, ' ')).test(raw.replace(/[_-]/g, ' ')) || cueRe(o.toLowerCase()).test(raw));
    }
    case 'pattern':
      return patternTokens(raw, spec.pattern!).map((t) => t.value);
    case 'boolean':
      if (/^(yes|true|y|ja|oui|confirmed)\b/i.test(raw.trim())) return [true];
      if (/^(no|false|n|nein|non)\b/i.test(raw.trim())) return [false];
      return [];
    case 'strings': {
      const parts = raw.split(/\s*[,;]\s*|\s+and\s+/).map(clean).filter(Boolean);
      return parts.length ? [parts] : [];
    }
    default: {
      const v = clean(raw);
      return v ? [v] : [];
    }
  }
}

/** A name of a person or business: letters, few digits, and not a date, amount, address or link. */
function looksLikeName(v: unknown, ref: Date): boolean {
  if (typeof v !== 'string' || !/\p{L}{2}/u.test(v) || v.length > 80) return false;
  const digits = (v.match(/\d/g) ?? []).length;
  if (digits > v.length / 4 || /^[A-Z]{1,3}[\s-]?\d/.test(v)) return false;
  if (/@|https?:\/\//.test(v)) return false;
  const d = findDates(v, ref)[0];
  if (d && d.text.length >= v.length * 0.6) return false;
  if (findAmounts(v).length) return false;
  return true;
}

/** Tokens (and 2–3-token runs) of the text that match the field's own pattern. */
function patternTokens(text: string, re: RegExp): Array<Found<string>> {
  const out: Array<Found<string>> = [];
  const toks: Array<{ t: string; i: number }> = [];
  const tr = /[^\s,;:()[\]{}<>"'→]+/g;
  let m: RegExpExecArray | null;
  while ((m = tr.exec(text))) toks.push({ t: m[0].replace(/[.!?]+$/, ''), i: m.index });
  const seen = new Set<number>();
  for (const [k, tok] of toks.entries()) {
    for (let n = 1; n <= 3 && k + n <= toks.length; n++) {
      const last = toks[k + n - 1];
      if (!last) break; // k + n <= toks.length
      const span = text.slice(tok.i, last.i + last.t.length);
      if (n > 1 && /\n/.test(span)) break;
      if (seen.has(tok.i)) continue;
      // Repairs the pattern may need: "LX 318" → "LX318", "lis" → "LIS", "TP931" → "TP 931".
      const variants = [span, span.replace(/\s+/g, ''), span.replace(/^([A-Za-z0-9]{2})(\d{1,4})$/, '$1 $2'), ...(/\d/.test(span) ? [span.toUpperCase(), span.replace(/\s+/g, '').toUpperCase()] : [])];
      const ok = variants.find((v) => re.test(v));
      if (ok !== undefined) {
        out.push({ value: ok, index: tok.i, text: span });
        seen.add(tok.i);
      }
    }
  }
  return out;
}

const CURRENCY_CODES = new Set(['USD', 'EUR', 'GBP', 'CHF', 'JPY', 'CAD', 'AUD', 'SEK', 'NOK', 'DKK', 'PLN', 'CZK', 'NZD', 'INR', 'CNY']);
const COMMON_CAPS = new Set(['THE', 'AND', 'FOR', 'YOU', 'PDF', 'VAT', 'TAX', 'FAQ', 'ETA', 'CEO', 'CFO', 'CTO', 'API', 'URL', 'ASAP', 'FYI', 'RSVP', 'NEW', 'ONE', 'TWO', 'OUT', 'NOT', 'ALL', 'ANY', 'ARE', 'RE', 'FW', 'FWD', 'AM', 'PM', 'OK', 'NO', 'YES', 'ID', 'QTY', 'NET', 'DUE', 'REF', 'PIN', 'SMS', 'USA', 'UK', 'EU']);

/** Offset of the message's own Date header, as a zone for times written without one. */
function headerZone(facts: MessageFacts | undefined): string | undefined {
  const d = facts?.headers['date-raw'];
  const m = d ? /([+-]\d{2})(\d{2})\s*(?:\(.*\))?\s*$/.exec(d) : undefined;
  return m ? `${m[1]}:${m[2]}` : undefined;
}

/** Calendar event facts as labelled pairs with typed values. */
function calendarPairs(facts: MessageFacts | undefined): Labelled[] {
  const out: Labelled[] = [];
  for (const e of facts?.events ?? []) {
    const put = (label: string, value: string | undefined, typed?: unknown) => {
      if (value) out.push({ label, value, index: -1, weight: 1, typed });
    };
    put('title summary subject name meeting event', e.summary);
    put('start starts begin begins from start time date when', e.start, e.start);
    put('end ends finish until end time', e.end, e.end);
    const link = e.url ?? (e.location ?? '').match(/https?:\/\/\S+/)?.[0] ?? (e.description ?? '').match(/https?:\/\/[^\s<>"]+/)?.[0];
    put('location room place venue where', e.location && link && !e.location.includes(link) ? `${e.location}` : e.location);
    put('url link video call conference meeting link join online', link);
    put('organizer organiser host owner from', e.organizer?.email, e.organizer?.email);
    if (e.attendees.length) out.push({ label: 'attendees participants invitees guests people', value: e.attendees.map((a) => a.email).join(', '), index: -1, weight: 1, typed: e.attendees.map((a) => a.email) });
    put('description notes agenda details', e.description);
  }
  return out;
}

/** Blocks of consecutive aligned rows (plain-text tables). */
function textBlocks(text: string): string[][][] {
  const rows = alignedRows(text);
  const blocks: string[][][] = [];
  let cur: string[][] = [];
  let lastEnd = -2;
  const lines = text.split('\n');
  let at = 0;
  const lineOf = new Map<number, number>();
  lines.forEach((l, i) => {
    lineOf.set(at, i);
    at += l.length + 1;
  });
  for (const r of rows) {
    const li = lineOf.get(r.index) ?? -10;
    if (li !== lastEnd + 1 && cur.length) {
      blocks.push(cur);
      cur = [];
    }
    cur.push(r.cells);
    lastEnd = li;
  }
  if (cur.length) blocks.push(cur);
  return blocks;
}

const SUMMARY_ROW = /^(sub-?total|total|vat|tax|tva|mwst|net|gross|balance|amount due|grand total)\b/i;

/** An array of objects from a table: the header row names the item's properties, each row below is one item. */
function tableRows(spec: FieldSpec, tables: string[][][], ajv: Ajv2020, ref: Date, zone: string | undefined): Record<string, unknown>[] | undefined {
  const items = spec.schema.items as Record<string, unknown>;
  const sub = fieldSpecs(items, ajv);
  const df = new Map<string, number>();
  for (const x of sub) for (const w of x.words) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string) => (df.has(w) ? 1 / Math.sqrt(df.get(w)!) : 0.6);
  let validateItem: ValidateFunction | undefined;
  try {
    validateItem = ajv.compile(items);
  } catch {
    return undefined;
  }
  for (const t of tables) {
    for (const [h, header] of t.entries()) {
      if (!header.every((c) => !c || isLabelCell(c))) continue;
      const map = header.map((c) => {
        let best: FieldSpec | undefined;
        let bs = 0.34;
        for (const x of sub) {
          const sc = labelScore(normLabel(c), x, idf);
          if (sc > bs) {
            best = x;
            bs = sc;
          }
        }
        return best;
      });
      if (map.filter(Boolean).length < 2) continue;
      const out: Record<string, unknown>[] = [];
      for (const row of t.slice(h + 1)) {
        if (row.length !== header.length || SUMMARY_ROW.test(row[0] ?? '') || row.every((c) => !c || isLabelCell(c))) break;
        const item: Record<string, unknown> = {};
        row.forEach((cell, k) => {
          const x = map[k];
          if (!x || !cell) return;
          const v = coerceAll(x, cell, ref, zone)[0];
          if (v !== undefined && x.check(v)) item[x.name] = v;
        });
        if (Object.keys(item).length && validateItem(item)) out.push(item);
      }
      if (out.length) return out;
    }
  }
  return undefined;
}

/**
 * Fills a user's JSON Schema from one message, driven by the schema itself: each field's
 * `format`, `pattern`, `type` and `enum` choose typed parsers, its name/title/description say
 * which label, table cell or nearby words it belongs to; "Label: value" lines, HTML tables and
 * aligned text columns, `text/calendar` VEVENTs, headers and NER spans give candidates, scored by
 * closeness to the field's words. A candidate must validate against the field's own schema; a
 * field with no evidence stays empty — nothing is invented.
 */
export async function extractToSchema(msg: MessageRow, schema: Record<string, unknown>, nlp?: Nlp, facts?: MessageFacts): Promise<ExtractResult> {
  const body = latestText(msg.text) || msg.text;
  const tables = msg.html ? htmlTables(msg.html) : [];
  const tableText = tables.map((t) => t.map((r) => r.join('  |  ')).join('\n')).join('\n\n');
  // Bounded work on huge mail: the first 100,000 characters hold what a person would read.
  const text = `${msg.subject}\n${body.slice(0, 100_000)}${tableText ? `\n\n${tableText.slice(0, 50_000)}` : ''}`;
  const ref = new Date(msg.created_at);
  const zone = headerZone(facts);
  const labels = [...labelledLines(text), ...tablePairs(alignedRows(text)), ...calendarPairs(facts)];
  let spans: EntitySpan[] = [];
  if (nlp) {
    try {
      spans = await nlp.entities(text.slice(0, 4000));
    } catch {
      spans = [];
    }
  }
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  let validate: ValidateFunction;
  try {
    const copy = { ...schema };
    delete copy.$id;
    validate = ajv.compile(copy);
  } catch (e) {
    const names = Object.keys((schema.properties ?? {}) as object);
    return { data: {}, confidence: 0, missing_fields: names, validation_errors: [`schema does not compile: ${(e as Error).message}`] };
  }
  const specs = fieldSpecs(schema, ajv);
  // Words shared by many fields of the schema ("flight" in every field of a flight schema) say little.
  const df = new Map<string, number>();
  for (const s of specs) for (const w of s.words) df.set(w, (df.get(w) ?? 0) + 1);
  const idf = (w: string) => (df.has(w) ? 1 / Math.sqrt(df.get(w)!) : 0.6);

  const data: Record<string, unknown> = {};
  const conf: Record<string, number> = {};
  const hasUriField = specs.some((x) => x.kind === 'uri');
  const taken = new Map<string, Set<string>>(); // kind/pattern → values used by earlier sibling fields
  let chosenAmount: { currency: string } | undefined;

  for (const spec of specs) {
    const cands: Cand[] = [];
    const sibKey = spec.kind === 'pattern' ? `p:${String(spec.schema.pattern)}` : spec.kind;
    const used = taken.get(sibKey) ?? new Set<string>();
    const add = (value: unknown, score: number, index: number) => {
      if (typeof value === 'string' && hasUriField && (spec.kind === 'string' || spec.kind === 'org') && /https?:\/\//.test(value)) {
        value = value.replace(/\s*[,;(]?\s*<?https?:\/\/[^\s>)]+>?\)?/g, '').replace(/[\s,;:–-]+$/, '').replace(/\s+(and|or|plus|&|via|on)$/i, '').trim();
      }
      if (value === undefined || value === '' || (Array.isArray(value) && !value.length)) return;
      if (!spec.check(value)) return;
      // a name is not an identifier: "INV-2041" is no vendor, "4711" no person
      if ((spec.kind === 'org' || spec.kind === 'person') && !looksLikeName(value, ref)) return;
      // "Mr Henrik Solberg" → "Henrik Solberg": a title is not part of the name
      if (spec.kind === 'person' && typeof value === 'string') value = value.replace(/^(mr|mrs|ms|miss|mx|dr|prof)\.?\s+/i, '');
      cands.push({ value, score, index });
    };

    // 1. Labelled pairs (lines, tables, calendar) whose label names the field.
    for (const l of labels) {
      const s = labelScore(l.label, spec, idf);
      if (s < 0.34) continue;
      const vals = l.typed !== undefined && (spec.kind === 'datetime' || spec.kind === 'emails' || spec.kind === 'email') ? [l.typed, ...coerceAll(spec, l.value, ref, zone)] : coerceAll(spec, l.value, ref, zone);
      if (spec.kind === 'date' && typeof l.typed === 'string') vals.unshift(l.typed.slice(0, 10));
      vals.forEach((v, k) => add(spec.kind === 'email' && Array.isArray(v) ? v[0] : v, 0.5 + 0.45 * s * l.weight - k * 0.01, l.index));
    }

    // 2. Typed parsers over the whole text, scored by closeness to the field's words.
    const spots = wordSpots(text, spec, idf);
    const typed = (found: Array<Found<unknown>>, base = 0.3, reach?: number) => {
      for (const f of found) {
        const c = closeness(f.index, spots, reach);
        add(f.value, base + 0.4 * c, f.index);
      }
    };
    switch (spec.kind) {
      case 'date':
        typed(findDates(text, ref), 0.25);
        break;
      case 'datetime':
        typed(findDateTimes(text, ref, zone).map((d) => ({ ...d, value: d.value })), 0.25);
        break;
      case 'time':
        typed(findTimes(text).map((t) => ({ ...t, value: spec.schema.format === 'time' ? `${t.value}:00` : t.value })), 0.25);
        break;
      case 'amount': {
        typed(findAmounts(text).map((a) => ({ ...a, value: a.value.amount })), 0.3);
        break;
      }
      case 'number': {
        const nums: Array<Found<number>> = [];
        const re = /(?<![\w.-])-?\d{1,3}(?:,\d{3})+(?:\.\d+)?(?![\w-])|(?<![\w.-])-?\d+(?:\.\d+)?(?![\w-])/g;
        let m: RegExpExecArray | null;
        while ((m = re.exec(text))) {
          const v = numberOf(m[0]);
          if (v !== undefined && !(spec.schema.type === 'integer' && !Number.isInteger(v))) nums.push({ value: v, index: m.index, text: m[0] });
        }
        // plain numbers only near the field's words: a number anywhere is no evidence
        for (const f of nums) {
          const c = closeness(f.index, spots, 40);
          if (c > 0.2) add(f.value, 0.2 + 0.4 * c, f.index);
        }
        break;
      }
      case 'currency': {
        if (chosenAmount) add(chosenAmount.currency, 0.8, -1);
        typed(findAmounts(text).map((a) => ({ ...a, value: a.value.currency })), 0.35);
        break;
      }
      case 'email': {
        const wantsSender = /\b(sender|from|organizer|organiser|host|vendor|issuer|supplier)\b/.test(words(spec.name));
        if (wantsSender && msg.from) add(msg.from.email, 0.7, -1);
        const all = findEmails(text);
        typed(all, 0.25);
        if (facts?.events[0]?.organizer && /\b(organi[sz]er|host)\b/.test(words(spec.name))) add(facts.events[0].organizer.email, 0.9, -1);
        if (!all.length && msg.from && /\b(contact|reply|from|sender|email)\b/.test(words(spec.name))) add(msg.from.email, 0.4, -1);
        break;
      }
      case 'emails': {
        // every address in a line naming the field, else the calendar's attendees
        const ev = facts?.events[0];
        if (ev?.attendees.length && /\b(attendee|participant|invitee|guest|people|member)/.test(spec.words.join(' '))) add([...new Set(ev.attendees.map((a) => a.email))], 0.85, -1);
        if (!cands.length && /\b(attendee|participant|invitee|guest|recipient)/.test(spec.words.join(' '))) {
          const ppl = [...msg.to, ...msg.cc, ...(msg.from ? [msg.from] : [])].map((p) => p.email);
          if (ppl.length && /\b(invit|meeting|call|calendar)/i.test(text)) add([...new Set(ppl)], 0.35, -1);
        }
        break;
      }
      case 'uri': {
        const urls: Array<Found<string>> = [];
        const re = /\bhttps?:\/\/[^\s<>"')\]]+/gi;
        let m: RegExpExecArray | null;
        while ((m = re.exec(text))) urls.push({ value: m[0].replace(/[.,;]+$/, ''), index: m.index, text: m[0] });
        const video = /\b(video|call|meet|conference|join|online|zoom|teams)\b/.test(spec.words.join(' ') + ' ' + words(spec.name));
        for (const u of urls) {
          const isVideo = /(meet\.|zoom\.|teams\.|webex|whereby|jit\.si|\/meet|\/join|\/j\/)/i.test(u.value);
          add(u.value, 0.3 + 0.4 * closeness(u.index, spots) + (video && isVideo ? 0.3 : 0) - (/unsubscribe|tracking|utm_/i.test(u.value) ? 0.3 : 0), u.index);
        }
        break;
      }
      case 'phone':
        typed(findPhones(text), 0.3);
        break;
      case 'address':
        typed(findAddresses(text), 0.3, 120);
        break;
      case 'iban':
      case 'enum':
      case 'boolean':
        for (const v of coerceAll(spec, text, ref, zone)) add(v, 0.4, -1);
        break;
      case 'pattern': {
        const currencyish = /\bcurrenc/.test(spec.words.join(' '));
        for (const f of patternTokens(text, spec.pattern!)) {
          const c = closeness(f.index, spots, 60);
          let s = 0.2 + 0.5 * c;
          const up = f.value.toUpperCase();
          if (!currencyish && (CURRENCY_CODES.has(up) || COMMON_CAPS.has(up) || up in ZONE_ABBR)) s -= 0.3;
          // inside a parenthesis right after a place name: "Lisbon (LIS)" — the way codes are written
          if (text[f.index - 1] === '(') s += 0.1;
          // a designator written with a space ("LX 318") beats its bare number ("318")
          if (/\s/.test(f.text) && f.value.length > f.text.replace(/\s+/g, '').length - 1 && /[A-Z]/.test(f.value) && /\d/.test(f.value)) s += 0.05;
          add(f.value, s, f.index);
        }
        break;
      }
      case 'person': {
        for (const p of spans.filter((x) => x.type === 'PERSON' && !/\n/.test(x.text))) add(p.text, 0.3 + 0.3 * closeness(p.start, spots), p.start);
        if (msg.from?.name && /\b(sender|from|name|contact)\b/.test(words(spec.name))) add(msg.from.name, 0.45, -1);
        break;
      }
      case 'org': {
        const orgs = spans.filter((x) => x.type === 'ORG' && !/\n/.test(x.text));
        for (const o of orgs) add(o.text, 0.3 + 0.3 * closeness(o.start, spots), o.start);
        // A business's own display name ("Willow & Finch Carpentry <accounts@…>"); a department
        // name ("Northwind Billing") or a person's name is not one.
        const fn = msg.from?.name?.trim();
        const company = !!fn && (/\b(GmbH|AG|Ltd|Limited|Inc|LLC|SA|SAS|BV|NV|Oy|AB|AS|ApS|S\.?r\.?l|KG|plc|Co)\b\.?/.test(fn));
        if (fn && (facts?.senderKind !== 'person' || company) && !/\b(billing|invoices?|accounts?|accounting|bookings?|reservations?|team|no-?reply|notifications?|support|service|customer|department|dept|office|sales|info|alerts?)\b/i.test(fn) && !/[<>@]/.test(fn)) add(fn, 0.36 + (orgs.some((o) => fn.toLowerCase().includes(o.text.toLowerCase())) ? 0.35 : 0), -1);
        break;
      }
      case 'rows': {
        const rows = tableRows(spec, [...tables, ...textBlocks(text)], ajv, ref, zone);
        if (rows) add(rows, 0.8, -1);
        break;
      }
      case 'strings':
      case 'string': {
        const isTitle = /\b(title|subject|topic|summary|name)\b/.test(words(spec.name));
        if (isTitle && /\b(meeting|event|invit|call|session)/.test(spec.words.join(' ') + ' ' + text.slice(0, 300).toLowerCase())) {
          const subj = msg.subject.replace(/^\s*((re|fwd?|aw)\s*:\s*)+/i, '').replace(/^(invitation|updated invitation|invite|meeting request|calendar)\s*[:-]\s*/i, '').replace(/\s*@\s.*$/, '').trim();
          if (subj) add(subj, 0.4, -1);
        }
        // An identifier right after a field word: "invoice INV-2041", "order #55321", "booking ref ABC123".
        for (const sp of spots) {
          const after = text.slice(sp.at, sp.at + 40);
          const m = /^\s*(?:#|no\.?|nr\.?|number|id|ref(?:erence)?|code)?\s*[:#]?\s*([A-Z0-9][A-Z0-9/_-]{2,})/i.exec(after);
          const [, id = ''] = m ?? [];
          if (m && /\d/.test(id)) add(spec.kind === 'strings' ? [id] : id, 0.3 + 0.4 * sp.w, sp.at);
        }
        break;
      }
      default:
        break;
    }

    // The only value of its kind in the message, for the only field of that kind: good evidence.
    if (['date', 'datetime', 'time', 'amount', 'email', 'uri', 'phone', 'address'].includes(spec.kind) && specs.filter((x) => x.kind === spec.kind).length === 1) {
      const distinct = new Set(cands.filter((c) => c.index >= 0).map((c) => JSON.stringify(c.value)));
      if (distinct.size === 1) for (const c of cands) c.score += 0.15;
    }
    // Best candidate not already used by an earlier sibling field of the same kind ("from"/"to").
    cands.sort((a, b) => b.score - a.score || (a.index < 0 ? 1 : b.index < 0 ? -1 : a.index - b.index));
    const key = (v: unknown) => JSON.stringify(v).toLowerCase();
    let pick = cands.find((c) => !used.has(key(c.value)));
    // A required field takes weaker evidence (a value of its exact pattern/format with no label near it).
    const floor = Array.isArray(schema.required) && (schema.required as unknown[]).includes(spec.name) ? 0.15 : 0.3;
    if (pick && pick.score < floor) pick = undefined;
    if (pick && used.size && cands[0] && cands[0] !== pick && cands[0].score - pick.score > 0.45) pick = undefined;
    if (pick) {
      data[spec.name] = pick.value;
      conf[spec.name] = Math.round(Math.min(0.99, pick.score + 0.1) * 100) / 100;
      used.add(key(pick.value));
      taken.set(sibKey, used);
      if (spec.kind === 'amount') {
        const a = findAmounts(text).find((x) => x.value.amount === pick!.value);
        if (a) chosenAmount = { currency: a.value.currency };
      }
    }
  }

  // The whole object must validate; a value that breaks it is dropped and reported.
  const validation_errors: string[] = [];
  for (let i = 0; i < 5 && !validate(data); i++) {
    let dropped = false;
    for (const err of validate.errors ?? []) {
      const field = err.instancePath.split('/')[1] ?? (err.keyword === 'additionalProperties' ? String((err.params as { additionalProperty?: string }).additionalProperty) : undefined);
      if (field && field in data) {
        validation_errors.push(`${field}: found ${JSON.stringify(data[field])} but it ${err.message ?? 'is invalid'}; left empty`);
        delete data[field];
        delete conf[field];
        dropped = true;
      }
    }
    if (!dropped) break;
  }
  const required = Array.isArray(schema.required) ? (schema.required as string[]) : [];
  const missing_fields = [...required.filter((f) => !(f in data)), ...specs.map((s) => s.name).filter((f) => !(f in data) && !required.includes(f))];
  for (const f of required.filter((r) => !(r in data))) validation_errors.push(`${f}: required but not found in the message`);
  const filled = Object.values(conf);
  const coverage = specs.length ? filled.length / specs.length : 0;
  const mean = filled.length ? filled.reduce((a, b) => a + b, 0) / filled.length : 0;
  const confidence = Math.round(Math.max(0, Math.min(1, mean * (0.5 + 0.5 * coverage))) * 100) / 100;
  return { data, confidence, missing_fields, validation_errors };
}

export { withZone, offsetString };
