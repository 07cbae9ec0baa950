/**
 * The indexes behind the folder profiles' comparisons: term → notes (for the nearest notes) and
 * term → folders (for the folder ranking), as typed arrays, and the top-k selection over scores.
 * They give the same numbers as a direct cosine (see each function), only without probing every
 * note's or folder's Map for every term.
 */
import { cosine, type Vec } from './vectors';

/** One term's notes (row numbers, ascending) and their weights in those notes' vectors. */
export interface Postings {
  ids: Uint32Array;
  weights: Float64Array;
}

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

/** Term → the folders whose centroid has it (folder numbers ascending) and its weight there. */
export function buildCentroidPostings(folders: ReadonlyArray<{ centroid: Vec }>): Map<string, Postings> {
  const lists = new Map<string, { ids: number[]; weights: number[] }>();
  for (const [i, f] of folders.entries()) {
    for (const [t, x] of f.centroid) {
      if (!x) continue;
      let list = lists.get(t);
      if (!list) lists.set(t, (list = { ids: [], weights: [] }));
      list.ids.push(i);
      list.weights.push(x);
    }
  }
  const out = new Map<string, Postings>();
  for (const [t, l] of lists) out.set(t, { ids: Uint32Array.from(l.ids), weights: Float64Array.from(l.weights) });
  return out;
}

/**
 * cosine(v, centroid) for every folder: one lookup per term of `v` instead of one per term and
 * folder (each centroid holds thousands of terms; probing 60 of them per item was most of
 * rankFolders' time). The sums add the same products in the same order as cosine() does when `v`
 * is the smaller vector; a centroid smaller than `v` is computed by cosine() itself.
 */
export function centroidCosines(folders: ReadonlyArray<{ centroid: Vec }>, postings: Map<string, Postings>, v: Vec): number[] {
  const out = new Array<number>(folders.length).fill(0);
  for (const [t, x] of v) {
    const list = postings.get(t);
    if (!list) continue;
    for (let j = 0; j < list.ids.length; j++) {
      const i = list.ids[j] ?? 0;
      out[i] = (out[i] ?? 0) + x * (list.weights[j] ?? 0);
    }
  }
  for (const [i, f] of folders.entries()) if (f.centroid.size < v.size) out[i] = cosine(v, f.centroid);
  return out;
}
