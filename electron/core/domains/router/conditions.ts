import { z } from 'zod';
import { invalidArgument } from '../../kernel/errors';

export type { RoutableItem } from '../../../../shared/contract/router';
import type { RoutableItem } from '../../../../shared/contract/router';

/**
 * The trigger language of a route. Its JSON form is what the API stores and the UI builder
 * edits: a tree of `all` / `any` / `not` over leaf tests on one field of the item.
 *
 *   { "all": [ { "field": "intent", "op": "equals", "value": "task" },
 *              { "field": "title", "op": "matches", "value": "^TODO\\b" } ] }
 */
export const FIELDS = ['folder', 'intent', 'entities', 'tags', 'source', 'title', 'content', 'path'] as const;
export const OPS = ['equals', 'not_equals', 'in', 'contains', 'starts_with', 'matches', 'exists'] as const;
export type { Field, Op, Leaf, Condition } from '../../../../shared/contract/router';
import type { Condition, Field, Leaf } from '../../../../shared/contract/router';

const LeafSchema = z
  .object({
    field: z.enum(FIELDS),
    op: z.enum(OPS),
    value: z.union([z.string(), z.array(z.string())]).optional(),
    case_sensitive: z.boolean().optional(),
  })
  .strict();

export const ConditionSchema: z.ZodType<Condition> = z.lazy(() =>
  z.union([
    z.object({ always: z.literal(true) }).strict(),
    z.object({ all: z.array(ConditionSchema) }).strict(),
    z.object({ any: z.array(ConditionSchema) }).strict(),
    z.object({ not: ConditionSchema }).strict(),
    LeafSchema,
  ]),
) as z.ZodType<Condition>;

const ARRAY_FIELDS = new Set<Field>(['entities', 'tags']);
/** Regexes run on item text; bound both sides so a careless pattern cannot stall the owner. */
const MAX_PATTERN = 500;
const MAX_TEXT = 100_000;

/** Checks the tree beyond its shape: values present where needed, regexes that compile. */
export function validateCondition(c: Condition, at = 'condition'): void {
  if ('always' in c) return;
  if ('all' in c) return c.all.forEach((x, i) => validateCondition(x, `${at}.all[${i}]`));
  if ('any' in c) return c.any.forEach((x, i) => validateCondition(x, `${at}.any[${i}]`));
  if ('not' in c) return validateCondition(c.not, `${at}.not`);
  if (c.op === 'exists') return;
  if (c.value === undefined) throw invalidArgument(`${at}: "${c.op}" on ${c.field} needs a value.`);
  if (c.op === 'in' && !Array.isArray(c.value)) throw invalidArgument(`${at}: "in" needs a list of values.`);
  if (c.op !== 'in' && Array.isArray(c.value)) throw invalidArgument(`${at}: "${c.op}" takes one value; use "in" for a list.`);
  if (c.op === 'matches') {
    const p = c.value as string;
    if (p.length > MAX_PATTERN) throw invalidArgument(`${at}: the pattern is longer than ${MAX_PATTERN} characters; shorten it.`);
    try {
      new RegExp(p, c.case_sensitive ? 'u' : 'iu');
    } catch (e) {
      throw invalidArgument(`${at}: /${p}/ is not a valid regular expression (${(e as Error).message}).`);
    }
  }
}

/** Parses the JSON form (from the API or a stored row) into a checked condition. */
export function parseCondition(raw: unknown): Condition {
  const r = ConditionSchema.safeParse(raw ?? { always: true });
  if (!r.success) {
    throw invalidArgument(
      `Invalid route condition: ${r.error.issues.map((i) => `${i.path.map(String).join('.') || '(root)'}: ${i.message}`).join('; ')}. ` +
        'Use { "all": [...] }, { "any": [...] }, { "not": ... } or { "field", "op", "value" }.',
    );
  }
  validateCondition(r.data);
  return r.data;
}

function fieldValues(item: RoutableItem, f: Field): string[] {
  switch (f) {
    case 'entities':
      return item.entities;
    case 'tags':
      return item.tags;
    case 'content':
      return [item.content.slice(0, MAX_TEXT)];
    default: {
      const v = item[f];
      return v === undefined || v === null || v === '' ? [] : [String(v)];
    }
  }
}

const norm = (s: string, cs: boolean | undefined, field: Field) => {
  let v = cs ? s : s.toLowerCase();
  // Folders compare without trailing slashes and tags without their '#'.
  if (field === 'folder') v = v.replace(/\/+$/, '');
  if (field === 'tags') v = v.replace(/^#/, '');
  return v;
};

function testLeaf(c: Leaf, item: RoutableItem): boolean {
  const values = fieldValues(item, c.field);
  if (c.op === 'exists') return values.length > 0;
  if (c.op === 'not_equals') return !testLeaf({ ...c, op: 'equals' }, item);
  const cs = c.case_sensitive;
  const wanted = (Array.isArray(c.value) ? c.value : [c.value ?? '']).map((w) => norm(w, cs, c.field));
  const vs = values.map((v) => norm(v, cs, c.field));
  switch (c.op) {
    case 'equals':
    case 'in':
      return vs.some((v) => wanted.includes(v));
    case 'contains':
      return vs.some((v) => wanted[0] !== undefined && v.includes(wanted[0]));
    case 'starts_with':
      return vs.some((v) => wanted[0] !== undefined && v.startsWith(wanted[0]));
    case 'matches': {
      const re = new RegExp(c.value as string, cs ? 'u' : 'iu');
      return values.some((v) => re.test(v));
    }
  }
}

/** Does the item satisfy the condition? An empty `all` is true, an empty `any` false. */
export function matches(c: Condition, item: RoutableItem): boolean {
  if ('always' in c) return true;
  if ('all' in c) return c.all.every((x) => matches(x, item));
  if ('any' in c) return c.any.some((x) => matches(x, item));
  if ('not' in c) return !matches(c.not, item);
  return testLeaf(c, item);
}

/** A one-line human reading of a condition, for lists and logs. */
export function describeCondition(c: Condition): string {
  if ('always' in c) return 'every item';
  if ('all' in c) return c.all.length ? c.all.map(describeCondition).join(' and ') : 'every item';
  if ('any' in c) return c.any.length ? '(' + c.any.map(describeCondition).join(' or ') + ')' : 'nothing';
  if ('not' in c) return `not (${describeCondition(c.not)})`;
  if (c.op === 'exists') return `${c.field} is set`;
  const v = Array.isArray(c.value) ? c.value.join(', ') : c.op === 'matches' ? `/${c.value}/` : `"${c.value}"`;
  return `${c.field} ${c.op.replace('_', ' ')} ${v}`;
}

export { ARRAY_FIELDS };
