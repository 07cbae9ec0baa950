import { invalidArgument } from '../../../kernel/errors';
import type { JsonObject, JsonSchema } from '../../../kernel/types';
import type { RoutableItem } from '../types';

/**
 * The deterministic mapper: a JSON template whose strings may hold `{{ expression }}`s.
 *
 * - `"{{ title }}"` alone keeps the value's type (a list stays a list); inside other text it is
 *   interpolated. A placeholder whose value is missing removes its key (optional fields stay out).
 * - Paths: title, content, folder, intent, source, path, date, tags, entities, frontmatter.<key>,
 *   today, now; inside `$each`, `item` and `index`.
 * - Filters: `| upper | lower | trim | slug | date | datetime | join(", ") | first | last |
 *   default("x") | truncate(80) | lines | string | number | json`.
 * - `{ "$each": "tags", "$as": { "name": "{{ item }}" } }` maps a list to a list of objects.
 * - `{ "$if": "date", "$then": …, "$else": … }` includes a part only when a value is present.
 *
 * The seed's Notion example:
 *   { "parent": { "database_id": "xxx" },
 *     "properties": { "Name": { "title": [{ "text": { "content": "{{ title }}" } }] },
 *                     "Date": { "$if": "date", "$then": { "date": { "start": "{{ date | date }}" } } },
 *                     "Tags": { "multi_select": { "$each": "tags", "$as": { "name": "{{ item }}" } } } } }
 */

type Scope = Record<string, unknown>;
const MISSING = Symbol('missing');
type Value = unknown | typeof MISSING;

export function itemScope(item: RoutableItem, now: number): Scope {
  const d = new Date(now);
  return {
    title: item.title,
    content: item.content,
    folder: item.folder,
    intent: item.intent,
    source: item.source,
    path: item.path,
    date: item.date,
    tags: item.tags,
    entities: item.entities,
    frontmatter: item.frontmatter ?? {},
    today: d.toISOString().slice(0, 10),
    now: d.toISOString(),
  };
}

const WHOLE = /^\s*\{\{([^{}]+)\}\}\s*$/;
const ANY = /\{\{([^{}]+)\}\}/g;

