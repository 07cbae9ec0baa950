/**
 * A folder's centroid in compact form: its terms as numbers of the profiles' term table, sorted,
 * with their weights in a parallel Float64Array, and the order the terms were first met (the
 * order a Map would keep them in). A `Map<string, number>` per folder cost ~40 bytes an entry
 * (hash table slot and a boxed double); this is 16. Every read gives the number the Map gave:
 * `cosine` adds the same products in the same order as vectors.ts' cosine(v, map).
 */
import type { Vec } from './vectors';

/** Term ↔ number for one build of the profiles (ids are dense from 0). */
export interface TermTable {
  /** The term's number, or undefined when the table does not hold it. */
  idOf(term: string): number | undefined;
  termOf(id: number): string;
}

export class Centroid {
  /** Term numbers ascending, and their weights. */
  private readonly ids: Int32Array;
  private readonly weights: Float64Array;
  /** Positions (into ids/weights) in first-met order. */
  private readonly order: Int32Array;

  /** `ids` and `weights` in first-met order (each id once). */
  constructor(
    private readonly table: TermTable,
    ids: ArrayLike<number>,
    weights: ArrayLike<number>,
  ) {
    const n = ids.length;
    // Sorted by term number through one numeric sort of (number × 2^21 + position): exact in a
    // double for term numbers below 2^31 and up to 2^21 terms per centroid.
    // (Bigger than that: the shift grows, still exact while number × shift stays below 2^53.)
    const SHIFT = 2 ** Math.max(21, Math.ceil(Math.log2(n + 1)));
    const keyed = new Float64Array(n);
    for (let k = 0; k < n; k++) keyed[k] = (ids[k] ?? 0) * SHIFT + k;
    keyed.sort();
    this.ids = new Int32Array(n);
    this.weights = new Float64Array(n);
    this.order = new Int32Array(n);
    for (let s = 0; s < n; s++) {
      const k = (keyed[s] ?? 0) % SHIFT;
      this.ids[s] = ids[k] ?? 0;
      this.weights[s] = weights[k] ?? 0;
      this.order[k] = s;
    }
  }

  get size(): number {
    return this.ids.length;
  }

  /** Position of term number `id`, or -1. */
  private find(id: number): number {
    let lo = 0;
    let hi = this.ids.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >>> 1;
      const x = this.ids[mid] ?? 0;
      if (x === id) return mid;
      if (x < id) lo = mid + 1;
      else hi = mid - 1;
    }
    return -1;
  }

  has(term: string): boolean {
    const id = this.table.idOf(term);
    return id !== undefined && this.find(id) >= 0;
  }

  /** The term's weight, or undefined when the centroid does not hold it (as Map.get). */
  get(term: string): number | undefined {
    const id = this.table.idOf(term);
    const at = id === undefined ? -1 : this.find(id);
    return at < 0 ? undefined : this.weights[at];
  }

  /** [term, weight] in first-met order. */
  *entries(): IterableIterator<[string, number]> {
    for (let k = 0; k < this.order.length; k++) {
      const at = this.order[k] ?? 0;
      yield [this.table.termOf(this.ids[at] ?? 0), this.weights[at] ?? 0];
    }
  }

  [Symbol.iterator](): IterableIterator<[string, number]> {
    return this.entries();
  }

  /** The terms in first-met order. */
  *keys(): IterableIterator<string> {
    for (const [t] of this.entries()) yield t;
  }

  /** Term numbers with their weights, ascending by number (for the term → folders index). */
  forEachId(fn: (id: number, weight: number) => void): void {
    for (let s = 0; s < this.ids.length; s++) fn(this.ids[s] ?? 0, this.weights[s] ?? 0);
  }

  /**
   * cosine(v, this) exactly as vectors.ts' cosine(v, map) gives it: over the smaller of the two
   * (v when sizes are equal), in that one's order, skipping terms the other lacks or weighs 0.
   */
  cosine(v: Vec): number {
    let s = 0;
    if (v.size <= this.ids.length) {
      for (const [t, x] of v) {
        const y = this.get(t);
        if (y) s += x * y;
      }
      return s;
    }
    for (let k = 0; k < this.order.length; k++) {
      const at = this.order[k] ?? 0;
      const x = this.weights[at] ?? 0;
      const y = v.get(this.table.termOf(this.ids[at] ?? 0));
      if (y) s += x * y;
    }
    return s;
  }
}
