import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsModule from 'ajv-formats';
import type { Nlp, EntitySpan } from '../nlp';
import type { MessageRow } from './store';
import { findAddresses, findAmounts, findDates, findEmails, findPhones, findTimes, type Found } from './parsers';
import { latestText } from './text';

const addFormats = ((addFormatsModule as unknown as { default?: unknown }).default ?? addFormatsModule) as (ajv: Ajv2020) => Ajv2020;

export interface ExtractResult {
  data: Record<string, unknown>;
  confidence: number;
  missing_fields: string[];
  validation_errors: string[];
}

type Kind = 'date' | 'amount' | 'number' | 'currency' | 'email' | 'phone' | 'address' | 'time' | 'enum' | 'person' | 'org' | 'iban' | 'boolean' | 'string';

interface FieldSpec {
  name: string;
  kind: Kind;
  cues: string[];
  schema: Record<string, unknown>;
}

const words = (name: string) => name.replace(/([a-z])([A-Z])/g, '$1 $2').replace(/[_-]+/g, ' ').toLowerCase().trim();

function kindOf(name: string, s: Record<string, unknown>): Kind {
  const n = words(name);
  const type = s.type;
  if (Array.isArray(s.enum)) return 'enum';
  if (type === 'boolean') return 'boolean';
  if (s.format === 'date' || s.format === 'date-time' || /\b(date|due|deadline|day)\b/.test(n)) return 'date';
  if (s.format === 'email' || /\bemail\b/.test(n)) return 'email';
  if (/\bcurrency\b/.test(n)) return 'currency';
  if (/\biban\b/.test(n)) return 'iban';
  if ((type === 'number' || type === 'integer') && /\b(amount|total|price|cost|sum|fee|balance|subtotal)\b/.test(n)) return 'amount';
  if (type === 'number' || type === 'integer') return 'number';
  if (/\b(phone|tel|telephone|mobile|cell)\b/.test(n)) return 'phone';
  if (/\b(address|street)\b/.test(n)) return 'address';
  if (/\btime\b/.test(n) || s.pattern === '^\\d{2}:\\d{2}$') return 'time';
  if (/\b(vendor|company|org|organisation|organization|employer|issuer|supplier)\b/.test(n)) return 'org';
  if (/\b(name|person|sender|contact)\b/.test(n)) return 'person';
  return 'string';
}

function fieldSpecs(schema: Record<string, unknown>): FieldSpec[] {
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  return Object.entries(props).map(([name, s]) => {
    const extra = Array.isArray(s['x-cues']) ? (s['x-cues'] as unknown[]).filter((x): x is string => typeof x === 'string') : [];
    const cues = [...new Set([...extra.map((c) => c.toLowerCase()), words(name), ...(typeof s.title === 'string' ? [s.title.toLowerCase()] : [])])].filter(Boolean);
    return { name, kind: kindOf(name, s), cues, schema: s };
  });
}

interface Labelled {
  label: string;
  value: string;
  index: number;
}

