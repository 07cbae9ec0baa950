/**
 * Independently written text as training data (v7). The blind sets in tests/fixtures/blind were
 * written by people who never read the code; their lines teach the variety of real phrasing the
 * generator's templates lack. Each line enters training as itself plus deterministic variants
 * (casing, dropped punctuation, typos, emoji, dictation, chat prefixes/suffixes and shorthand;
 * for NER also entity swaps from the gazetteers inside the spans), so a few hundred lines teach
 * more than their literal words. How many rows each line gets is chosen by leave-one-set-out
 * (loso.ts) and read from independent-weights.json.
 *
 * A line's variants come from an RNG seeded by the line's own text, so they do not depend on
 * which other sets are in training (the LOSO runs differ only by the set left out).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { EntityType } from '../../electron/core/domains/nlp/contract';
import { fnv1a } from '../../electron/core/domains/nlp/hash';
import { mulberry32, type Rng } from './prng';
import { readIntentTsv, typo, type IntentExample } from './generate-intent';
import { readAnnotated, type NerExample, type Span } from './generate-ner';
import { readSections } from './template';
import { loadLexicon } from './lexicon';
import { chatShorthand, dictate } from './save-grammar';

export interface IndependentSet {
  /** `blind` for the first set (tests/fixtures/blind/*.tsv|txt), else the folder name. */
  name: string;
  intent?: string;
  ner?: string;
}

/** Every independently written model set under tests/fixtures/blind, sorted by name (the first set first). */
export function independentSets(repoRoot: string): IndependentSet[] {
  const root = path.join(repoRoot, 'tests', 'fixtures', 'blind');
  const at = (dir: string, name: string): IndependentSet => {
    const intent = path.join(dir, 'intent.tsv');
    const ner = path.join(dir, 'ner.txt');
    return { name, intent: fs.existsSync(intent) ? intent : undefined, ner: fs.existsSync(ner) ? ner : undefined };
  };
  if (!fs.existsSync(root)) return [];
  const sets = [at(root, 'blind')];
  for (const d of fs.readdirSync(root).sort()) {
    const dir = path.join(root, d);
    if (fs.statSync(dir).isDirectory()) sets.push(at(dir, d));
  }
  return sets.filter((s) => s.intent || s.ner);
}

/** Rows per independent line (the literal line, then variants); `literal` repeats the line unchanged instead (the LOSO control). */
export interface Weighting {
  copies: number;
  literal?: boolean;
}

export interface IndependentWeights {
  intent: Weighting;
  ner: Weighting;
  /** The sets the weights were chosen over (and that train.ts then trains on). */
  sets?: string[];
}

export const WEIGHTS_FILE = path.join(path.dirname(new URL(import.meta.url).pathname), 'independent-weights.json');

/** The weights loso.ts chose; none (generator only) when the file is absent. */
export function readWeights(file = WEIGHTS_FILE): IndependentWeights {
  if (!fs.existsSync(file)) return { intent: { copies: 0 }, ner: { copies: 0 } };
  const j = JSON.parse(fs.readFileSync(file, 'utf8')) as { intent?: Weighting; ner?: Weighting; sets?: unknown };
  const ok = (w: Weighting | undefined): Weighting => (w && Number.isInteger(w.copies) && w.copies >= 0 ? { copies: w.copies, literal: w.literal === true } : { copies: 0 });
  return { intent: ok(j.intent), ner: ok(j.ner), sets: Array.isArray(j.sets) ? j.sets.filter((x): x is string => typeof x === 'string') : undefined };
}

const lineRng = (text: string, seed: number): Rng => mulberry32((fnv1a(text) ^ seed) >>> 0);
const EMOJI = ['🙂', '😅', '👍', '🙏', '😂', '❤️', '✨', '🤔', '😊', '🙃', '😬', '💯'];
const lowerFirst = (s: string) => (/^I\b/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1));
const upperFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** Sentence punctuation followed by a space or the end (not inside "3.5", "10:30" or "e.g"). */
const PUNCT_RE = /[.,!?;:…]+(?=\s|$)/g;

interface ChatRegister {
  prefixes: string[];
  suffixes: string[];
}

function chatRegister(corporaDir: string): ChatRegister {
  const aug = readSections(fs.readFileSync(path.join(corporaDir, 'intent', 'augment.txt'), 'utf8'));
  return { prefixes: aug.prefixes ?? [], suffixes: aug.suffixes ?? [] };
}