function lookup(scope: Scope, path: string): Value {
  const p = path.trim();
  if (/^(['"]).*\1$/.test(p)) return p.slice(1, -1);
  let cur: unknown = scope;
  for (const part of p.split('.')) {
    if (cur === null || typeof cur !== 'object' || !(part in (cur as object))) return MISSING;
    cur = (cur as Record<string, unknown>)[part];
  }
  return cur === undefined || cur === null ? MISSING : cur;
}

function arg(raw: string | undefined): string | undefined {
  if (raw === undefined) return undefined;
  const t = raw.trim();
  return /^(['"]).*\1$/.test(t) ? t.slice(1, -1) : t;
}

function toDate(v: unknown): Date | undefined {
  if (v instanceof Date) return v;
  if (typeof v !== 'string' && typeof v !== 'number') return undefined;
  const d = new Date(v);
  return Number.isNaN(d.getTime()) ? undefined : d;
}

function applyFilter(v: Value, name: string, a: string | undefined): Value {
  switch (name) {
    case 'default':
      return v === MISSING || v === '' || (Array.isArray(v) && v.length === 0) ? (arg(a) ?? '') : v;
  }
  if (v === MISSING) return MISSING;
  switch (name) {
    case 'upper':
      return String(v).toUpperCase();
    case 'lower':
      return String(v).toLowerCase();
    case 'trim':
      return String(v).trim();
    case 'string':
      return Array.isArray(v) ? v.join(', ') : String(v);
    case 'number': {
      const n = Number(v);
      return Number.isFinite(n) ? n : MISSING;
    }
    case 'json':
      return JSON.stringify(v);
    case 'slug':
      return String(v)
        .normalize('NFKD')
        .replace(/[\u0300-\u036f]/g, '')
        .toLowerCase()
        .replace(/[^\p{L}\p{N}]+/gu, '-')
        .replace(/^-+|-+$/g, '')
        .slice(0, 80) || 'item';
    case 'date': {
      const d = toDate(v);
      return d ? d.toISOString().slice(0, 10) : MISSING;
    }
    case 'datetime': {
      const d = toDate(v);
      return d ? d.toISOString() : MISSING;
    }
    case 'join':
      return Array.isArray(v) ? v.map(String).join(arg(a) ?? ', ') : String(v);
    case 'first':
      return Array.isArray(v) ? (v.length ? v[0] : MISSING) : v;
    case 'last':
      return Array.isArray(v) ? (v.length ? v[v.length - 1] : MISSING) : v;
    case 'lines':
      return String(v)
        .split(/\r?\n/)
        .map((l) => l.trim())
        .filter(Boolean);
    case 'truncate': {
      const n = Number(arg(a) ?? 80);
      const s = String(v);
      return s.length > n ? s.slice(0, Math.max(0, n - 1)) + '…' : s;
    }
    default:
      throw invalidArgument(`Unknown mapping filter "${name}". Use one of: upper, lower, trim, slug, date, datetime, join, first, last, default, truncate, lines, string, number, json.`);
  }
}

/** Evaluates one `path | filter(arg) | …` expression. */
export function evalExpr(expr: string, scope: Scope): Value {
  // Split on pipes that are not inside quotes.
  const parts = expr.match(/(?:[^|"']+|"[^"]*"|'[^']*')+/g) ?? [''];
  let v = lookup(scope, parts[0] ?? '');
  for (const f of parts.slice(1)) {
    const m = /^\s*([a-z_]+)\s*(?:\((.*)\))?\s*$/i.exec(f);
    if (!m) throw invalidArgument(`Cannot read the mapping filter "${f.trim()}"; write it as name or name("arg").`);
    const [, name = '', arg] = m;
    v = applyFilter(v, name, arg);
  }
  return v;
}

function render(t: unknown, scope: Scope): Value {
  if (typeof t === 'string') {
    const whole = WHOLE.exec(t);
    if (whole) return evalExpr(whole[1] ?? '', scope);
    if (!t.includes('{{')) return t;
    return t.replace(ANY, (_m, e: string) => {
      const v = evalExpr(e, scope);
      return v === MISSING ? '' : Array.isArray(v) ? v.map(String).join(', ') : typeof v === 'object' ? JSON.stringify(v) : String(v);
    });
  }
  if (Array.isArray(t)) return t.map((x) => render(x, scope)).filter((x) => x !== MISSING);
  if (t && typeof t === 'object') {
    const o = t as Record<string, unknown>;
    if ('$each' in o) {
      const list = evalExpr(String(o.$each), scope);
      if (list === MISSING) return [];
      const arr = Array.isArray(list) ? list : [list];
      return arr.map((item, index) => render(o.$as ?? '{{ item }}', { ...scope, item, index })).filter((x) => x !== MISSING);
    }
    if ('$if' in o) {
      const v = evalExpr(String(o.$if), scope);
      const truthy = v !== MISSING && v !== '' && v !== false && !(Array.isArray(v) && v.length === 0);
      const branch = truthy ? o.$then : o.$else;
      return branch === undefined ? MISSING : render(branch, scope);
    }
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(o)) {
      const r = render(v, scope);
      if (r !== MISSING) out[k] = r;
    }
    return out;
  }
  return t;
}

/** Renders a mapping template for an item. */
export function renderTemplate(template: JsonObject, item: RoutableItem, now: number): JsonObject {
  const r = render(template, itemScope(item, now));
  return (r === MISSING ? {} : r) as JsonObject;
}

// ---- schema-aware defaults ----

const TITLE = /^(title|name|subject|summary|heading|label|caption)$/i;
const CONTENT = /^(content|body|text|description|note|markdown|message|details|observation|contents)$/i;
const DATE = /^(date|due|due_?date|deadline|start|when|day|scheduled(_?for)?)$/i;
const FOLDER = /^(folder|category|project|list|collection|notebook)$/i;
const KIND = /^(intent|type|kind|entity_?type|category_?type)$/i;
const SOURCE = /^(source|origin)$/i;
const TAGS = /^(tags|labels|categories|keywords|topics|hashtags)$/i;
const ENTITIES = /^(entities|people|mentions|names|contacts)$/i;
const LINES = /^(observations|lines|paragraphs|contents|notes|facts|items)$/i;

type S = JsonSchema & { type?: string | string[]; properties?: Record<string, JsonSchema>; required?: string[]; items?: JsonSchema; enum?: unknown[]; format?: string };

const typeOf = (s: S): string | undefined => (Array.isArray(s.type) ? s.type.find((t) => t !== 'null') : s.type) ?? (s.properties ? 'object' : undefined);

function pickEnum(values: unknown[], item: RoutableItem): unknown {
  const hints = [item.intent, item.folder, ...item.tags].filter(Boolean).map((h) => String(h).toLowerCase());
  return values.find((v) => hints.includes(String(v).toLowerCase())) ?? values[0];
}

function stringFor(name: string, s: S, item: RoutableItem, required: boolean): unknown {
  if (s.enum) return required || KIND.test(name) ? pickEnum(s.enum, item) : undefined;
  const fmtDate = (d: string | undefined) => {
    if (!d) return undefined;
    const t = toDate(d);
    if (!t) return undefined;
    return s.format === 'date-time' ? t.toISOString() : t.toISOString().slice(0, 10);
  };
  if (TITLE.test(name)) return item.title;
  if (CONTENT.test(name)) return item.content;
  if (DATE.test(name) || s.format === 'date' || s.format === 'date-time') return fmtDate(item.date);
  if (FOLDER.test(name)) return item.folder;
  if (KIND.test(name)) return item.intent ?? (required ? 'note' : undefined);
  if (SOURCE.test(name)) return item.source;
  // Unknown names are not guessed: validation then says which property the mapping must give.
  return undefined;
}

function valueFor(name: string, schema: S, item: RoutableItem, required: boolean): unknown {
  const t = typeOf(schema);
  if (t === 'string') return stringFor(name, schema, item, required);
  if (t === 'array') {
    const items = (schema.items ?? {}) as S;
    const it = typeOf(items);
    if (it === 'object') return required || LINES.test(name) || ENTITIES.test(name) ? [objectFor(items, item)] : undefined;
    if (TAGS.test(name)) return item.tags;
    if (ENTITIES.test(name)) return item.entities;
    if (LINES.test(name)) return [item.content];
    return undefined;
  }
  if (t === 'object') {
    const o = objectFor(schema, item);
    return Object.keys(o).length || required ? o : undefined;
  }
  if (schema.enum && required) return pickEnum(schema.enum, item);
  return undefined;
}

function objectFor(schema: S, item: RoutableItem): JsonObject {
  const out: JsonObject = {};
  const req = new Set(schema.required ?? []);
  for (const [k, s] of Object.entries(schema.properties ?? {})) {
    const v = valueFor(k, s as S, item, req.has(k));
    if (v !== undefined) out[k] = v;
  }
  return out;
}

/**
 * Arguments guessed from the tool's input schema by property names and types: title → the
 * item's title, content/body/text → its content, tags/labels → its tags, date/due → its date,
 * nested objects and lists of objects filled the same way. Used when a route has no mapping, and
 * to fill required properties a mapping leaves out.
 */
export function schemaDefaults(schema: JsonSchema | null | undefined, item: RoutableItem): JsonObject {
  if (!schema) return { title: item.title, content: item.content, tags: item.tags };
  return objectFor(schema as S, item);
}

/** Fills required properties missing from `args` (recursively) with schema-aware defaults. */
export function fillRequired(args: JsonObject, schema: JsonSchema | null | undefined, item: RoutableItem): JsonObject {
  if (!schema) return args;
  const s = schema as S;
  const out: JsonObject = { ...args };
  for (const k of s.required ?? []) {
    const ps = (s.properties ?? {})[k] as S | undefined;
    if (!ps) continue;
    if (!(k in out)) {
      const v = valueFor(k, ps, item, true);
      if (v !== undefined) out[k] = v;
    } else if (typeOf(ps) === 'object' && out[k] && typeof out[k] === 'object' && !Array.isArray(out[k])) {
      out[k] = fillRequired(out[k] as JsonObject, ps, item);
    }
  }
  return out;
}

/** The deterministic mapping: the route's template (if any), then required fields from the schema. */
export function templateMap(mapping: JsonObject | null, schema: JsonSchema | null | undefined, item: RoutableItem, now: number): JsonObject {
  const base = mapping ? renderTemplate(mapping, item, now) : schemaDefaults(schema, item);
  return fillRequired(base, schema, item);
}