/** "Label: value" lines — the strongest cue a mail gives for a field. */
function labelledLines(text: string): Labelled[] {
  const out: Labelled[] = [];
  const re = /^[ \t*•-]*([\p{L}][\p{L}\p{N} #./()'-]{0,40}?)\s*[:：]\s*(\S.*)$/gmu;
  let m: RegExpExecArray | null;
  while ((m = re.exec(text))) out.push({ label: m[1].toLowerCase().replace(/[#.()]/g, ' ').replace(/\s+/g, ' ').trim(), value: m[2].trim(), index: m.index });
  return out;
}

const cueRe = (cue: string) => new RegExp(`(^|[^\\p{L}\\p{N}])${cue.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')}($|[^\\p{L}\\p{N}])`, 'giu');

function cueIndexes(text: string, cues: string[]): number[] {
  const out: number[] = [];
  for (const c of cues) {
    if (c.length < 2) continue;
    const re = cueRe(c);
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) out.push(m.index + m[1].length + c.length);
  }
  return out;
}

/** The candidate closest after a cue (within `reach` chars), if any. */
function nearCue<T>(cands: Array<Found<T>>, cueAt: number[], reach = 80): Found<T> | undefined {
  let best: Found<T> | undefined;
  let bestD = Infinity;
  for (const c of cands) {
    for (const at of cueAt) {
      const d = c.index - at;
      if (d >= -2 && d <= reach && d < bestD) {
        best = c;
        bestD = d;
      }
    }
  }
  return best;
}

const clean = (s: string) => s.replace(/\s+/g, ' ').replace(/[\s.,;]+$/, '').trim();

function coerce(spec: FieldSpec, raw: string, ref: Date): unknown {
  switch (spec.kind) {
    case 'date': {
      const d = findDates(raw, ref)[0];
      if (!d) return undefined;
      if (spec.schema.format === 'date-time') {
        const t = findTimes(raw)[0];
        return `${d.value}T${t ? t.value : '00:00'}:00Z`;
      }
      return d.value;
    }
    case 'amount':
    case 'number': {
      const a = findAmounts(raw)[0];
      if (a) return spec.schema.type === 'integer' ? (Number.isInteger(a.value.amount) ? a.value.amount : undefined) : a.value.amount;
      const n = /-?\d+(?:[.,]\d+)?/.exec(raw.replace(/(\d)[,\s](\d{3})\b/g, '$1$2'));
      if (!n) return undefined;
      const v = Number(n[0].replace(',', '.'));
      return spec.schema.type === 'integer' && !Number.isInteger(v) ? undefined : v;
    }
    case 'currency': {
      const a = findAmounts(raw)[0];
      if (a) return a.value.currency;
      const c = /\b([A-Z]{3})\b/.exec(raw);
      return c?.[1];
    }
    case 'email':
      return findEmails(raw)[0]?.value;
    case 'phone':
      return findPhones(raw)[0]?.value;
    case 'time':
      return findTimes(raw)[0]?.value;
    case 'iban':
      return /\b[A-Z]{2}\d{2}(?:\s?[A-Z0-9]{4}){2,7}(?:\s?[A-Z0-9]{1,4})?\b/.exec(raw)?.[0].replace(/\s/g, '');
    case 'enum': {
      const opts = (spec.schema.enum as unknown[]).filter((x): x is string => typeof x === 'string');
      return opts.find((o) => cueRe(o.toLowerCase()).test(raw));
    }
    case 'boolean':
      if (/^(yes|true|y|ja|oui)\b/i.test(raw)) return true;
      if (/^(no|false|n|nein|non)\b/i.test(raw)) return false;
      return undefined;
    default:
      return clean(raw) || undefined;
  }
}

/**
 * Fills a user's JSON Schema from one message: "Label: value" lines first, then typed parsers
 * near the field's cue words, then NER spans and the message's own headers. A field with no
 * evidence stays empty — nothing is invented.
 */
export async function extractToSchema(msg: MessageRow, schema: Record<string, unknown>, nlp?: Nlp): Promise<ExtractResult> {
  const text = `${msg.subject}\n${latestText(msg.text) || msg.text}`;
  const ref = new Date(msg.created_at);
  const labels = labelledLines(text);
  let spans: EntitySpan[] = [];
  if (nlp) {
    try {
      spans = await nlp.entities(text.slice(0, 4000));
    } catch {
      spans = [];
    }
  }
  const data: Record<string, unknown> = {};
  const conf: Record<string, number> = {};
  const specs = fieldSpecs(schema);
  let chosenAmount: Found<{ amount: number; currency: string }> | undefined;

  for (const spec of specs) {
    // 1. A labelled line naming the field.
    const hit = labels.find((l) => spec.cues.some((c) => l.label === c)) ?? labels.find((l) => l.label.split(' ').length <= 4 && spec.cues.some((c) => c.length >= 4 && cueRe(c).test(l.label)));
    if (hit) {
      const v = coerce(spec, hit.value, ref);
      if (v !== undefined) {
        data[spec.name] = v;
        conf[spec.name] = 0.95;
        if (spec.kind === 'amount') chosenAmount = findAmounts(hit.value)[0];
        continue;
      }
    }
    // 2. Typed parsers near the field's cue words.
    const cueAt = cueIndexes(text, spec.cues);
    let v: unknown;
    let c = 0.75;
    switch (spec.kind) {
      case 'date': {
        const all = findDates(text, ref);
        const near = nearCue(all, cueAt);
        const generic = spec.cues.every((q) => ['date', 'day', 'when'].includes(q));
        const f = near ?? (generic || cueAt.length === 0 ? (all.length === 1 ? all[0] : undefined) : undefined);
        if (f) v = coerce(spec, f.text, ref) ?? undefined;
        if (!near) c = 0.6;
        break;
      }
      case 'amount': {
        const all = findAmounts(text);
        const f = nearCue(all, cueAt) ?? (all.length === 1 ? all[0] : undefined);
        if (f) {
          v = f.value.amount;
          chosenAmount = f;
        }
        break;
      }
      case 'currency': {
        const f = chosenAmount ?? findAmounts(text)[0];
        v = f?.value.currency;
        break;
      }
      case 'email': {
        const wantsSender = /\b(sender|from|organizer|organiser)\b/.test(words(spec.name));
        if (wantsSender && msg.from) v = msg.from.email;
        else {
          const f = nearCue(findEmails(text), cueAt) ?? findEmails(text).find((e) => e.value.toLowerCase() !== msg.from?.email.toLowerCase());
          v = f?.value ?? msg.from?.email;
          c = f ? 0.8 : 0.65;
        }
        break;
      }
      case 'phone': {
        const all = findPhones(text);
        v = (nearCue(all, cueAt) ?? all[0])?.value;
        break;
      }
      case 'address': {
        const all = findAddresses(text);
        v = (nearCue(all, cueAt, 120) ?? all[0])?.value;
        break;
      }
      case 'time': {
        const all = findTimes(text);
        v = (nearCue(all, cueAt) ?? all[0])?.value;
        break;
      }
      case 'iban':
      case 'enum':
        v = coerce(spec, text, ref);
        break;
      case 'person': {
        const p = spans.find((s) => s.type === 'PERSON');
        if (p) {
          v = p.text;
          c = p.score;
        } else if (msg.from?.name && /\b(sender|from|name)\b/.test(words(spec.name))) {
          v = msg.from.name;
          c = 0.6;
        }
        break;
      }
      case 'org': {
        const o = spans.find((s) => s.type === 'ORG');
        if (o) {
          v = o.text;
          c = o.score;
        }
        break;
      }
      case 'string':
      case 'number': {
        // An identifier right after a cue: "invoice INV-2041", "order #55321".
        for (const q of spec.cues) {
          const re = new RegExp(`${q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replace(/\s+/g, '\\s+')}\\s*(?:#|no\\.?|nr\\.?|number|id)?\\s*[:#]?\\s*([A-Z0-9][A-Z0-9/_-]{2,})`, 'gi');
          let m: RegExpExecArray | null;
          while ((m = re.exec(text)) && v === undefined) {
            if (/\d/.test(m[1])) v = spec.kind === 'number' ? coerce(spec, m[1], ref) : m[1];
          }
          if (v !== undefined) break;
        }
        break;
      }
      default:
        break;
    }
    if (v !== undefined && v !== '') {
      data[spec.name] = v;
      conf[spec.name] = c;
    }
  }

  // Validate against the user's schema; a value that breaks it is dropped and reported.
  const ajv = new Ajv2020({ allErrors: true, strict: false });
  addFormats(ajv);
  const validation_errors: string[] = [];
  let validate;
  try {
    const copy = { ...schema };
    delete copy.$id;
    validate = ajv.compile(copy);
  } catch (e) {
    return { data: {}, confidence: 0, missing_fields: specs.map((s) => s.name), validation_errors: [`schema does not compile: ${(e as Error).message}`] };
  }
  for (let i = 0; i < 3 && !validate(data); i++) {
    let dropped = false;
    for (const err of validate.errors ?? []) {
      const field = err.instancePath.split('/')[1];
      if (field && field in data) {
        validation_errors.push(`${field}: found "${String(data[field])}" but it ${err.message ?? 'is invalid'}; left empty`);
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