/** One variant of a message: a few register changes that keep its intent, save request and urgency. */
export function intentVariant(text: string, rng: Rng, reg: ChatRegister): string {
  let t = text;
  if (rng.chance(0.1)) return dictate(t, rng);
  if (rng.chance(0.2) && reg.prefixes.length) t = rng.pick(reg.prefixes) + lowerFirst(t);
  if (rng.chance(0.15) && reg.suffixes.length) t = t.replace(/[.!]$/, '') + rng.pick(reg.suffixes);
  if (rng.chance(0.15)) t = `${t} ${rng.pick(EMOJI)}`;
  if (rng.chance(0.35)) t = t.split(' ').map((w) => (rng.chance(0.1) ? typo(w, rng) : w)).join(' ');
  if (rng.chance(0.2)) t = chatShorthand(t, rng);
  const c = rng.next();
  if (c < 0.35) t = t.toLowerCase();
  else if (c < 0.39) t = t.toUpperCase();
  else if (c < 0.6) t = upperFirst(t);
  if (rng.chance(0.35)) t = t.replace(PUNCT_RE, '');
  t = t.replace(/\s+/g, ' ').trim();
  // Nothing changed (all draws missed): drop the final punctuation or lower-case it.
  return t === text ? (/[.!?]$/.test(t) ? t.slice(0, -1) : t.toLowerCase()) : t;
}

export function augmentIntent(rows: readonly IntentExample[], w: Weighting, seed: number, corporaDir: string): IntentExample[] {
  if (w.copies <= 0) return [];
  const reg = chatRegister(corporaDir);
  const out: IntentExample[] = [];
  for (const e of rows) {
    const rng = lineRng(e.text, seed);
    const tags = [...e.tags, 'independent'];
    out.push({ ...e, tags });
    for (let k = 1; k < w.copies; k++) out.push({ ...e, text: w.literal ? e.text : intentVariant(e.text, rng, reg), tags });
  }
  return out;
}

interface Piece {
  text: string;
  type?: EntityType;
}

const toPieces = (e: NerExample): Piece[] => {
  const out: Piece[] = [];
  let at = 0;
  for (const s of [...e.spans].sort((a, b) => a.start - b.start)) {
    if (s.start > at) out.push({ text: e.text.slice(at, s.start) });
    out.push({ text: e.text.slice(s.start, s.end), type: s.type });
    at = s.end;
  }
  if (at < e.text.length) out.push({ text: e.text.slice(at) });
  return out;
};

const fromPieces = (pieces: readonly Piece[]): NerExample => {
  let text = '';
  const spans: Span[] = [];
  for (const p of pieces) {
    if (p.type && p.text) spans.push({ start: text.length, end: text.length + p.text.length, type: p.type });
    text += p.text;
  }
  return { text, spans };
};

/** Entity pools for swaps: gazetteers for names, places, organisations, products; the training sets' own spans for dates and times. */
/** Each kind is a few lists; a swap picks a list, then an entry, so a long list (117k towns) does not drown a short one. */
export interface SwapPools {
  first: string[][];
  last: string[][];
  gpe: string[][];
  org: string[][];
  product: string[][];
  DATE: string[][];
  TIME: string[][];
}

const pickIn = (rng: Rng, lists: readonly string[][]): string | undefined => {
  const nonEmpty = lists.filter((l) => l.length > 0);
  return nonEmpty.length ? rng.pick(rng.pick(nonEmpty)) : undefined;
};

export function swapPools(corporaDir: string, training: readonly NerExample[]): SwapPools {
  const pools = readSections(fs.readFileSync(path.join(corporaDir, 'ner', 'pools.txt'), 'utf8'));
  const lex = loadLexicon();
  const noThe = (xs: readonly string[]) => xs.map((x) => x.replace(/^the /i, '')).filter((x) => x && !/[[\]()]/.test(x));
  const own = (type: EntityType) => [...new Set(training.flatMap((e) => e.spans.filter((s) => s.type === type).map((s) => e.text.slice(s.start, s.end))))].sort();
  return {
    first: [pools.first, lex.first, lex.humanNames],
    last: [pools.last, lex.last, lex.humanNames],
    gpe: [noThe(pools.gpe), lex.cities, lex.worldCities, [...lex.countries, ...lex.states]],
    org: [noThe(pools.org), noThe(lex.brands)],
    product: [noThe(pools.product), lex.apps, noThe(lex.brands)],
    DATE: [own('DATE')],
    TIME: [own('TIME')],
  };
}

