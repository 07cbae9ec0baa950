/**
 * Name pools for the training generator and the runtime gazetteer, extracted from the locale
 * tables of @faker-js/faker (MIT; a devDependency, so only `npm run train` needs it). Latin-script
 * entries only (the tokenizer and the eval are Latin-script), sorted and de-duplicated so the
 * output never depends on object key order.
 */
import { allLocales } from '@faker-js/faker';
import { fnv1a } from '../../electron/core/domains/nlp/hash';

const LATIN = /^[\p{Script=Latin}][\p{Script=Latin}\p{M}' .-]*$/u;

function flat(v: unknown): string[] {
  if (v == null) return [];
  if (typeof v === 'string') return [v];
  if (Array.isArray(v)) return v.flatMap(flat);
  if (typeof v === 'object') return Object.values(v as Record<string, unknown>).flatMap(flat);
  return [];
}

export interface Lexicon {
  first: string[];
  last: string[];
  cities: string[];
  countries: string[];
  states: string[];
  airlines: string[];
  vehicles: string[];
  apps: string[];
  legalForms: string[];
  /** English food words and common nouns, to vary the intent slots. */
  foods: string[];
  nouns: string[];
}

let cached: Lexicon | undefined;

export function loadLexicon(): Lexicon {
  if (cached) return cached;
  const sets: Record<keyof Lexicon, Set<string>> = {
    first: new Set(), last: new Set(), cities: new Set(), countries: new Set(), states: new Set(),
    airlines: new Set(), vehicles: new Set(), apps: new Set(), legalForms: new Set(), foods: new Set(), nouns: new Set(),
  };
  const add = (k: keyof Lexicon, vals: string[]) => {
    for (const raw of vals) {
      const x = raw.trim();
      if (x.length >= 2 && x.length <= 40 && LATIN.test(x) && !x.includes('{')) sets[k].add(x);
    }
  };
  type Loc = Record<string, Record<string, unknown> | undefined>;
  for (const key of Object.keys(allLocales).sort()) {
    if (key === 'en_BORK' || key === 'base') continue;
    const loc = (allLocales as unknown as Record<string, Loc>)[key];
    add('first', flat(loc.person?.first_name));
    add('last', flat(loc.person?.last_name));
    add('cities', flat(loc.location?.city_name));
    add('countries', flat(loc.location?.country));
    add('states', flat(loc.location?.state));
    add('airlines', flat((loc.airline?.airline as Array<{ name: string }> | undefined)?.map((a) => a.name)));
    add('vehicles', flat(loc.vehicle?.manufacturer).flatMap((m) => [m]));
    add('apps', flat(loc.app?.name));
    add('legalForms', flat(loc.company?.legal_entity_type));
    if (key === 'en') {
      const food = loc.food as Record<string, unknown> | undefined;
      add('foods', [food?.dish, food?.ingredient, food?.fruit, food?.vegetable].flatMap(flat).map((x) => x.toLowerCase()));
      add('nouns', [flat(loc.word?.noun), flat(loc.hacker?.noun)].flat());
    }
  }
  // Pure initials and one-letter forms are no use as names.
  const out = Object.fromEntries(Object.entries(sets).map(([k, s]) => [k, [...s].filter((x) => /\p{Ll}/u.test(x) || k === 'legalForms' || x.length > 3).sort()])) as unknown as Lexicon;
  cached = out;
  return out;
}

/**
 * Which entries the runtime gazetteer lists: a fixed hash-chosen 60%, so in training some names
 * carry a gazetteer flag and others do not, and the model learns to read context for names no
 * list knows (as most held-out names will be).
 */
export const inRuntimeGazetteer = (s: string): boolean => fnv1a(`gz:${s.toLowerCase()}`) % 10 < 6;
