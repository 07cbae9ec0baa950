/**
 * The indexes behind the folder profiles' comparisons: term → notes (for the nearest notes) and
 * term → folders (for the folder ranking), as typed arrays, and the top-k selection over scores.
 * They give the same numbers as a direct cosine (see each function), only without probing every
 * note's or folder's Map for every term.
 */
import type { Vec } from './vectors';
import type { Centroid, TermTable } from './centroid';

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
 * flat arrays indexed by the profiles' term numbers: term `id` has entries start[id] … start[id+1].
 * (A Map of two typed arrays per term cost a few hundred bytes a term: tens of MB at 50,000 notes;
 * a Map from term to row, ~30 bytes a term.)
 */
export interface CentroidPostings {
  start: Uint32Array;
  ids: Uint32Array;
  weights: Float64Array;
}

/** `terms`: how many term numbers the centroids' table has. */
export function buildCentroidPostings(folders: ReadonlyArray<{ centroid: Centroid }>, terms: number): CentroidPostings {
  const counts = new Uint32Array(terms);
  for (const f of folders) {
    f.centroid.forEachId((id, x) => {
      if (x) counts[id] = (counts[id] ?? 0) + 1;
    });
  }
  const start = new Uint32Array(terms + 1);
  for (let r = 0; r < terms; r++) start[r + 1] = (start[r] ?? 0) + (counts[r] ?? 0);
  const ids = new Uint32Array(start[terms] ?? 0);
  const weights = new Float64Array(ids.length);
  const cursor = start.slice(0, terms);
  for (const [i, f] of folders.entries()) {
    f.centroid.forEachId((id, x) => {
      if (!x) return;
      const at = cursor[id] ?? 0;
      ids[at] = i;
      weights[at] = x;
      cursor[id] = at + 1;
    });
  }
  return { start, ids, weights };
}

/**
 * cosine(v, centroid) for every folder: one lookup per term of `v` instead of one per term and
 * folder (each centroid holds thousands of terms; probing 60 of them per item was most of
 * rankFolders' time). The sums add the same products in the same order as cosine() does when `v`
 * is the smaller vector; a centroid smaller than `v` is computed by its own cosine().
 */
export function centroidCosines(folders: ReadonlyArray<{ centroid: Centroid }>, postings: CentroidPostings, table: TermTable, v: Vec): number[] {
  const out = new Array<number>(folders.length).fill(0);
  const { start, ids, weights } = postings;
  const rows = start.length - 1;
  for (const [t, x] of v) {
    const r = table.idOf(t);
    if (r === undefined || r >= rows) continue;
    for (let j = start[r] ?? 0, end = start[r + 1] ?? 0; j < end; j++) {
      const i = ids[j] ?? 0;
      out[i] = (out[i] ?? 0) + x * (weights[j] ?? 0);
    }
  }
  for (const [i, f] of folders.entries()) if (f.centroid.size < v.size) out[i] = f.centroid.cosine(v);
  return out;
}