const TITLE_BEFORE = /\b(?:Dr|Mr|Mrs|Ms|Mx|Prof|Professor|Dr\.|Mr\.|Mrs\.|Ms\.|Prof\.)\s+$/i;

/** Keeps the written casing of the span it replaces: all lower, ALL CAPS, or as listed. */
function matchCase(original: string, replacement: string): string {
  if (original === original.toLowerCase() && /\p{Ll}/u.test(original)) return replacement.toLowerCase();
  if (original === original.toUpperCase() && /\p{Lu}{2}/u.test(original)) return replacement.toUpperCase();
  return replacement;
}

function swapEntity(p: Piece, before: string, rng: Rng, pools: SwapPools): string {
  const pick = (lists: readonly string[][]) => pickIn(rng, lists) ?? p.text;
  switch (p.type) {
    case 'PERSON': {
      const words = p.text.split(/\s+/).length;
      const name = words === 1 ? (TITLE_BEFORE.test(before) ? pick(pools.last) : pick(pools.first)) : `${pick(pools.first)} ${pick(pools.last)}`;
      return matchCase(p.text, name);
    }
    case 'GPE':
      return matchCase(p.text, pick(pools.gpe));
    case 'ORG':
      return matchCase(p.text, pick(pools.org));
    case 'PRODUCT':
      return matchCase(p.text, pick(pools.product));
    case 'DATE':
    case 'TIME':
      return matchCase(p.text, pick(pools[p.type]));
    default:
      return p.text;
  }
}

/** One variant of an annotated sentence: entity swaps inside spans, register changes outside them. */
export function nerVariant(e: NerExample, rng: Rng, pools: SwapPools): NerExample {
  const pieces = toPieces(e);
  let before = '';
  const out: Piece[] = pieces.map((p) => {
    const swap = p.type && rng.chance(p.type === 'DATE' || p.type === 'TIME' ? 0.3 : 0.5);
    const text = swap ? swapEntity(p, before, rng, pools) : p.text;
    before = p.type ? '' : p.text;
    return { text, type: p.type };
  });
  // Outside spans: dropped punctuation, a typo.
  const dropPunct = rng.chance(0.3);
  const typos = rng.chance(0.25);
  for (const p of out) {
    if (p.type) continue;
    if (dropPunct) p.text = p.text.replace(/[.,!?;:…]+(?=\s|$)/g, '');
    if (typos) p.text = p.text.replace(/\p{L}{4,}/gu, (w) => (rng.chance(0.1) ? typo(w, rng) : w));
  }
  const c = rng.next();
  const cased = c < 0.2 ? (s: string) => s.toLowerCase() : c < 0.25 ? (s: string) => s.toUpperCase() : undefined;
  if (cased) for (const p of out) if (cased(p.text).length === p.text.length) p.text = cased(p.text);
  if (rng.chance(0.1)) out.unshift({ text: rng.pick(['ok so ', 'fyi ', 'btw ', 'um ', 'hey ', 'quick one: ']) });
  if (rng.chance(0.15)) out.push({ text: ` ${rng.pick(EMOJI)}` });
  const ex = fromPieces(out.filter((p) => p.text.length > 0 || !p.type));
  return { text: ex.text.replace(/\s+$/, ''), spans: ex.spans.filter((s) => s.end <= ex.text.replace(/\s+$/, '').length) };
}

export function augmentNer(rows: readonly NerExample[], w: Weighting, seed: number, corporaDir: string): NerExample[] {
  if (w.copies <= 0) return [];
  const pools = swapPools(corporaDir, rows);
  const out: NerExample[] = [];
  for (const e of rows) {
    const rng = lineRng(e.text, seed);
    out.push(e);
    for (let k = 1; k < w.copies; k++) out.push(w.literal ? e : nerVariant(e, rng, pools));
  }
  return out;
}

/** The rows of the named sets (all but `leaveOut`), read and augmented. */
export function independentTraining(
  sets: readonly IndependentSet[],
  weights: IndependentWeights,
  seed: number,
  corporaDir: string,
  leaveOut?: string,
): { intent: IntentExample[]; ner: NerExample[]; used: string[] } {
  const used = sets.filter((s) => s.name !== leaveOut);
  const intentRows = used.flatMap((s) => (s.intent ? readIntentTsv(s.intent) : []));
  const nerRows = used.flatMap((s) => (s.ner ? readAnnotated(s.ner) : []));
  return { intent: augmentIntent(intentRows, weights.intent, seed, corporaDir), ner: augmentNer(nerRows, weights.ner, seed, corporaDir), used: used.map((s) => s.name) };
}
