/**
 * Featurizers shared by `models/train` and the runtime, so the features a model was trained on
 * are the features it sees. Both produce hashed indices into the model's weight table; the
 * ONNX graph sums the rows (a sparse linear layer), so index order does not matter.
 */
import { bucketOf } from './hash';
import { detectPhrases } from './phrases';
import { tokenize, wordShape, type Token } from './tokenize';
import * as gz from './gazetteer';
import type { EntityType } from './contract';
import { present } from '../../kernel/errors';

export const FEATURE_VERSION = 3;

export interface FeatureParams {
  /** Rows of the weight table (hash buckets, including padding row 0). */
  buckets: number;
  version: number;
}

function normalizeWord(w: string): string {
  const lower = w.toLowerCase().replace(/[’‘]/g, "'");
  if (/^\p{N}+$/u.test(lower)) return lower.length === 4 ? '<year?>' : '<num>';
  if (/\p{N}/u.test(lower)) return wordShape(w).toLowerCase();
  return lower;
}

/** Feature names (before hashing) for a whole message: what the intent model reads. */
export function intentFeatureNames(text: string): string[] {
  const feats = new Set<string>();
  const toks = tokenize(text).map((t) => normalizeWord(t.text));
  const words = ['<s>', ...toks, '</s>'];
  for (let i = 0; i < words.length; i++) {
    const w = words[i];
    if (i > 0 && i < words.length - 1) feats.add(`u:${w}`);
    if (i + 1 < words.length) feats.add(`b:${w}|${words[i + 1]}`);
    if (i + 2 < words.length) feats.add(`t:${w}|${words[i + 1]}|${words[i + 2]}`);
  }
  // Character n-grams inside words carry typos ("remembr", "prefere") to the right place.
  for (const w of toks) {
    if (w.length < 3 || w.startsWith('<')) continue;
    const padded = `<${w}>`;
    for (let n = 3; n <= 5; n++) {
      for (let i = 0; i + n <= padded.length; i++) feats.add(`c:${padded.slice(i, i + n)}`);
    }
  }
  const content = toks.filter((t) => /\p{L}/u.test(t));
  if (content[0]) feats.add(`f1:${content[0]}`);
  if (content[1]) feats.add(`f2:${content[0]}|${content[1]}`);
  if (/\?\s*$/.test(text.trim())) feats.add('ends_q');
  if (text.includes('?')) feats.add('has_q');
  if (text.includes('!')) feats.add('has_bang');
  const n = content.length;
  feats.add(`len:${n <= 3 ? 'xs' : n <= 8 ? 's' : n <= 20 ? 'm' : 'l'}`);
  for (const cue of detectPhrases(text).cues) feats.add(`ph:${cue}`);
  return [...feats];
}

export function hashFeatures(names: readonly string[], params: FeatureParams): number[] {
  return names.map((n) => bucketOf(n, params.buckets));
}

// ---------------------------------------------------------------- NER

/** Gazetteer tag of each token (`B-PRODUCT`, `I-GPE`, ...) from multi-word phrases, then single words. */
function gazetteerTags(lower: string[]): string[][] {
  const tags: string[][] = lower.map(() => []);
  for (const [i, w] of lower.entries()) {
    const own = present(tags[i], 'the tags of a token'); // tags maps lower one-to-one
    for (const p of gz.PHRASES) {
      if (p.tokens.length < 2 || i + p.tokens.length > lower.length) continue;
      if (p.tokens.every((t, k) => lower[i + k] === t)) {
        own.push(`B-${p.type}`);
        for (let k = 1; k < p.tokens.length; k++) tags[i + k]?.push(`I-${p.type}`);
      }
    }
    if (gz.FIRST_NAMES.has(w)) own.push('first');
    if (gz.SURNAMES.has(w)) own.push('last');
    if (gz.TITLES.has(w)) own.push('title');
    if (gz.ORG_SUFFIXES.has(w)) own.push('orgsfx');
    if (gz.ORGS.has(w)) own.push('org');
    if (gz.PRODUCTS.has(w)) own.push('product');
    if (gz.GPES.has(w)) own.push('gpe');
    if (gz.MONTHS.has(w)) own.push('month');
    if (gz.WEEKDAYS.has(w)) own.push('weekday');
    if (gz.DATE_WORDS.has(w)) own.push('dateword');
    if (gz.TIME_WORDS.has(w)) own.push('timeword');
    if (gz.LEX.first.has(w)) own.push('lfirst');
    if (gz.LEX.last.has(w)) own.push('llast');
    if (gz.LEX.place.has(w)) own.push('lplace');
    if (gz.LEX.country.has(w)) own.push('lcountry');
    if (gz.LEX.brand.has(w)) own.push('lbrand');
  }
  return tags;
}

