import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Nlp, EntitySpan } from '../nlp';
import type { MessageRow } from './store';
import type { MessageFacts } from './facts';
import { findAddresses, findAmounts, findDates, findEmails, findPhones, findTimes, type Found } from './parsers';
import { findDateTimes, withZone, offsetFor, offsetString, zoneOffsetAt, ZONE_ABBR } from './datetime';
import { airportZone } from './airports';
import { latestText, stem } from './text';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export interface ExtractResult {
  data: Record<string, unknown>;
  confidence: number;
  missing_fields: string[];
  validation_errors: string[];
}

type Kind = 'date' | 'datetime' | 'time' | 'amount' | 'number' | 'currency' | 'email' | 'uri' | 'phone' | 'address' | 'enum' | 'pattern' | 'person' | 'org' | 'iban' | 'boolean' | 'emails' | 'strings' | 'rows' | 'identifier' | 'string';

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
  /** For amounts: which line of a bill the field is (net / tax / total), from its name, title, description. */
  family?: Family;
  /** For sibling fields such as origin/destination or departure/arrival: which side of "X -> Y". */
  role?: 'origin' | 'destination';
  /** Words naming the document the whole schema is about (its title, "invoice", "booking"): in a label they say whose, not which. */
  context: Set<string>;
}

/** Lines of a bill: net (subtotal, before tax), tax (VAT, sales tax), total (amount due / paid, balance). */
type Family = 'net' | 'tax' | 'total';

/** The bill line a label (or a field's words) names; "Charges before VAT" is net, "Total incl. VAT" total. */
export function amountFamily(label: string): Family | undefined {
  const l = label.toLowerCase();
  if (/\b(sub-?\s?total|net|netto\w*|zwischensumme|before (vat|tax|taxes)|excl\.?|excluding|pre-?tax|ex\.? vat|ht)\b/.test(l)) return 'net';
  if (/\b(total|balance|amount due|grand|gross|payable)\b/.test(l) && /\b(incl\.?|including|inc\.?|with)\b/.test(l)) return 'total';
  if (/\b(vat|tax|taxes|mwst|ust|gst|hst|pst|tva|iva|moms)\b/.test(l)) return 'tax';
  if (/\b(total|balance|amount due|amount paid|grand|gross|payable|to pay|charged|amount|gesamt\w*|summe|endbetrag|betrag|brutto\w*|montant|importe|ttc)\b/.test(l)) return 'total';
  return undefined;
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
  ['from', 'origin', 'departure', 'depart', 'departs', 'departing', 'leave', 'leaves', 'leaving', 'outbound', 'takes off', 'dep', 'dept'],
  ['to', 'destination', 'arrival', 'arrive', 'arrives', 'arriving', 'land', 'lands', 'landing', 'inbound', 'arr'],
  ['start', 'starts', 'begin', 'begins', 'when'],
  ['end', 'ends', 'until', 'finish', 'finishes', 'when'],
  ['total', 'amount', 'sum', 'balance', 'payable', 'grand', 'gross', 'amount due', 'total due', 'amount paid', 'gesamt', 'gesamtbetrag', 'betrag', 'summe', 'endbetrag', 'montant', 'importe', 'totale'],
  ['net', 'subtotal', 'sub total', 'before tax', 'excl', 'netto', 'nettobetrag', 'zwischensumme'],
  ['tax', 'vat', 'mwst', 'gst', 'sales tax', 'ust', 'tva', 'iva', 'steuer'],
  ['invoice', 'receipt', 'bill', 'rechnung', 'facture', 'factura', 'fattura', 'quittung', 'beleg'],
  ['vendor', 'supplier', 'seller', 'issuer', 'merchant', 'business', 'company', 'biller'],
  ['number', 'no', 'nr', 'ref', 'reference', 'id', 'identifier', 'nummer', 'numero', 'num'],
  ['issued', 'issue', 'dated', 'invoice date', 'paid on'],
  ['date', 'datum', 'fecha', 'data'],
  ['due', 'deadline', 'payable by', 'pay by', 'last day', 'payable', 'fallig', 'zahlbar', 'echeance', 'vencimiento'],
  ['organizer', 'organiser', 'host', 'owner'],
  ['attendee', 'attendees', 'participant', 'participants', 'invitee', 'invitees', 'guest', 'guests', 'invited', 'who', 'required', 'optional'],
  ['location', 'room', 'venue', 'place', 'where'],
  ['link', 'url', 'join', 'video', 'call'],
  ['title', 'subject', 'summary', 'topic', 'event', 'what'],
  ['booking', 'confirmation', 'pnr', 'record locator', 'reservation'],
  ['airline', 'carrier', 'operated'],
  ['flight', 'flight no'],
  ['quantity', 'qty', 'units', 'pcs', 'count', 'hours', 'hrs'],
  ['description', 'item', 'items', 'product', 'service', 'details', 'particulars', 'article'],
  ['price', 'rate', 'unit price', 'cost'],
];
/** The synonym phrases of more than one word ("invoice date", "pay by"). */
const SYN_PHRASES = [...new Set(SYNONYMS.flat().filter((w) => w.includes(' ')))];
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
  // an enum of currency codes is read as a currency ("€950" is EUR)
  if (Array.isArray(s.enum) && s.enum.filter((x) => typeof x === 'string' && CURRENCY_CODES.has(x)).length >= 2) return 'currency';
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
  // "invoice_number", "order_id", "ticket ref": an identifier as printed, whatever the description says it belongs to.
  if ((type === 'string' || !type) && /\b(number|no|nr|num|id|code|ref|reference|locator|pnr)\b/.test(n)) return 'identifier';
  if (/\b(vendor|company|org|organisation|organization|employer|issuer|supplier|airline|carrier|merchant|seller|business|biller|payee|shop|store)\b/.test(n)) return 'org';
  // "name" described as a meeting's title is a title, not a person
  if ((type === 'string' || !type) && /\b(title|subject|topic|heading)\b/.test(desc.toLowerCase())) return 'string';
  // "name": "What the meeting is called" names an event, not a person.
  if ((type === 'string' || !type) && /\bname\b/.test(n) && /\b(meeting|event|invitation|appointment|session|webinar|conference|workshop|called)\b/i.test(desc) && !/\b(person|people|who|attendee|organi[sz]er|contact|sender|passenger|guest)\b/i.test(desc)) return 'string';
  if ((type === 'string' || !type) && /\b(company|business|vendor|supplier|merchant|airline|organi[sz]ation)\b/.test(desc.toLowerCase()) && !/\b(name|person|contact)\b/.test(n)) return 'org';
  if (/\b(name|person|sender|contact|passenger|customer|traveller|traveler|guest|attendee|recipient|holder)\b/.test(n)) return 'person';
  if ((type === 'string' || !type) && /\b(passenger|traveller|traveler|person's name|full name)\b/.test(desc.toLowerCase())) return 'person';
  return 'string';
}

/**
 * A field's schema with local references (`{"$ref": "#/$defs/iata"}`) resolved and `allOf` parts
 * merged, so its kind, pattern and words are read from what it points to (the field's own
 * keywords win). Unresolvable references are left as they are.
 */
export function resolvedField(s: Record<string, unknown>, root: Record<string, unknown>, depth = 0): Record<string, unknown> {
  if (depth > 8) return s;
  let out: Record<string, unknown> = { ...s };
  const ref = typeof s.$ref === 'string' ? s.$ref : undefined;
  if (ref?.startsWith('#/')) {
    const target = ref
      .slice(2)
      .split('/')
      .map((p) => decodeURIComponent(p.replace(/~1/g, '/').replace(/~0/g, '~')))
      .reduce<unknown>((o, k) => (o && typeof o === 'object' ? (o as Record<string, unknown>)[k] : undefined), root);
    if (target && typeof target === 'object' && !Array.isArray(target)) {
      const rest = { ...s };
      delete rest.$ref;
      out = { ...resolvedField(target as Record<string, unknown>, root, depth + 1), ...rest };
    }
  }
  if (Array.isArray(out.allOf)) {
    for (const part of out.allOf) if (part && typeof part === 'object') out = { ...resolvedField(part as Record<string, unknown>, root, depth + 1), ...out };
  }
  if (out.items && typeof out.items === 'object' && !Array.isArray(out.items)) out.items = resolvedField(out.items as Record<string, unknown>, root, depth + 1);
  return out;
}

function fieldSpecs(schema: Record<string, unknown>, ajv: Ajv2020): FieldSpec[] {
  const rawProps = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  // The document the schema describes: its title and the words mail uses for such documents
  // ("Invoice date" on an invoice is the date). (Not words shared by field names: "due" in
  // amount_due and payment_due_date still tells the due date from the issue date.)
  const rootWords = fieldWords(typeof schema.title === 'string' ? schema.title : '');
  const context = new Set([...rootWords, ...DOCUMENT_WORDS].filter((w) => !GENERIC_LABEL.has(w)));
  // A field is checked with the schema's own definitions beside it, so its references resolve.
  const defs = Object.fromEntries((['$defs', 'definitions'] as const).filter((k) => schema[k] && typeof schema[k] === 'object').map((k) => [k, schema[k]]));
  const props = Object.fromEntries(Object.entries(rawProps).map(([name, s]) => [name, s && typeof s === 'object' ? resolvedField(s, schema) : s]));
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
      const own = { ...(rawProps[name] ?? s), ...defs };
      delete own.$id;
      validate = ajv.compile(own);
    } catch {
      validate = undefined;
    }
    const weight = new Map<string, number>();
    const put = (ws: string[], w: number) => ws.forEach((x) => weight.set(x, Math.max(weight.get(x) ?? 0, w)));
    put(fieldWords(desc), 0.45);
    // synonyms of the name's words: "origin" is labelled "From" in a table
    for (const w of fieldWords(words(name), title)) for (const x of SYN.get(w) ?? []) if (!weight.has(x)) weight.set(x, 0.7);
    // A phrase of a synonym group in the name, title or description ("pay by", "last day", "record
    // locator") names the group's labels ("Due") as well as a word of the name would.
    const said = ` ${[words(name), title, desc].join(' ').toLowerCase().replace(/[^a-z]+/g, ' ')} `;
    for (const g of SYNONYMS) if (g.some((p) => p.includes(' ') && said.includes(` ${p} `))) for (const x of g) if (!weight.has(stem(x))) weight.set(stem(x), 0.6);
    // Synonyms of the description's words, weaker: "Business that sent the bill" is labelled "Invoice …".
    for (const w of fieldWords(desc)) for (const x of SYN.get(w) ?? []) if (!weight.has(x)) weight.set(x, 0.3);
    put(fieldWords(title), 0.9);
    put(fieldWords(words(name), ...extra), 1);
    // a field named only by a stop word ("where", "when") is still named by it
    if (!fieldWords(words(name)).length) for (const w of words(name).split(' ')) for (const x of [w, ...(SYN.get(stem(w)) ?? [])]) if (!weight.has(stem(x))) weight.set(stem(x), x === w ? 1 : 0.7);
    const kind = kindOf(name, s, desc);
    // The format names the labels a value sits under: a date field's label says "date" ("Invoice
    // date", "Due date"), a date-time's "date" or "time"; the field's other words pick which one.
    if (kind === 'date' || kind === 'datetime') for (const x of ['date', ...(kind === 'datetime' ? ['time'] : [])]) if (!weight.has(x)) weight.set(x, 0.5);
    // An amount field is one line of a bill; words of the other lines ("amount" in "vat_amount",
    // "VAT" in "Amount before VAT") must not pull it toward them.
    const family = kind === 'amount' || kind === 'number' ? (amountFamily(`${words(name)} ${title}`) ?? amountFamily(desc)) : undefined;
    if (family) for (const w of [...weight.keys()]) if (amountFamily(w) && amountFamily(w) !== family && !(family === 'total' && w === 'amount')) weight.delete(w);
    const roleText = `${words(name)} ${title.toLowerCase()}`;
    const roleOf = (t: string) => (/\b(from|origin|dep|dept|depart\w*|outbound|start\w*|begin\w*)\b/.test(t) ? 'origin' : /\b(to|destination|arr|arriv\w*|land\w*|end\w*|finish\w*)\b/.test(t) ? 'destination' : undefined);
    const role = kind === 'pattern' || kind === 'datetime' || kind === 'time' ? (roleOf(roleText) ?? roleOf(desc.toLowerCase())) : undefined;
    return { name, kind, words: [...weight.keys()], weight, cues, schema: s, pattern, family, role, context, check: (v: unknown) => (validate ? !!validate(v) : true) };
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
    // A value that goes on over indented lines ("Attendees: A (a@x),\n      B (b@x)") is one value.
    let full = value.trim();
    let at = m.index + m[0].length;
    while (/[,;]$/.test(full)) {
      const next = /^\n([ \t]{2,})(\S[^\n]*)/.exec(text.slice(at));
      if (!next || /^[\p{L}][\p{L} ]{0,30}:\s/u.test(next[2] ?? '')) break;
      full += ` ${(next[2] ?? '').trim()}`;
      at += next[0].length;
    }
    out.push({ label: normLabel(label), value: full, index: m.index, weight: 1 });
  }
  // A heading on its own line over a block of values (calendar text: "Guests" / "Location" then lines).
  const ls = text.split('\n');
  let at = 0;
  ls.forEach((l, i) => {
    const head = l.trim();
    // (never the subject, line 0; a block of a few short lines)
    if (i > 0 && /^\p{Lu}[\p{L}]+(?: [\p{L}]+){0,2}$/u.test(head) && !ls[i - 1]?.trim() && ls[i + 1]?.trim()) {
      const vals: string[] = [];
      for (const next of ls.slice(i + 1)) {
        if (!next.trim()) break;
        vals.push(next.trim());
      }
      if (vals.length <= 12 && vals.every((v) => v.length <= 80)) out.push({ label: normLabel(head), value: vals.join(', '), index: at, weight: 0.6 });
    }
    at += l.length + 1;
  });
  return out;
}

