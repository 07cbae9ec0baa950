/**
 * Ranking for search_memory: BM25 over content, entities and tags (entities and tags count
 * double), blended with whole-text similarity so short paraphrases still find their memory,
 * and nudged by strength. Filters on entities/tags are case-insensitive and all must match.
 */
import { similarity, tokenize } from '../nlp';
import type { Memory } from './store';

export interface SearchOptions {
  query: string;
  entities?: string[];
  tags?: string[];
  limit: number;
}

const words = (s: string) => tokenize(s.toLowerCase()).map((t) => t.text).filter((w) => /[\p{L}\p{N}]/u.test(w) && w.length > 1);

export function rankMemories(memories: readonly Memory[], opts: SearchOptions): Array<{ memory: Memory; score: number }> {
  const has = (list: string[], want: string[]) => want.every((w) => list.some((x) => x.toLowerCase() === w.toLowerCase()));
  const pool = memories.filter((m) => has(m.entities, opts.entities ?? []) && has(m.tags, opts.tags ?? []));
  const q = [...new Set(words(opts.query))];
  const docs = pool.map((m) => [...words(m.content), ...words(m.entities.join(' ')), ...words(m.entities.join(' ')), ...words(m.tags.join(' ')), ...words(m.tags.join(' '))]);
  const avg = docs.reduce((n, d) => n + d.length, 0) / Math.max(1, docs.length);
  const df = new Map<string, number>();
  for (const d of docs) for (const w of new Set(d)) df.set(w, (df.get(w) ?? 0) + 1);
  const k1 = 1.2;
  const b = 0.75;
  const scored = pool.map((m, i) => {
    const d = docs[i] ?? []; // docs is pool mapped one-to-one
    let bm25 = 0;
    for (const w of q) {
      const tf = d.filter((x) => x === w).length;
      if (!tf) continue;
      const idf = Math.log(1 + (pool.length - (df.get(w) ?? 0) + 0.5) / ((df.get(w) ?? 0) + 0.5));
      bm25 += (idf * tf * (k1 + 1)) / (tf + k1 * (1 - b + (b * d.length) / avg));
    }
    const sim = q.length ? similarity(opts.query, m.content) : 0;
    // Squash BM25 into 0..1 so it blends with similarity; strength (0–2) breaks near-ties.
    const score = q.length ? 0.6 * (bm25 / (bm25 + 2)) + 0.35 * sim + 0.05 * (m.strength / 2) : 0.5 + 0.05 * (m.strength / 2);
    return { memory: m, score: Math.round(score * 1000) / 1000 };
  });
  return scored
    .filter((s) => !q.length || s.score > 0.15)
    .sort((a, b2) => b2.score - a.score || b2.memory.created.localeCompare(a.memory.created))
    .slice(0, opts.limit);
}