function numberClass(w: string): string | undefined {
  if (/^\d{1,2}:\d{2}$/.test(w)) return 'clock';
  if (/^\d{4}-\d{2}-\d{2}$/.test(w) || /^\d{1,2}\/\d{1,2}(?:\/\d{2,4})?$/.test(w)) return 'isodate';
  if (/^(?:19|20)\d{2}$/.test(w)) return 'year';
  if (/^\d{1,2}$/.test(w)) return Number(w) <= 12 ? 'small12' : Number(w) <= 31 ? 'small31' : 'small';
  if (/^\d{1,2}(?:st|nd|rd|th)$/i.test(w)) return 'ordinal';
  if (/^\p{N}/u.test(w)) return 'num';
  return undefined;
}

/** Per-token feature names for the NER model: the token, its shape and affixes, gazetteer flags, and a ±2 window. */
export function nerFeatureNames(tokens: readonly Token[]): string[][] {
  const lower = tokens.map((t) => t.text.toLowerCase().replace(/[’‘]/g, "'"));
  const shapes = tokens.map((t) => wordShape(t.text));
  const gzt = gazetteerTags(lower);
  const at = <T>(arr: readonly T[], i: number, pad: T): T => (i >= 0 && i < arr.length ? (arr[i] ?? pad) : pad);
  // Casing is only informative when the writer uses it: an all-lowercase message says nothing.
  // ALL CAPS says nothing either, and is its own register ("MEETING MOVED TO FRIDAY").
  const wordsWithLetters = tokens.filter((t) => /\p{L}{2,}/u.test(t.text));
  const upper = wordsWithLetters.length >= 2 && wordsWithLetters.every((t) => t.text === t.text.toUpperCase());
  const cased = upper ? 'upper' : tokens.some((t, i) => i > 0 && /^\p{Lu}/u.test(t.text)) ? 'cased' : 'uncased';
  return tokens.map((tok, i) => {
    // lower, shapes and gzt map tokens one-to-one.
    const w = present(lower[i], 'the lower-cased token');
    const shape = present(shapes[i], 'the token shape');
    const tags = present(gzt[i], 'the gazetteer tags of the token');
    const f: string[] = [`w:${w}`, `raw:${tok.text}`, `sh:${shape}`, `doc:${cased}`];
    for (let n = 1; n <= 4 && n <= w.length; n++) f.push(`p${n}:${w.slice(0, n)}`, `s${n}:${w.slice(-n)}`);
    const num = numberClass(w);
    if (num) f.push(`num:${num}`);
    if (i === 0 || /^[.!?:;\n]$/.test(at(tokens, i - 1, tok).text)) f.push('sent_start');
    if (/^\p{Lu}/u.test(tok.text)) {
      f.push(i === 0 ? 'cap_first' : 'cap_mid', `cap_${cased}`);
      // A capitalised word no list knows: the model must decide from context and shape.
      if (tags.length === 0) f.push('cap_unknown');
    }
    for (const g of tags) f.push(`gz:${g}`);
    for (const d of [-2, -1, 1, 2]) {
      const j = i + d;
      f.push(`w${d}:${at(lower, j, j < 0 ? '<s>' : '</s>')}`, `sh${d}:${at(shapes, j, '_')}`);
      for (const g of j >= 0 && j < tokens.length ? (gzt[j] ?? []) : []) f.push(`gz${d}:${g}`);
    }
    f.push(`bw:${at(lower, i - 1, '<s>')}|${w}`, `fw:${w}|${at(lower, i + 1, '</s>')}`);
    f.push(`sh3:${at(shapes, i - 1, '_')}|${shape}|${at(shapes, i + 1, '_')}`);
    return f;
  });
}

// ---------------------------------------------------------------- labels

export function bioLabels(types: readonly EntityType[]): string[] {
  return ['O', ...types.flatMap((t) => [`B-${t}`, `I-${t}`])];
}
