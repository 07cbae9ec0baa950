/**
 * The indexes behind the folder profiles' comparisons: term → notes (for the nearest notes) and
 * term → folders (for the folder ranking), as typed arrays, and the top-k selection over scores.
 * They give the same numbers as a direct cosine (see each function), only without probing every
 * note's or folder's Map for every term.
 */
import { cosine, type Vec } from './vectors';

/** The k best of `ids` by score (higher first; on a tie the lower id first), as [id, score]. */
export function topK(ids: readonly number[], score: ArrayLike<number>, k: number): Array<[number, number]> {
  if (k <= 0) return [];
  const better = (a: number, b: number) => {
    const sa = score[a] ?? 0;
    const sb = score[b] ?? 0;
    return sa > sb || (sa === sb && a < b);
  };
  // A sorted window of at most k: each id is compared with the worst kept before any insertion.
  const kept: number[] = [];
  for (const i of ids) {
    if (kept.length >= k) {
      const worst = kept[kept.length - 1] ?? 0;
      if (!better(i, worst)) continue;
      kept.pop();
    }
    let at = kept.length;
    while (at > 0 && better(i, kept[at - 1] ?? 0)) at--;
    kept.splice(at, 0, i);
  }
  return kept.map((i) => [i, score[i] ?? 0]);
}

/**
 * Term → the folders whose centroid has it (folder numbers ascending) and its weight there, in
 * flat arrays: term `row.get(t)` has entries start[r] … start[r+1]. (A Map of two typed arrays
 * per term cost a few hundred bytes a term: tens of MB at 50,000 notes.)
 */
export interface CentroidPostings {
  row: Map<string, number>;
  start: Uint32Array;
  ids: Uint32Array;
  weights: Float64Array;
}

export function buildCentroidPostings(folders: ReadonlyArray<{ centroid: Vec }>): CentroidPostings {
  const row = new Map<string, number>();
  const counts: number[] = [];
  for (const f of folders) {
    for (const [t, x] of f.centroid) {
      if (!x) continue;
      let r = row.get(t);
      if (r === undefined) {
        r = counts.length;
        row.set(t, r);
        counts.push(0);
      }
      counts[r] = (counts[r] ?? 0) + 1;
    }
  }
  const start = new Uint32Array(counts.length + 1);
  for (let r = 0; r < counts.length; r++) start[r + 1] = (start[r] ?? 0) + (counts[r] ?? 0);
  const ids = new Uint32Array(start[counts.length] ?? 0);
  const weights = new Float64Array(ids.length);
  const cursor = start.slice(0, counts.length);
  for (const [i, f] of folders.entries()) {
    for (const [t, x] of f.centroid) {
      if (!x) continue;
      const r = row.get(t) ?? 0;
      const at = cursor[r] ?? 0;
      ids[at] = i;
      weights[at] = x;
      cursor[r] = at + 1;
    }
  }
  return { row, start, ids, weights };
}

/**
 * cosine(v, centroid) for every folder: one lookup per term of `v` instead of one per term and
 * folder (each centroid holds thousands of terms; probing 60 of them per item was most of
 * rankFolders' time). The sums add the same products in the same order as cosine() does when `v`
 * is the smaller vector; a centroid smaller than `v` is computed by cosine() itself.
 */
export function centroidCosines(folders: ReadonlyArray<{ centroid: Vec }>, postings: CentroidPostings, v: Vec): number[] {
  const out = new Array<number>(folders.length).fill(0);
  const { row, start, ids, weights } = postings;
  for (const [t, x] of v) {
    const r = row.get(t);
    if (r === undefined) continue;
    for (let j = start[r] ?? 0, end = start[r + 1] ?? 0; j < end; j++) {
      const i = ids[j] ?? 0;
      out[i] = (out[i] ?? 0) + x * (weights[j] ?? 0);
    }
  }
  for (const [i, f] of folders.entries()) if (f.centroid.size < v.size) out[i] = cosine(v, f.centroid);
  return out;
}