/** A label as words; "Invoice #" and "Order No." name a number ("invoice number"). */
const normLabel = (s: string) =>
  s
    .toLowerCase()
    .replace(/#\s*$|\bno\.?\s*$/, ' number')
    .replace(/[#.()*]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

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

/** The text of an HTML body, one line per block, cell and line break. */
export function htmlLines(html: string): string {
  return html
    .replace(/<(script|style|head)\b[\s\S]*?<\/\1>/gi, ' ')
    .replace(/<br\s*\/?>|<\/(p|div|tr|td|th|li|h[1-6]|table|dt|dd|blockquote)>/gi, '\n')
    .split('\n')
    .map((l) => decode(l))
    .filter(Boolean)
    .join('\n');
}

/** HTML tables as rows of cell texts. */
export function htmlTables(html: string): string[][][] {
  const tables: string[][][] = [];
  for (const t of html.match(/<table[\s\S]*?<\/table>/gi) ?? []) {
    const inner = t.replace(/^<table[^>]*>/i, '');
    // nested tables: take the innermost rows only
    const rows: string[][] = [];
    for (const r of inner.match(/<tr[\s\S]*?<\/tr>/gi) ?? []) {
      const raw = r.match(/<t[dh][^>]*>[\s\S]*?<\/t[dh]>/gi) ?? [];
      // A row struck through (<s>, <del>, <strike> around every filled cell) is void: a cancelled
      // flight beside its replacement, a withdrawn line of a bill.
      const struck = raw.filter((c) => decode(c)).every((c) => /^<t[dh][^>]*>\s*<(s|del|strike)\b[^>]*>[\s\S]*<\/\1>\s*<\/t[dh]>$/i.test(c));
      const cells = raw.map(decode);
      if (cells.some(Boolean) && !struck) rows.push(cells);
    }
    if (rows.length) tables.push(rows);
  }
  return tables;
}

/**
 * A cell that names something ("Total", "VAT 8.1%", "VAT (exempt - home care services)": a
 * parenthetical note does not count against a label's length) rather than holding a value
 * ("CHF 94.93", "17:05 GMT").
 */
const isLabelCell = (c: string) =>
  c.length > 0 && c.length <= 60 && /\p{L}/u.test(c) && !/\d{3,}/.test(c) && c.replace(/\([^)]*\)/g, ' ').trim().split(/\s+/).length <= 5 && c.replace(/\([^)]*\)/g, ' ').trim().length <= 40 && !findAmounts(c).length && !/\b\d{1,2}:\d{2}\b/.test(c) && !/^[A-Za-z0-9/_.#-]*\d[A-Za-z0-9/_.#-]*$/.test(c);

const DATE_IN_CELL = /\d{4}-\d{2}-\d{2}|\b\d{1,2}[./]\d{1,2}[./]\d{2,4}\b|\b\d{1,2}\s*[A-Za-z]{3,9}\.?\s*\d{2,4}\b|\b[A-Za-z]{3,9}\.?\s+\d{1,2},?\s+\d{4}\b/;
const firstFilled = (cells: string[]) => cells.find(Boolean) ?? '';

/** Header → value and label cell → next cell pairs from rows of cells (HTML tables or aligned text). */
function tablePairs(rows: Array<{ cells: string[]; index: number }>): Labelled[] {
  const out: Labelled[] = [];
  for (const [i, { cells, index }] of rows.entries()) {
    const filled = cells.filter(Boolean);
    // A two-column table whose first column is labels throughout ("What | Quarterly planning" /
    // "When | 2026-03-24 09:00") pairs each label with its own cell: its first row is no header.
    const keyValue = cells.length === 2 && rows.slice(i, i + 3).every((r) => r.cells.length === 2 && isLabelCell(r.cells[0] ?? '')) && !!rows[i + 1];
    const isHeader = !keyValue && cells.length >= 2 && cells.every((c) => !c || isLabelCell(c)) && rows[i + 1]?.cells.length === cells.length && !rows[i + 1]?.cells.every((c) => !c || isLabelCell(c));
    const [first = '', second = ''] = filled; // used only when there are two or more
    if (!isHeader && filled.length >= 2 && isLabelCell(first) && filled.length <= 3) {
      // "Total | | 1,234.00": label cell → the last filled cell (and the next one)
      out.push({ label: normLabel(first.replace(/[:：]\s*$/, '')), value: filled.at(-1) ?? second, index, weight: 0.9 });
      if (filled.length === 3) out.push({ label: normLabel(first), value: second, index, weight: 0.6 });
    }
    // a header row: every cell a label, followed by rows with the same number of cells
    if (!keyValue && cells.length >= 2 && cells.every((c) => !c || isLabelCell(c))) {
      let end = i + 1;
      for (;;) {
        const r = rows[end];
        if (!r || r.cells.length !== cells.length || r.cells.every((c) => !c || isLabelCell(c))) break;
        end++;
      }
      // Line items above summary rows ("Subtotal", "Total"): their "Amount" column is no total.
      // (Summary rows often have fewer cells — "| | Subtotal | £130.00" — and so end the block: for a
      // table with a money column, the rows right after it count too.)
      const money = cells.some((h) => !!h && (!!amountFamily(h) || /\b(price|amount|cost|rate|fee)\b/i.test(h)));
      const summary = rows.slice(i + 1, money ? end + 3 : end).some((r) => SUMMARY_ROW.test(firstFilled(r.cells)));
      for (const [off, row] of rows.slice(i + 1, end).entries()) {
        if (SUMMARY_ROW.test(firstFilled(row.cells))) break;
        // A time cell takes its date from another cell of the row ("27MAR2026 | 17:05 GMT").
        const dateCell = row.cells.find((c) => DATE_IN_CELL.test(c));
        cells.forEach((h, k) => {
          let v = row.cells[k];
          if (!h || !v) return;
          if (dateCell && v !== dateCell && /\b\d{1,2}:\d{2}\b/.test(v) && !DATE_IN_CELL.test(v)) v = `${dateCell} ${v}`;
          out.push({ label: normLabel(h), value: v, index: row.index, weight: summary ? 0.35 : off === 0 ? 0.85 : 0.5 });
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

/**
 * German-style compounds ("Rechnungsnummer", "Rechnungsdatum"): a long label word the field does
 * not know splits into two words it does (with an optional linking "s").
 */
function splitCompound(w: string, spec: FieldSpec): string[] {
  if (w.length < 9 || spec.weight.has(stem(w))) return [w];
  const known = (x: string) => x.length >= 3 && (spec.weight.has(stem(x)) || SYN.has(stem(x)));
  for (let i = 3; i <= w.length - 3; i++) {
    const a = w.slice(0, i);
    const b = w.slice(i);
    if (known(b) && (known(a) || (a.endsWith('s') && known(a.slice(0, -1))))) return [a.endsWith('s') && !known(a) ? a.slice(0, -1) : a, b];
  }
  return [w];
}

/** Words mail uses for the document itself: an invoice, a booking. */
const DOCUMENT_WORDS = ['invoice', 'receipt', 'bill', 'rechnung', 'facture', 'factura', 'booking', 'reservation', 'order'].map(stem);

/** Label words that say what kind of value follows, not whose: "number", "date", "amount". */
const GENERIC_LABEL = new Set(['number', 'no', 'nr', 'num', 'id', 'ref', 'refer', 'code', 'date', 'time', 'amount', 'name', 'total'].map(stem));

/** Matches a field's words in a label: weighted share of the label's words that name the field. */
function labelScore(label: string, spec: FieldSpec, idf: (w: string) => number): number {
  if (spec.cues.includes(label)) return 1;
  const all = [...new Set((label.normalize('NFKD').replace(/[\u0300-\u036f]/g, '').match(/[a-z]+/g) ?? []).filter((w) => !LABEL_STOP.has(w)).flatMap((w) => splitCompound(w, spec)).map(stem))];
  // ("Invoice date" on an invoice: the document's own word says whose, and the rest says which)
  const lw = all.some((w) => !spec.context.has(w) || spec.weight.has(w)) ? all.filter((w) => !spec.context.has(w) || spec.weight.has(w)) : all;
  if (!lw.length) return 0;
  let hit = 0;
  let tot = 0;
  for (const w of lw) {
    const x = idf(w);
    tot += x;
    hit += x * (spec.weight.get(w) ?? 0);
  }
  const nameHit = fieldWords(words(spec.name)).filter((w) => lw.includes(w)).length > 0 ? 0.15 : 0;
  // "Customer no." for an invoice number, "Due date" for the issue date: when only generic words
  // (number, date, amount…) match and the label names something the field does not, it is another thing's label.
  const foreign = lw.some((w) => !spec.weight.has(w) && !GENERIC_LABEL.has(w)) && lw.every((w) => !spec.weight.has(w) || GENERIC_LABEL.has(w));
  // A label that is a synonym phrase ("Invoice date", "Amount due") names that phrase's field: this
  // one when the phrase is among its words, another one's otherwise.
  const said = ` ${label.replace(/[^a-z]+/g, ' ').trim()} `;
  const phrases = SYN_PHRASES.filter((p) => said.includes(` ${p} `));
  const own = Math.max(0, ...phrases.map((p) => spec.weight.get(stem(p)) ?? 0));
  const other = phrases.some((p) => !spec.weight.has(stem(p)));
  const base = (tot ? hit / tot : 0) * 0.85 * (foreign ? 0.5 : 1) * (other && !own ? 0.6 : 1);
  return Math.min(1, Math.max(base, own * 0.85) + nameHit);
}

/** Positions right after each occurrence of a field word in the text, with its weight. */
function wordSpots(text: string, spec: FieldSpec, idf: (w: string) => number): Array<{ at: number; w: number; start: number }> {
  const out: Array<{ at: number; w: number; start: number }> = [];
  const re = /[A-Za-z]+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) {
    const s = stem(m[0].toLowerCase());
    const fw = spec.weight.get(s);
    // (a short synonym counts when written as an acronym: "VAT", "GST", "ARR" — never "to", "no")
    if (fw && (fw >= 0.9 || s.length > 3 || fw === 0.45 || (m[0].length >= 3 && m[0] === m[0].toUpperCase()))) out.push({ at: m.index + m[0].length, w: idf(s) * fw, start: m.index });
  }
  // Phrases of the field's synonym groups ("pay by", "last day", "amount due") name it as a word does.
  for (const [p, fw] of spec.weight) {
    if (!p.includes(' ')) continue;
    for (const x of text.matchAll(cueRe(p))) {
      const start = (x.index ?? 0) + (x[1]?.length ?? 0);
      out.push({ at: start + p.length, w: Math.min(1, 0.8 * fw), start });
    }
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
  // "1.000,00" / "1'172.00" / "1 190,00": grouped with a decimal part of two digits
  const eu = /-?\d{1,3}(?:[.\u00a0' ]\d{3})+,\d{2}(?!\d)|-?\d{1,3}(?:[,\u00a0' ]\d{3})+\.\d{2}(?!\d)/.exec(raw);
  if (eu) {
    const v = /,\d{2}$/.test(eu[0]) ? Number(eu[0].replace(/[.\u00a0' ]/g, '').replace(',', '.')) : Number(eu[0].replace(/[,\u00a0' ]/g, ''));
    if (Number.isFinite(v)) return v;
  }
  // (a minus sign only before a number that stands alone: "TI-55120" is no negative amount)
  const n = /(?<![\p{L}\d])-?\d{1,3}(?:[,\u00a0' ]\d{3})+(?:\.\d+)?|(?<![\p{L}\d])-?\d+(?:[.,]\d+)?|\d+(?:[.,]\d+)?/u.exec(raw);
  if (!n) return undefined;
  let t = n[0].replace(/[\u00a0' ]/g, '');
  if (/,\d{3}(?!\d)/.test(t) && !/,\d{1,2}$/.test(t)) t = t.replace(/,/g, '');
  else t = t.replace(',', '.');
  const v = Number(t);
  return Number.isFinite(v) ? v : undefined;
}

/** Every value a raw snippet can give for a field, typed by the field's kind. */
/**
 * The currency a bare "$" means in this message: the one dollar code it names ("Amount Due (AUD)",
 * "All amounts in CAD"), else USD.
 */
export function dollarCurrency(text: string): string {
  const codes = new Set((text.match(/\b(AUD|CAD|NZD|SGD|HKD|USD)\b/g) ?? []).map((c) => c));
  const [only] = codes;
  return codes.size === 1 && only ? only : 'USD';
}

const currencyOf = (a: { value: { currency: string }; text: string }, dollar: string) => (a.value.currency === 'USD' && !/USD|US\$/.test(a.text) ? dollar : a.value.currency);

function coerceAll(spec: FieldSpec, raw: string, ref: Date, zone: string | undefined, dollar = 'USD'): unknown[] {
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
      // "Due: 13 Apr 2026" holds a date, not an amount of 13
      if (spec.kind === 'amount' && !findAmounts(raw).length && findDates(raw, ref).some((d) => d.text.length >= raw.trim().length * 0.6)) return [];
      const v = numberOf(raw);
      if (v === undefined) return [];
      return spec.schema.type === 'integer' && !Number.isInteger(v) ? [] : [v];
    }
    case 'currency': {
      const a = findAmounts(raw)[0];
      if (a) return [currencyOf(a, dollar)];
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
    case 'identifier': {
      // the first token that looks like an identifier: letters and digits ("SB-2026-014", "RE-2026-03318", "4471")
      // (never a date, a link or a short number such as a day or a house number)
      // only at the start of a labelled value ("No.: SB-2026-014 (due …)"), never a postcode inside an address
      const first = /^\s*(?:#|no\.?|nr\.?|n[°º]\.?)?\s*([A-Za-z0-9][A-Za-z0-9/_.-]*[A-Za-z0-9])/i.exec(raw)?.[1] ?? '';
      if (raw.length > 40 && first && !/\d/.test(first)) return [];
      let t = raw.replace(/\bhttps?:\/\/\S+|\S+@\S+/gi, ' ');
      for (const d of findDates(t, ref)) t = t.replace(d.text, ' ');
      const ids = (t.match(/[A-Za-z0-9][A-Za-z0-9/_.-]*[A-Za-z0-9]/g) ?? []).filter((x) => /\d/.test(x) && (/[A-Za-z]/.test(x) ? x.length >= 3 : x.replace(/\D/g, '').length >= 4) && !/^\d{1,2}[./]\d{1,2}[./]\d{2,4}$/.test(x));
      return ids.slice(0, 1);
    }
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

/**
 * A person's name as a field wants it: "Mr Henrik Solberg" → "Henrik Solberg" (a title is not part
 * of the name), and the airline way "HADDAD/NOOR MS" → "Noor Haddad".
 */
export function personName(v: string): string {
  const plain = v.trim().replace(/^(mr|mrs|ms|miss|mx|dr|prof)\.?\s+/i, '');
  const air = /^([A-Z][A-Z'-]+)\/([A-Z][A-Z' -]*?)(?:\s+(?:MR|MRS|MS|MISS|MSTR|DR))?$/.exec(plain);
  return air ? `${air[2]} ${air[1]}`.toLowerCase().replace(/(^|[\s'-])\p{L}/gu, (c) => c.toUpperCase()) : plain;
}

/**
 * A meeting's name from a subject: without "Re:"/"Invitation:", the calendar's "@ date" tail, and a
 * trailing segment that says when or where it is ("Fire alarm inspection - Rathmines, Thu 12 March").
 */
export function meetingSubject(subject: string, ref: Date): string {
  const s = subject.replace(/^\s*((re|fwd?|aw)\s*:\s*)+/i, '').replace(/^(invitation|updated invitation|invite|meeting request|calendar)\s*[:-]\s*/i, '').replace(/\s*@\s.*$/, '').trim();
  const seps = [...s.matchAll(/\s+[-–—|]\s+/g)].map((m) => m.index ?? 0);
  let end = s.length;
  for (const at of seps.reverse()) {
    const tail = s.slice(at, end);
    if (!findDates(tail, ref).length && !/\b(mon|tue|wed|thu|fri|sat|sun)[a-z]*\b|\b(january|february|march|april|may|june|july|august|september|october|november|december)\b|\b\d{1,2}(:\d{2})?\s*(am|pm)\b|\b\d{1,2}:\d{2}\b/i.test(tail)) break;
    end = at;
  }
  return s.slice(0, end).trim();
}

const PLACE_NOUN = 'room|office|hall|suite|boardroom|lobby|reception|building|studio|lounge|library|canteen|auditorium|warehouse|workshop|site|centre|center'
  .split('|')
  .map((w) => `[${w[0]}${w[0]?.toUpperCase()}]${w.slice(1)}`)
  .join('|');

/** Places named in prose after "in/at (the)": a phrase of up to five words ending in a place noun. */
export function placesInProse(text: string): Array<{ value: string; index: number }> {
  // (a room's code after the noun is written in capitals or digits: "Conference Room B2", never "office all")
  const re = new RegExp(String.raw`\b(?:[Ii]n|[Aa]t)\s+(?:[Tt]he\s+|[Oo]ur\s+)?((?:[\p{L}\d'&-]+[ \t]+){0,4}?(?:${PLACE_NOUN})(?:[ \t]+[\p{Lu}\d][\p{L}\d-]{0,4})?)(?![\p{L}])`, 'gu');
  return [...text.matchAll(re)].map((m) => ({ value: (m[1] ?? '').trim(), index: (m.index ?? 0) + m[0].indexOf(m[1] ?? '') })).filter((p) => !/^(the|a|an|my|your|our|this|that)\b/i.test(p.value) && (/\s/.test(p.value) || /\p{Lu}/u.test(p.value)));
}

/** Whether a list field holds people ("Passenger names on the booking"), not their addresses. */
const peopleList = (spec: FieldSpec) => spec.kind === 'strings' && /\b(passengers?|travell?ers?|guests?|people|persons?|names?)\b/i.test(`${words(spec.name)} ${String(spec.schema.description ?? '')} ${String(spec.schema.title ?? '')}`) && !/\b(emails?|addresses)\b/i.test(words(spec.name));

/** The person a booking or letter is addressed to: "Dear Mr Noor Haddad," → "Noor Haddad" (a full name only). */
export function addressee(text: string): { name: string; index: number } | undefined {
  const sal = /^\s*(?:[Dd]ear|[Hh]ello|[Hh]i)\s+(?:(?:mr|mrs|ms|miss|mx|dr)\.?\s+)?(\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+){1,2})\s*[,!]/imu.exec(text);
  return sal?.[1] ? { name: sal[1], index: sal.index } : undefined;
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

const LEGAL_FORM = /^(?:[ \t]+\p{Lu}[\p{L}&'-]*){0,2}[ \t]+(GmbH|AG|Ltd\.?|Limited|Inc\.?|LLC|S\.?A\.?S?|B\.?V\.?|N\.?V\.?|Oy|AB|AS|ApS|KG|plc|S\.?r\.?l\.?|Lda\.?|SE|Co\.?)(?![\p{L}])/u;
const SECOND_LEVEL = new Set(['co', 'com', 'org', 'net', 'ac', 'gov', 'edu', 'ltd', 'plc']);

/**
 * Where the text spells the name in the sender's domain ("studio-brandl.example" → "Studio Brandl",
 * "email.cloudnest.example" → "CloudNest"), with a legal form right after it ("CloudNest GmbH");
 * never inside an address or link.
 */
export function domainNames(email: string | undefined, text: string): Array<{ value: string; index: number; legal: boolean }> {
  const parts = (email?.split('@')[1] ?? '').toLowerCase().split('.');
  let label = parts.at(-2) ?? '';
  if (SECOND_LEVEL.has(label)) label = parts.at(-3) ?? '';
  const letters = label.replace(/[^a-z0-9]/g, '');
  if (letters.length < 4) return [];
  const re = new RegExp(`(?<![\\p{L}\\p{N}@./-])${letters.split('').map(esc).join('[ \\t.-]?')}(?![\\p{L}\\p{N}]|\\.[a-z]|@)`, 'giu');
  const out: Array<{ value: string; index: number; legal: boolean }> = [];
  for (const m of text.matchAll(re)) {
    const legal = LEGAL_FORM.exec(text.slice((m.index ?? 0) + m[0].length, (m.index ?? 0) + m[0].length + 40));
    out.push({ value: legal ? `${m[0]}${legal[0]}` : m[0], index: m.index ?? -1, legal: !!legal });
  }
  return out;
}

/** Host names that say how mail is sent, not by whom ("email.", "mail.", "news."). */
const MAIL_HOST_WORDS = new Set(['mail', 'email', 'mailer', 'mailing', 'news', 'info', 'notify', 'notification', 'notifications', 'noreply', 'send', 'smtp', 'mx', 'bounce', 'reply', 'www', 'booking', 'bookings', 'online', 'service', 'services', 'co', 'com', 'org', 'net']);

const DEPARTMENT = /\b(billing|invoices?|accounts?|accounting|bookings?|reservations?|team|no-?reply|notifications?|support|service|customer|department|dept|office|sales|info|alerts?)\b/i;

/**
 * Names of the business behind a sender, with how sure each is: a display name that spells its
 * domain or its initials, a department's business, the domain's name as the text writes it (with a
 * legal form), a legal form after the business's name ("Tolka Mechanical" → "Tolka Mechanical
 * Services Ltd" when the field wants the legal name), an automated sender's display name.
 */
function senderOrgs(who: { name?: string; email?: string; person: boolean }, text: string, ref: Date, legalWanted: boolean, orgs: EntitySpan[]): Array<{ value: string; score: number; index: number }> {
  const out: Array<{ value: string; score: number; index: number }> = [];
  const cand = (value: string, score: number, index: number) => out.push({ value, score, index });
  // "Mesa Web Studio via Wave": the business is the one before "via" (the service sends for it).
  const fn = who.name?.trim().replace(/\s+via\s+\S.*$/i, '');
  const host = (who.email ?? '').split('@')[1] ?? '';
  const company = !!fn && /\b(GmbH|AG|Ltd|Limited|Inc|LLC|SA|SAS|BV|NV|Oy|AB|AS|ApS|S\.?r\.?l|KG|plc|Co)\b\.?/.test(fn);
  // "Severn Power <bills@severnpower.example>": a display name spelling the sender's domain is the business's name.
  // ("kraftwerk-fitness.example" spells "Kraftwerk Fitness": hyphens and dots are no letters)
  const domain = host.toLowerCase().split('.').slice(0, -1).join('').replace(/[^a-z0-9]/g, '');
  const squashed = (fn ?? '').toLowerCase().normalize('NFKD').replace(/[^a-z0-9]/g, '');
  // …or whose initials are a name of the domain ("British Airways <ba@email.ba.example>").
  const initials = (fn ?? '').split(/[\s&-]+/).filter((w) => /^\p{Lu}/u.test(w)).map((w) => w[0]?.toLowerCase()).join('');
  // (any one name of the host counts: "Delta Air Lines <…@t.delta.example>")
  const hostLabels = host.toLowerCase().split('.').slice(0, -1).map((l) => l.replace(/[^a-z0-9]/g, '')).filter((l) => !MAIL_HOST_WORDS.has(l));
  // (a family's own domain is no business: "Sam Hale <sam@hale.example>" spells only the surname)
  const surname = /^\p{Lu}[\p{L}'-]+\s+(\p{Lu}[\p{L}'-]+)$/u.exec(fn ?? '')?.[1]?.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]/g, '');
  const domainName = !!fn && ((squashed.length >= 4 && [domain, ...hostLabels].some((d) => d.length >= 4 && d !== surname && (d.includes(squashed) || squashed.includes(d)))) || (initials.length >= 2 && hostLabels.includes(initials)));
  // A department name ("Northwind Billing") or a person's name is not the business's own name.
  const department = !!fn && DEPARTMENT.test(fn);
  // Which name the schema wants: the legal one ("legal name … including Ltd/GmbH") or the one the
  // message presents itself by — then a display name that is the business's own name beats the
  // legal form of a footer's registration line ("Kraftwerk Fitness" over "Kraftwerk Fitness GmbH").
  if (fn && domainName && !company && !department) cand(fn, legalWanted ? 0.62 : 0.7, -1);
  // A department's display name ("Mountain Pack & Ship Billing") names its business without the
  // department's words, when the message writes that name out itself — with its legal form after
  // it ("Tolka Mechanical Services Ltd") when the field wants the legal name.
  if (fn && department && !company) {
    const business = fn.replace(new RegExp(`(?:\\s+(?:${DEPARTMENT.source.slice(3, -3)}|&|and))+\\s*$`, 'i'), '').trim();
    const at = business.length >= 3 && business !== fn ? text.indexOf(business) : -1;
    // (written nowhere else, the header's own words are still weak evidence: "Tarn Valley Fencing Accounts")
    if (at < 0 && business.length >= 3 && business !== fn && looksLikeName(business, ref) && /\s/.test(business)) cand(business, 0.4, -1);
    if (at >= 0 && looksLikeName(business, ref)) {
      cand(business, legalWanted ? 0.58 : 0.62, at);
      for (const m of text.matchAll(new RegExp(esc(business), 'g'))) {
        const legal = LEGAL_FORM.exec(text.slice((m.index ?? 0) + business.length, (m.index ?? 0) + business.length + 40));
        if (legal) cand(`${business}${legal[0]}`, legalWanted ? 0.7 : 0.6, m.index ?? -1);
      }
    }
  }
  // The business the sender's domain names, as the message writes it ("studio-brandl.example" →
  // "Studio Brandl", "cloudnest.example" → "CloudNest GmbH" with its legal form).
  const inText = domainNames(who.email, text);
  for (const o of inText) cand(o.value, o.legal ? (legalWanted ? 0.72 : 0.66) : 0.6, o.index);
  // …and the sender's own display name when it is that name with its legal form ("Prairie Glaze Supply LLC").
  if (fn && company && inText.some((o) => squashed.startsWith(o.value.toLowerCase().normalize('NFKD').replace(/[^a-z0-9]/g, '')))) cand(fn, 0.68, -1);
  // A person signing with their business: a line that is their name and one to three more capitalised
  // words ("Marta Silva Design", "Jo Byrne Photography Ltd").
  if (fn && who.person && /^\p{Lu}[\p{L}'-]+(?:\s+\p{Lu}[\p{L}'-]+){1,2}$/u.test(fn)) {
    for (const m of text.matchAll(new RegExp(`^[ \\t]*(${esc(fn)}(?:[ \\t]+(?:&[ \\t]+)?\\p{Lu}[\\p{L}.'-]*){1,3})[ \\t]*$`, 'gmu'))) cand(m[1] ?? '', 0.5, m.index ?? -1);
  }
  // An automated or company sender's display name.
  if (fn && (!who.person || company) && !department && !/[<>@]/.test(fn)) cand(fn, 0.36 + (orgs.some((o) => fn.toLowerCase().includes(o.text.toLowerCase())) ? 0.35 : 0), -1);
  return out;
}

/** The senders of messages forwarded inside a body ("---------- Forwarded message ---------" / "From: Sunhop <bookings@…>"). */
export function forwardedSenders(body: string): Array<{ name?: string; email: string }> {
  const out: Array<{ name?: string; email: string }> = [];
  const lines = body.split('\n');
  for (const [i, l] of lines.entries()) {
    const m = /^[ \t>]*(?:from|von|de|van|da)\s*:\s*\*?"?([^<"\n]*?)"?\*?\s*<([^<>\s]+@[^<>\s]+)>\s*$/i.exec(l);
    // (a header block: another header line right around it)
    if (m?.[2] && [lines[i - 1], lines[i + 1], lines[i + 2]].some((x) => HEADER_LINE.test(x ?? '') && !/^[ \t>]*(from|von|de|van|da)\s*:/i.test(x ?? ''))) out.push({ ...(m[1]?.trim() ? { name: m[1].trim() } : {}), email: m[2] });
  }
  return out;
}

/** Whether a name field asks for the legal name ("legal name as printed, including Ltd/GmbH", "registered name"). */
export function wantsLegalName(spec: { schema: Record<string, unknown> }): boolean {
  const d = `${typeof spec.schema.title === 'string' ? spec.schema.title : ''} ${typeof spec.schema.description === 'string' ? spec.schema.description : ''}`;
  return /\b(legal|registered|official)\s+(?:company\s+|business\s+)?name\b|\b(?:including|incl\.?|with)\s+(?:the\s+)?(?:legal form|Ltd|GmbH|Inc|LLC|AG)\b/i.test(d);
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
      // Upper-casing repairs a designator written in lower case ("lx318"), never a word before a number ("at 07").
      const upOk = /\d/.test(span) && (!/\s/.test(span) ? /[A-Za-z]/.test(span) : span === span.toUpperCase());
      const variants = [span, span.replace(/\s+/g, ''), span.replace(/^([A-Za-z0-9]{2})(\d{1,4})$/, '$1 $2'), ...(upOk ? [span.toUpperCase(), span.replace(/\s+/g, '').toUpperCase()] : [])];
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
const COMMON_CAPS = new Set(['IBAN', 'BIC', 'SWIFT', 'ABN', 'GST', 'HST', 'PST', 'EIN', 'TIN', 'THE', 'AND', 'FOR', 'YOU', 'PDF', 'VAT', 'TAX', 'FAQ', 'ETA', 'CEO', 'CFO', 'CTO', 'API', 'URL', 'ASAP', 'FYI', 'RSVP', 'NEW', 'ONE', 'TWO', 'OUT', 'NOT', 'ALL', 'ANY', 'ARE', 'RE', 'FW', 'FWD', 'AM', 'PM', 'OK', 'NO', 'YES', 'ID', 'QTY', 'NET', 'DUE', 'REF', 'PIN', 'SMS', 'USA', 'UK', 'EU']);

/** Offset of the message's own Date header, as a zone for times written without one. */
function headerZone(facts: MessageFacts | undefined, sent?: Date): string | undefined {
  const d = facts?.headers['date-raw'];
  const m = d ? /([+-]\d{2})(\d{2})\s*(?:\(.*\))?\s*$/.exec(d) : undefined;
  if (!m) return undefined;
  const offset = `${m[1]}:${m[2]}`;
  return (sent && zoneOfOffset(offset, sent)) ?? offset;
}

/**
 * Zones whose clocks change, in the order a sender's offset is read as one of them: the offset a
 * mail was sent with stands for the zone it belongs to on that day, so an event after the clocks
 * change (a 7 pm call next month) takes that zone's offset then.
 */
const DST_ZONES = ['Europe/London', 'Europe/Berlin', 'Europe/Helsinki', 'America/New_York', 'America/Chicago', 'America/Denver', 'America/Los_Angeles', 'Australia/Sydney', 'Pacific/Auckland'];

/** The first zone of `DST_ZONES` whose offset at `sent` is `offset` ("-04:00" on 28 October → America/New_York). */
export function zoneOfOffset(offset: string, sent: Date): string | undefined {
  if (Number.isNaN(sent.getTime())) return undefined;
  const want = offsetFor(offset, sent.toISOString().slice(0, 19));
  return DST_ZONES.find((z) => zoneOffsetAt(z, sent.getTime()) === want);
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

const HEADER_LINE = /^[ \t>]*(from|von|de|van|da|sent|gesendet|envoy[ée]|date|datum|fecha|data|subject|betreff|objet|asunto|oggetto|to|an|à|para|a|cc)\s*:/i;

/**
 * A forwarded or quoted message's header block ("From: … / Date: … / Subject: … / To: …") says
 * when that mail was sent, not when anything in it happens: its date lines are blanked (same
 * length, so positions hold).
 */
export function withoutForwardDates(text: string): string {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    let j = i;
    while (j < lines.length && HEADER_LINE.test(lines[j] ?? '')) j++;
    // (a mail's header block names an address or a subject; "Date: / From: Madrid / To: Lisbon" is a trip)
    if (j - i >= 3 && lines.slice(i, j).some((l) => /@|^[ \t>]*(subject|betreff|objet|asunto|oggetto)\s*:/i.test(l))) {
      for (let k = i; k < j; k++) if (/^[ \t>]*(sent|gesendet|envoy[ée]|date|datum|fecha|data)\s*:/i.test(lines[k] ?? '')) lines[k] = ' '.repeat((lines[k] ?? '').length);
    }
    i = Math.max(i, j);
  }
  return lines.join('\n');
}

/**
 * An event written as a block of lines — a title line, then the date and time, then the place
 * ("Parent–teacher conference" / "Wednesday 11 March 2026, 16:30–16:50" / "Room B12, Primary
 * building"): the plain lines around the first date-time line, as title and place candidates.
 */
export function eventBlock(text: string, ref: Date): { title?: { value: string; index: number }; place?: { value: string; index: number } } {
  const lines = text.split('\n');
  let at = 0;
  const starts = lines.map((l) => {
    const s = at;
    at += l.length + 1;
    return s;
  });
  const plain = (l: string | undefined) => {
    const t = (l ?? '').trim();
    return t.length >= 3 && t.length <= 90 && /\S\s+\S/.test(t) && !/[:：]\s|[.!?]$|@|https?:\/\//.test(t) && !findDates(t, ref).length && !/\b\d{1,2}:\d{2}\b/.test(t) && t.split(/\s+/).length <= 12;
  };
  for (const [i, l] of lines.entries()) {
    if (i === 0 || !findDates(l, ref).length || !/\b\d{1,2}[:.]\d{2}\b/.test(l) || /^\s*[\p{L}][\p{L} ]{0,30}:\s/u.test(l)) continue;
    const out: { title?: { value: string; index: number }; place?: { value: string; index: number } } = {};
    if (plain(lines[i - 1]) && i - 1 > 0) out.title = { value: (lines[i - 1] ?? '').trim(), index: starts[i - 1] ?? -1 };
    if (plain(lines[i + 1])) out.place = { value: (lines[i + 1] ?? '').trim(), index: starts[i + 1] ?? -1 };
    if (out.title || out.place) return out;
  }
  return {};
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

const SUMMARY_ROW = /^(sub-?\s?total|total|vat|tax|tva|mwst|net|gross|balance|amount due|amount paid|sales tax|grand total|zwischensumme|gesamt\w*|summe|endbetrag|netto\w*|montant|importe)\b/i;

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

/** Two clock times joined as a span: "11:00-12:00", "2 pm – 3:30 pm", "from 9:00 to 10:00". */
const TIME_SPAN = /\b\d{1,2}(?::\d{2})?\s*(?:am|pm)?\s*(?:[-–—]|to|until)\s*\d{1,2}(?::\d{2})\s*(?:am|pm)?\b|\b\d{1,2}\s*(?:am|pm)\s*(?:[-–—]|to|until)\s*\d{1,2}\s*(?:am|pm)\b/i;

/** A link to join a call: a video service's host or a join path. */
const VIDEO_LINK = /(meet\.|zoom\.|teams\.|webex|whereby|jit\.si|\/meet|\/join|\/j\/)/i;

/** Words saying something arranged was replaced by a new arrangement. */
const REBOOKED = /\b(rebook\w*|re-booked|new flight|new booking|replacement (?:flight|train)|alternative flight|rescheduled|umgebucht|neuer? (?:flug|termin))\b/i;
const CANCELLED = /\b(cancell?ed|cancell?ation|storniert|annul\w*|abgesagt|gestrichen)\b/i;

/** Whether the paragraph (block between blank lines) holding `index` — or the table row — speaks of a cancellation. */
export function cancelledAt(text: string, index: number): boolean {
  // a table row (cells joined by " | ") speaks for itself: "Cancelled | KG219 | …" beside "New flight | KG223 | …"
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  const lineEnd = text.indexOf('\n', index);
  const line = text.slice(lineStart, lineEnd < 0 ? undefined : lineEnd);
  if (line.includes('  |  ')) return CANCELLED.test(line);
  const before = text.lastIndexOf('\n\n', index);
  const after = text.indexOf('\n\n', index);
  return CANCELLED.test(text.slice(before < 0 ? 0 : before, after < 0 ? undefined : after));
}

const ORIGIN_WORD = /\b(depart\w*|dep|abflug|abfahrt|origin|takes? off|leaves)\b/i;
const DEST_WORD = /\b(arriv\w*|arr|ankunft|destination|lands|landing)\b/i;

/** Which side of a trip the short line at `index` names ("… departure 07:00" → origin), if exactly one. */
export function lineSide(text: string, index: number): 'origin' | 'destination' | undefined {
  const start = text.lastIndexOf('\n', index - 1) + 1;
  const end = text.indexOf('\n', index);
  const line = text.slice(start, end < 0 ? undefined : end);
  if (line.length > 80) return undefined;
  const o = ORIGIN_WORD.test(line);
  const d = DEST_WORD.test(line);
  return o === d ? undefined : o ? 'origin' : 'destination';
}

/** Lines written "A -> B" / "A → B": where the arrow is, and which such line it is (0 = first leg). */
export function arrowLines(text: string): Array<{ start: number; arrow: number; end: number; order: number }> {
  const out: Array<{ start: number; arrow: number; end: number; order: number }> = [];
  let at = 0;
  for (const line of text.split('\n')) {
    const m = /\s(?:->|-->|→|⟶|➔|=>|–>|—>)\s|→/.exec(line);
    if (m) out.push({ start: at, arrow: at + m.index + (m[0].startsWith('→') ? 0 : 1), end: at + line.length, order: out.length });
    at += line.length + 1;
  }
  return out;
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
  // HTML-only mail: read the HTML's own lines (cells, paragraphs, line breaks) rather than a
  // derived text whose cells may run together ("A-1Date: 12 March 2026Total: …").
  const lines = msg.html ? htmlLines(msg.html.slice(0, 200_000)) : '';
  const squash = (x: string) => x.replace(/\s+/g, '');
  const derived = !!lines && squash(lines).length > 0 && squash(lines) === squash(msg.text ?? '');
  const body = derived ? lines : latestText(msg.text) || msg.text;
  const tables = msg.html ? htmlTables(msg.html) : [];
  const tableText = tables.map((t) => t.map((r) => r.join('  |  ')).join('\n')).join('\n\n');
  // Bounded work on huge mail: the first 100,000 characters hold what a person would read.
  const text = withoutForwardDates(`${msg.subject}\n${body.slice(0, 100_000)}${tableText ? `\n\n${tableText.slice(0, 50_000)}` : ''}`);
  const ref = new Date(msg.created_at);
  const zone = headerZone(facts, ref);
  // The subject's own "Invitation: … (jo@…)" is a weaker label than the body's lines.
  const labels = [...labelledLines(text).map((l) => (l.index < msg.subject.length ? { ...l, weight: l.weight * 0.5 } : l)), ...tablePairs(alignedRows(text)), ...calendarPairs(facts)];
  const arrows = arrowLines(text);
  const labelAt = new Set(labels.map((l) => l.index));
  // Words that are themselves labels (a table's "DEP" / "ARR" header) are no values.
  const labelWords = new Set(labels.filter((l) => l.index >= 0 && !/\d/.test(l.label)).flatMap((l) => l.label.toUpperCase().split(/\s+/)));
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

  // Amounts labelled as one bill line ("Amount paid $1,045.00") are not another line's value.
  const byFamily = new Map<Family, Set<number>>();
  for (const l of labels) {
    const f = amountFamily(l.label);
    const v = f ? numberOf(l.value) : undefined;
    if (f && v !== undefined) byFamily.set(f, new Set([...(byFamily.get(f) ?? []), v]));
  }
  const data: Record<string, unknown> = {};
  const conf: Record<string, number> = {};
  const hasUriField = specs.some((x) => x.kind === 'uri');
  const taken = new Map<string, Set<string>>(); // kind/pattern → values used by earlier sibling fields
  let chosenAmount: { currency: string } | undefined;
  const dollar = dollarCurrency(text);
  const rebooked = REBOOKED.test(text);
  const nextBest = new Map<string, Cand[]>();

  for (const spec of specs) {
    const cands: Cand[] = [];
    // Siblings of one kind take different values ("from"/"to"), but two bill lines may share one:
    // a subtotal equals the total when no tax is due.
    const sibKey = spec.kind === 'pattern' ? `p:${String(spec.schema.pattern)}` : spec.family ? `${spec.kind}:${spec.family}` : spec.kind;
    const used = taken.get(sibKey) ?? new Set<string>();
    const add = (value: unknown, score: number, index: number) => {
      if (typeof value === 'string' && hasUriField && (spec.kind === 'string' || spec.kind === 'org') && /https?:\/\//.test(value)) {
        value = value.replace(/\s*[,;(]?\s*<?https?:\/\/[^\s>)]+>?\)?/g, '').replace(/[\s,;:–-]+$/, '').replace(/\s+(and|or|plus|&|via|on)$/i, '').trim();
      }
      if (value === undefined || value === '' || (Array.isArray(value) && !value.length)) return;
      // a place has a name: "912 3456 7890" (a meeting id) is no location
      if (spec.kind === 'string' && typeof value === 'string' && /\b(location|place|venue|room|where)\b/.test(words(spec.name)) && !/\p{L}{2}/u.test(value)) return;
      // a name is not an identifier: "INV-2041" is no vendor, "4711" no person
      if ((spec.kind === 'org' || spec.kind === 'person') && !looksLikeName(value, ref)) return;
      // "Mr Henrik Solberg" → "Henrik Solberg": a title is not part of the name
      if (spec.kind === 'person' && typeof value === 'string') value = personName(value);
      // A list of people: each name without its title, airline-style names turned round.
      if (spec.kind === 'strings' && Array.isArray(value) && peopleList(spec)) value = value.map((x) => (typeof x === 'string' ? personName(x) : x));
      // Checked as it would be emitted (after the clean-ups above): a value that fails the field's
      // own schema (type, pattern, format, enum, bounds) is never a candidate.
      if (!spec.check(value)) return;
      cands.push({ value, score, index });
    };

    // 1. Labelled pairs (lines, tables, calendar) whose label names the field.
    for (const l of labels) {
      // "Tax Invoice No", "Order #": a label naming a number as printed holds no amount.
      if (spec.kind === 'amount' && /\b(number|no|nr|id|ref|reference|code)$/.test(l.label)) continue;
      const lf = spec.family ? amountFamily(l.label) : undefined;
      if (lf && lf !== spec.family) continue;
      // "Balance Due", "Amount paid", "Sales Tax": a label of the field's own bill line names it.
      // Calendar facts carry a list of names for one property ("location room place venue where"): any one may name the field.
      const ls = l.index === -1 && l.typed === undefined ? Math.max(labelScore(l.label, spec, idf), ...l.label.split(' ').map((w) => labelScore(w, spec, idf))) : labelScore(l.label, spec, idf);
      const s = Math.max(ls, lf && lf === spec.family ? 0.7 : 0);
      if (s < 0.34) continue;
      const vals = l.typed !== undefined && (spec.kind === 'datetime' || spec.kind === 'emails' || spec.kind === 'email') ? [l.typed, ...coerceAll(spec, l.value, ref, zone, dollar)] : coerceAll(spec, l.value, ref, zone, dollar);
      if (spec.kind === 'date' && typeof l.typed === 'string') vals.unshift(l.typed.slice(0, 10));
      // A zone or currency code in a labelled cell ("DEP | 17:05 GMT") is not an airport.
      const codePenalty = (v: unknown) => (spec.kind === 'pattern' && typeof v === 'string' && !/\bcurrenc/.test(spec.words.join(' ')) && (CURRENCY_CODES.has(v) || COMMON_CAPS.has(v) || v in ZONE_ABBR) ? 0.3 : 0);
      vals.forEach((v, k) => add(spec.kind === 'email' && Array.isArray(v) ? v[0] : v, 0.5 + 0.45 * s * l.weight - k * 0.01 - codePenalty(v), l.index));
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
      case 'datetime': {
        const found = findDateTimes(text, ref, zone);
        typed(found, 0.25);
        // "9:00 AM – 9:45 AM", "from 14:00 to 15:00": a range's ends are its start and its end.
        if (spec.role) {
          for (const f of found) {
            const before = text.slice(Math.max(0, f.index - 30), f.index);
            if (!/\d{1,2}(?::\d{2})?\s*(?:am|pm|a\.m\.|p\.m\.)?\s*(?:[-–—]|to|until|till)\s*$/i.test(before)) continue;
            const startOf = found.filter((g) => g.index < f.index && f.index - g.index <= 30).pop();
            if (spec.role === 'destination') add(f.value, 0.5, f.index);
            else if (startOf) add(startOf.value, 0.5, startOf.index);
          }
        }
        break;
      }
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
        // "Total (EUR)", "All amounts in EUR": a currency code written out, for amounts written without one
        for (const m of text.matchAll(/(?:\(|\bin\s+)(USD|EUR|GBP|CHF|JPY|CAD|AUD|NZD|SEK|NOK|DKK|PLN|CZK|INR|CNY|HKD|SGD)\b/g)) add(m[1], 0.45, m.index ?? -1);
        typed(findAmounts(text).map((a) => ({ ...a, value: currencyOf(a, dollar) })), 0.35);
        // A code standing alone ("Amount CHF", "TOTAL CHF  1,924.18"): the amounts' currency when the message names only one.
        const codes = [...text.matchAll(/(?<![\p{L}\p{N}])(USD|EUR|GBP|CHF|JPY|CAD|AUD|NZD|SEK|NOK|DKK|PLN|CZK|INR|CNY|HKD|SGD)(?![\p{L}\p{N}])/gu)];
        const distinct = new Set(codes.map((m) => m[1]));
        for (const m of codes) add(m[1], (distinct.size === 1 ? 0.4 : 0.2) + 0.2 * closeness(m.index ?? 0, spots), m.index ?? -1);
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
        // Several lines naming the field ("Required: …" / "Optional: …", "To: …" / "Cc: …") make one list.
        const listed = cands.filter((c) => Array.isArray(c.value) && c.index >= 0 && c.score >= 0.6);
        if (new Set(listed.map((c) => c.index)).size >= 2) add([...new Set(listed.flatMap((c) => c.value as string[]))], Math.max(...listed.map((c) => c.score)) + 0.01, Math.min(...listed.map((c) => c.index)));
        // every address in a line naming the field, else the calendar's attendees
        const ev = facts?.events[0];
        // The organiser joins the list when the field says so ("everyone invited, including the organiser");
        // "the people invited" alone means the invitation's guests.
        const fieldDesc = String(spec.schema.description ?? '');
        const withOrganizer = !!ev?.organizer?.email && /\b(includ\w*|with|plus)\b[^.]{0,20}\borgani[sz]er\b|\borgani[sz]er\s+included\b/i.test(fieldDesc);
        // "…, not counting the organiser": whoever sent the invitation is left out.
        const withoutOrganizer = /\b(not counting|not including|excluding|except|other than|without|apart from|besides|but not)\b[^.]{0,20}\borgani[sz]er/i.test(fieldDesc);
        const organizers = new Set([ev?.organizer?.email, ...(withoutOrganizer ? [msg.from?.email] : [])].filter((e): e is string => !!e).map((e) => e.toLowerCase()));
        const keep = (emails: string[]) => [...new Set(emails)].filter((e) => !withoutOrganizer || !organizers.has(e.toLowerCase()));
        if (ev?.attendees.length && /\b(attendee|participant|invitee|guest|people|member)/.test(spec.words.join(' '))) add(keep([...ev.attendees.map((a) => a.email), ...(withOrganizer && ev.organizer ? [ev.organizer.email] : [])]), 0.85, -1);
        if (!cands.length && /\b(attendee|participant|invitee|guest|recipient)/.test(spec.words.join(' '))) {
          // The people the mail went to; the sender too when the field is about who attends, not who was
          // invited — the description says which ("everyone invited"), else the name ("attendees").
          const says = (t: string) => (/\b(invit\w*|guests?|recipients?)\b/i.test(t) ? 'invited' : /\b(attend\w*|participants?|present)\b/i.test(t) ? 'attending' : undefined);
          const invitedOnly = !withOrganizer && (says(fieldDesc) ?? says(words(spec.name))) === 'invited';
          const ppl = [...msg.to, ...msg.cc, ...(msg.from && !invitedOnly ? [msg.from] : [])].map((p) => p.email);
          // A written invitation: it says so, or has the shape of one ("When:"/"Where:" lines, a time and a video link).
          // (or a time span arranged with them: "11:00-12:00 CET")
          const shaped = /\b(invit|meeting|call|calendar)/i.test(text) || (/^\s*(when|date|time)\s*:/im.test(text) && /^\s*(where|location|room|join)\b[^:\n]{0,20}:/im.test(text)) || (VIDEO_LINK.test(text) && findTimes(text).length > 0) || TIME_SPAN.test(text);
          if (ppl.length && shaped) add(keep(ppl), 0.35, -1);
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
          const isVideo = VIDEO_LINK.test(u.value);
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
        // (a month inside a date, "02 APR 2026", is no code)
        const dateSpans = findDates(text, ref).map((d) => [d.index, d.index + d.text.length] as const);
        for (const f of patternTokens(text, spec.pattern!)) {
          const c = closeness(f.index, spots, 60);
          let s = 0.2 + 0.5 * c;
          const up = f.value.toUpperCase();
          if (!currencyish && (CURRENCY_CODES.has(up) || COMMON_CAPS.has(up) || up in ZONE_ABBR)) s -= 0.3;
          if (!/\d/.test(f.value) && dateSpans.some(([a, b]) => f.index >= a && f.index < b)) s -= 0.3;
          // (a code in parentheses after a place name is a value even on a row that looks like a label)
          if (labelWords.has(up) && f.value === f.text && text[f.index - 1] !== '(') s -= 0.3;
          // "TAP Air Portugal": capitals that start a name are not a code
          if (!/\d/.test(f.value) && /^[ \t]+\p{Lu}\p{Ll}/u.test(text.slice(f.index + f.text.length, f.index + f.text.length + 4))) s -= 0.1;
          // inside a parenthesis right after a place name: "Lisbon (LIS)" — the way codes are written
          if (text[f.index - 1] === '(') s += 0.1;
          // a designator written with a space ("LX 318") beats its bare number ("318")
          if (/\s/.test(f.text) && f.value.length > f.text.replace(/\s+/g, '').length - 1 && /[A-Z]/.test(f.value) && /\d/.test(f.value)) s += 0.05;
          add(f.value, s, f.index);
        }
        break;
      }
      case 'person': {
        for (const p of spans.filter((x) => x.type === 'PERSON' && !/\n/.test(x.text))) add(p.text.replace(/[\s(,;:[]+$/, ''), 0.3 + 0.3 * closeness(p.start, spots), p.start);
        if (msg.from?.name && /\b(sender|from|name|contact)\b/.test(words(spec.name))) add(msg.from.name, 0.45, -1);
        // The person a booking or letter is addressed to: "Dear Noor Haddad," (a full name only).
        if (!/\b(sender|from|author|contact|organi[sz]er|host)\b/.test(words(spec.name))) {
          const sal = addressee(text);
          if (sal) add(sal.name, 0.36, sal.index);
        }
        break;
      }
      case 'org': {
        const orgs = spans.filter((x) => x.type === 'ORG' && !/\n/.test(x.text));
        // (a span across aligned columns, "San Francisco SFO     London", is no name)
        for (const o of orgs.filter((x) => !/\S(?: {2,}|\t)\S/.test(x.text))) add(o.text.replace(/[\s(,;:[]+$/, ''), 0.3 + 0.3 * closeness(o.start, spots), o.start);
        // The airline named beside a flight designator ("TP1440 - TAP Air Portugal", "EW 7462, operated by Eurowings").
        if (/\b(airline|carrier|operat)/.test(spec.words.join(' '))) {
          // (the name ends its cell or line: "BA 287 - London to San Francisco" names a route, not an airline)
          const own = [msg.from?.name ?? '', ...(msg.from?.email.split('@')[1] ?? '').split('.').slice(0, -1)].map((x) => x.toLowerCase().replace(/[^a-z0-9]/g, '')).filter((x) => x.length >= 2);
          for (const m of text.matchAll(/\b[A-Z][A-Z0-9] ?\d{1,4}\b[ \t]*(?:[-–—][ \t]*(?:operated by[ \t]+)?|\(?operated by[ \t]+)(\p{Lu}[\p{L}'&-]*(?:[ \t]+\p{Lu}[\p{L}'&-]*){0,3})(?=[ \t]*(?:$|[|).;]))/gmu)) {
            const name = m[1] ?? '';
            const squashedName = name.toLowerCase().replace(/[^a-z0-9]/g, '');
            if (!/\d/.test(name) && !(name.toUpperCase() in ZONE_ABBR) && !CURRENCY_CODES.has(name.toUpperCase()) && findDates(name, ref).length === 0) add(name, own.some((o) => squashedName.includes(o) || o.includes(squashedName)) ? 0.5 : 0.72, (m.index ?? 0) + m[0].indexOf(name));
          }
        }
        // The business behind the sender — and, in a forward, behind the forwarded message's sender.
        const legalWanted = wantsLegalName(spec);
        const senders = [{ name: msg.from?.name, email: msg.from?.email, person: facts?.senderKind === 'person' }, ...forwardedSenders(body).map((f) => ({ ...f, person: false }))];
        for (const [k, who] of senders.entries()) for (const c of senderOrgs(who, text, ref, legalWanted, orgs)) add(c.value, c.score - (k > 0 ? 0.02 : 0), c.index);
        break;
      }
      case 'rows': {
        const rows = tableRows(spec, [...tables, ...textBlocks(text)], ajv, ref, zone);
        if (rows) add(rows, 0.8, -1);
        break;
      }
      case 'identifier':
      case 'strings':
      case 'string': {
        const isTitle = /\b(title|subject|topic|summary|name)\b/.test(words(spec.name));
        const block = spec.kind === 'string' ? eventBlock(body.slice(0, 20_000), ref) : {};
        const isPlace = /\b(location|place|venue|room|where|address)\b/.test(words(spec.name));
        if (isTitle && block.title) add(block.title.value, 0.45, block.title.index + msg.subject.length + 1);
        if (isPlace && block.place) add(block.place.value, 0.55, block.place.index + msg.subject.length + 1);
        // A place named in prose: "… in the ground floor plant room", "meet at the Harbour Office".
        if (isPlace) for (const p of placesInProse(body.slice(0, 20_000))) add(p.value, 0.33, p.index + msg.subject.length + 1);
        // A place that may be a link ("Room and/or video link", "where to join: room or call link"), with no
        // field of its own for links: an online meeting's link is where it happens.
        const desc = String(spec.schema.description ?? '');
        if (isPlace && !hasUriField && /\b(link|url|video|online|call)\b/i.test(desc) && !/\b(not|no|never|without|excluding)\b[^.]{0,15}\b(link|url|video)/i.test(desc)) {
          for (const m of text.matchAll(/\bhttps?:\/\/[^\s<>"')\]]+/gi)) if (VIDEO_LINK.test(m[0])) add(m[0].replace(/[.,;]+$/, ''), 0.32, m.index ?? -1);
        }
        if (isTitle && /\b(meeting|event|invit|call|session)/.test(spec.words.join(' ') + ' ' + text.slice(0, 300).toLowerCase())) {
          const subj = meetingSubject(msg.subject, ref);
          if (subj) add(subj, 0.4, -1);
          // A meeting named in the text ("our Vendor Orientation call is Thursday …"): its own name
          // beats a reply's subject about something else.
          const named = /\b(?:our|the|a|an|your)\s+((?:\p{Lu}[\p{L}'&-]*\s+){0,4}\p{Lu}[\p{L}'&-]*)\s+(?:call|meeting|session|webinar|workshop|briefing|sync|catch-up|check-in)\s+(?:is|will be|on|at|takes place|starts)\b/u.exec(body.slice(0, 20_000));
          if (named?.[1] && !/^(?:Zoom|Teams|Google|Skype|Monday|Tuesday|Wednesday|Thursday|Friday|Saturday|Sunday)$/.test(named[1])) add(named[1], 0.5, msg.subject.length + 1 + named.index);
        }
        // A list of people ("Passenger names on the booking"): the person the mail is addressed to,
        // and never a code ("QH4T9M" after "booking").
        const people = peopleList(spec);
        if (people) {
          const sal = addressee(text);
          if (sal) add([sal.name], 0.36, sal.index);
          for (const p of spans.filter((x) => x.type === 'PERSON' && !/\n/.test(x.text) && /\s/.test(x.text.trim()))) add([p.text.replace(/[\s(,;:[]+$/, '')], 0.25 + 0.3 * closeness(p.start, spots), p.start);
          break;
        }
        // An identifier right after a field word: "invoice INV-2041", "order #55321", "booking ref ABC123".
        for (const sp of spots) {
          const after = text.slice(sp.at, sp.at + 40);
          const m = /^\s*(?:#|no\.?|nr\.?|n[°º]|no°|num(?:ber|éro)?\.?|id|ref(?:erence)?|code)?\s*[:#]?\s*([A-Z0-9][A-Z0-9/_-]{2,})/i.exec(after);
          const id = m?.[1];
          if (id && /\d/.test(id)) add(spec.kind === 'strings' ? [id] : id, 0.3 + 0.4 * sp.w, sp.at);
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
    // "BRS -> AMS", "ZRH 06:45 CET -> FRA 07:50 CET": the left side is where it starts, the right where
    // it ends — on lines with a candidate of this field on both sides; the first such line is the first leg.
    // Legs of a trip are written in order: among near-equal candidates the earlier leg wins.
    if (spec.role) {
      const firstAt = new Map<string, number>();
      for (const c of cands) if (c.index >= 0) firstAt.set(JSON.stringify(c.value), Math.min(firstAt.get(JSON.stringify(c.value)) ?? Infinity, c.index));
      const order = [...firstAt.entries()].sort((x, y) => x[1] - y[1]).map(([k]) => k);
      for (const c of cands) if (c.index >= 0) c.score -= 0.02 * Math.min(3, order.indexOf(JSON.stringify(c.value)));
    }
    // Exactly two clear values for a pair of fields (two airports, two times of one segment): in
    // the order written, the first is where it starts and the second where it ends.
    if (spec.role) {
      const clear = new Map<string, number>();
      for (const c of cands) if (c.index >= 0 && c.score >= 0.2) clear.set(JSON.stringify(c.value), Math.min(clear.get(JSON.stringify(c.value)) ?? Infinity, c.index));
      if (clear.size === 2) {
        const [first, second] = [...clear.entries()].sort((x, y) => x[1] - y[1]).map(([k]) => k);
        const mine = spec.role === 'origin' ? first : second;
        for (const c of cands) if (JSON.stringify(c.value) === mine) c.score += 0.15;
      }
    }
    // A cancelled-and-rebooked trip or meeting: values in a paragraph that speaks of the cancellation
    // lose to those of the new arrangement.
    if (rebooked && ['datetime', 'date', 'time', 'pattern', 'identifier', 'string'].includes(spec.kind)) {
      for (const c of cands) if (c.index >= 0 && cancelledAt(text, c.index)) c.score -= 0.25;
    }
    // "Zurich (ZRH)   departure 07:00" / "Amsterdam (AMS)   arrival 08:35": a value on a short line that
    // names one side of the trip belongs to that side.
    if (spec.role) {
      for (const c of cands) {
        if (c.index < 0) continue;
        const side = lineSide(text, c.index);
        if (side) c.score += side === spec.role ? 0.15 : -0.15;
      }
    }
    if (spec.role && arrows.length) {
      for (const a of arrows) {
        // only values found in the text itself: a table cell's index is its row's start
        const on = cands.filter((c) => c.index >= a.start && c.index <= a.end && !labelAt.has(c.index));
        const left = on.filter((c) => c.index < a.arrow);
        const right = on.filter((c) => c.index > a.arrow);
        if (!left.length || !right.length) continue;
        const mine = spec.role === 'origin' ? left : right;
        const theirs = spec.role === 'origin' ? right : left;
        // the nearest value to the arrow on the field's side
        const near = (c: Cand) => -Math.abs(c.index - a.arrow) / 1000;
        const best = mine.reduce((x, y) => (y.score + near(y) > x.score + near(x) ? y : x));
        best.score += Math.max(0.1, 0.4 - 0.1 * a.order);
        for (const c of theirs) c.score -= 0.1;
      }
    }
    if (spec.family) {
      const own = byFamily.get(spec.family) ?? new Set<number>();
      for (const c of cands) {
        if (typeof c.value !== 'number' || own.has(c.value)) continue;
        if ([...byFamily.entries()].some(([f, vs]) => f !== spec.family && vs.has(c.value as number))) c.score -= 0.35;
      }
    }
    // Best candidate not already used by an earlier sibling field of the same kind ("from"/"to").
    cands.sort((a, b) => b.score - a.score || (a.index < 0 ? 1 : b.index < 0 ? -1 : a.index - b.index));
    const key = (v: unknown) => JSON.stringify(v).toLowerCase();
    // A departure and an arrival may read the same on the clock ("08:10" out of Helsinki, "08:10" into
    // Stockholm): a strongly labelled value at a place of its own is not the sibling's.
    const ownPlace = (c: Cand) => spec.kind === 'datetime' && !!spec.role && c.index >= 0 && c.score >= 0.75 && !used.has(`${key(c.value)}@${c.index}`);
    let pick = cands.find((c) => !used.has(key(c.value)) || ownPlace(c));
    // A required field takes weaker evidence (a value of its exact pattern/format with no label
    // near it): without it the whole object would be invalid. Any value that validates and has some
    // evidence for it beats an object the schema refuses.
    const isRequired = Array.isArray(schema.required) && (schema.required as unknown[]).includes(spec.name);
    const floor = isRequired ? 0.15 : 0.3;
    if (pick && pick.score < floor && !(isRequired && pick.score > 0)) pick = undefined;
    if (pick && !isRequired && used.size && cands[0] && cands[0] !== pick && cands[0].score - pick.score > 0.45) pick = undefined;
    if (pick) {
      // the runners-up, should the whole object refuse the pick
      const chosen = pick;
      nextBest.set(spec.name, cands.filter((c) => c !== chosen && c.score >= floor && !used.has(key(c.value)) && key(c.value) !== key(chosen.value)));
      data[spec.name] = pick.value;
      conf[spec.name] = Math.round(Math.min(0.99, pick.score + 0.1) * 100) / 100;
      used.add(key(pick.value));
      used.add(`${key(pick.value)}@${pick.index}`);
      taken.set(sibKey, used);
      if (spec.kind === 'amount') {
        const a = findAmounts(text).find((x) => x.value.amount === pick!.value);
        if (a) chosenAmount = { currency: currencyOf(a, dollar) };
      }
    }
  }

  localToAirports(data, specs, text, ref, facts);

  // The whole object must validate; a value that breaks it is replaced by the field's next
  // candidate that does not, else dropped, and either way reported.
  const validation_errors: string[] = [];
  const fieldOf = (err: NonNullable<ValidateFunction['errors']>[number]) => err.instancePath.split('/')[1] ?? (err.keyword === 'additionalProperties' ? String((err.params as { additionalProperty?: string }).additionalProperty) : undefined);
  // (a plain boolean: ajv's type guard would narrow `data` away)
  const isValid = (d: Record<string, unknown>): boolean => !!validate(d);
  const breaks = (field: string) => !isValid(data) && (validate.errors ?? []).some((e) => fieldOf(e) === field);
  for (let i = 0; i < 5 && !isValid(data); i++) {
    let changed = false;
    const failing = [
      ...new Map(
        (validate.errors ?? []).flatMap((e) => {
          const f = fieldOf(e);
          return f && f in data ? [[f, e.message ?? 'is invalid'] as const] : [];
        }),
      ).entries(),
    ];
    for (const [field, message] of failing) {
      const was = data[field];
      const alt = (nextBest.get(field) ?? []).find((c) => {
        data[field] = c.value;
        return !breaks(field);
      });
      if (alt) {
        validation_errors.push(`${field}: found ${JSON.stringify(was)} but it ${message}; took the next candidate ${JSON.stringify(alt.value)}`);
        data[field] = alt.value;
        conf[field] = Math.round(Math.min(0.99, alt.score + 0.1) * 100) / 100;
      } else {
        validation_errors.push(`${field}: found ${JSON.stringify(was)} but it ${message}; left empty`);
        delete data[field];
        delete conf[field];
      }
      nextBest.delete(field);
      changed = true;
    }
    if (!changed) break;
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

/**
 * A departure or arrival time written without a zone is local to its airport: re-read it in the
 * zone of the airport chosen for the same side of the trip ("LHR 07:10" in a mail sent from
 * Portugal is 07:10+00:00 in winter, not the sender's offset). Times with a stated zone or offset,
 * and calendar times, are left as they are.
 */
function localToAirports(data: Record<string, unknown>, specs: FieldSpec[], text: string, ref: Date, facts: MessageFacts | undefined): void {
  const zoneOf = (role: 'origin' | 'destination') => {
    for (const s of specs) {
      const v = data[s.name];
      if (s.kind === 'pattern' && s.role === role && typeof v === 'string') {
        const z = airportZone(v);
        if (z) return z;
      }
    }
    return undefined;
  };
  // The times the mail states with a zone (scanned only when a time may need its airport's zone).
  let stated: Set<string> | undefined;
  for (const s of specs) {
    const v = data[s.name];
    if (s.kind !== 'datetime' || !s.role || typeof v !== 'string' || !/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(v)) continue;
    const z = zoneOf(s.role);
    if (!z) continue;
    if (!stated) {
      stated = new Set(findDateTimes(text, ref).map((d) => d.value));
      for (const e of facts?.events ?? []) for (const x of [e.start, e.end]) if (x) stated.add(x);
    }
    const local = stated.has(v) ? undefined : withZone(v.slice(0, 19), z);
    if (local && s.check(local)) data[s.name] = local;
  }
}

export { withZone, offsetString };
