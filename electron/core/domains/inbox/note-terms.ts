/**
 * Every profiled note's term frequencies, in two shared arrays: a note is a run of term numbers
 * (in the order its terms were first met) and their counts (whole numbers: 1 a word, 2 in a title
 * or tag). Two typed arrays per note cost ~370 bytes each beyond their data at 50,000 notes (the
 * array objects, their buffers and the buffers' native records); a run costs a small object.
 * A changed note's run is appended and its old run left dead until there is as much dead as
 * live, when the live runs are copied into fresh arrays (new records: an older reader keeps the
 * arrays it was given).
 */

/** The shared arrays (replaced as they grow; every live run's `pool` is moved along). */
export interface TermPool {
  ids: Uint32Array;
  counts: Uint16Array;
}

export interface NoteTerms {
  hash: string;
  /** A note about one person (see profiles.ts' personNote). */
  person: boolean;
  pool: TermPool;
  at: number;
  len: number;
  /** Counts that do not fit 16 bits (or are not whole): kept here, not in the pool. */
  wide?: Float64Array;
}

/** The j-th count of a note's run. */
export function countAt(c: NoteTerms, j: number): number {
  return c.wide ? (c.wide[j] ?? 1) : (c.pool.counts[c.at + j] ?? 1);
}

/** The j-th term number of a note's run. */
export function idAt(c: NoteTerms, j: number): number {
  return c.pool.ids[c.at + j] ?? 0;
}

export class NoteTermStore {
  readonly notes = new Map<string, NoteTerms>();
  private pool: TermPool = { ids: new Uint32Array(1024), counts: new Uint16Array(1024) };
  private used = 0;
  private live = 0;

  /** Stores a note's run (replacing the one it had). */
  set(path: string, hash: string, person: boolean, ids: ArrayLike<number>, counts: ArrayLike<number>): NoteTerms {
    this.delete(path);
    const len = ids.length;
    let narrow = true;
    for (let j = 0; j < len; j++) {
      const c = counts[j] ?? 1;
      if (!(Number.isInteger(c) && c >= 0 && c <= 0xffff)) narrow = false;
    }
    this.reserve(len);
    const at = this.used;
    const { ids: pi, counts: pc } = this.pool;
    for (let j = 0; j < len; j++) {
      pi[at + j] = ids[j] ?? 0;
      if (narrow) pc[at + j] = counts[j] ?? 1;
    }
    this.used += len;
    this.live += len;
    const c: NoteTerms = { hash, person, pool: this.pool, at, len };
    if (!narrow) c.wide = Float64Array.from({ length: len }, (_, j) => counts[j] ?? 1);
    this.notes.set(path, c);
    return c;
  }

  delete(path: string): void {
    const had = this.notes.get(path);
    if (!had) return;
    this.live -= had.len;
    this.notes.delete(path);
  }

  /** Copies the live runs into fresh arrays when at least half of what is held is dead. */
  compactIfWasteful(): void {
    if (this.used - this.live <= Math.max(this.live, 4096)) return;
    const pool: TermPool = { ids: new Uint32Array(Math.max(1024, Math.ceil(this.live * 1.125))), counts: new Uint16Array(Math.max(1024, Math.ceil(this.live * 1.125))) };
    let at = 0;
    for (const [path, c] of this.notes) {
      pool.ids.set(c.pool.ids.subarray(c.at, c.at + c.len), at);
      pool.counts.set(c.pool.counts.subarray(c.at, c.at + c.len), at);
      this.notes.set(path, { ...c, pool, at });
      at += c.len;
    }
    this.pool = pool;
    this.used = at;
  }

  /** Gives back spare room at the end (growth leaves up to a third spare; the next change grows it again). */
  trim(): void {
    const want = Math.max(1024, this.used);
    if (this.pool.ids.length > want * 1.01) this.resize(want);
  }

  private reserve(n: number): void {
    if (this.used + n <= this.pool.ids.length) return;
    this.resize(Math.max(this.used + n, Math.ceil(this.pool.ids.length * 1.5)));
  }

  /** New arrays of `size` with the same content at the same offsets; live runs move along. */
  private resize(size: number): void {
    const old = this.pool;
    const pool: TermPool = { ids: new Uint32Array(size), counts: new Uint16Array(size) };
    pool.ids.set(old.ids.subarray(0, this.used));
    pool.counts.set(old.counts.subarray(0, this.used));
    for (const c of this.notes.values()) if (c.pool === old) c.pool = pool;
    this.pool = pool;
  }
}
