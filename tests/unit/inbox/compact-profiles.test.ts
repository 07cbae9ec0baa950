/**
 * The compact forms the folder profiles keep give the numbers the Maps they replaced gave: a
 * centroid's cosine, look-ups and order (centroid.ts) against vectors.ts' cosine over a Map, and
 * the notes' shared term arrays (note-terms.ts) against each note's own lists through changes,
 * removals, compaction and trimming.
 */
import { describe, expect, it } from 'vitest';
import { Centroid, type TermTable } from '../../../electron/core/domains/inbox/centroid';
import { countAt, idAt, NoteTermStore, type NoteTerms } from '../../../electron/core/domains/inbox/note-terms';
import { cosine, normalize, type Vec } from '../../../electron/core/domains/inbox/vectors';

let seed = 7;
const rnd = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
const words = Array.from({ length: 400 }, (_, i) => `t${i}`);
const table: TermTable = { idOf: (t) => (/^t\d+$/.test(t) ? Number(t.slice(1)) : undefined), termOf: (id) => words[id] ?? '' };

/** A normalised vector of `n` distinct random terms, in random (first-met) order. */
function randomVec(n: number): Vec {
  const v: Vec = new Map();
  while (v.size < n) v.set(words[Math.floor(rnd() * words.length)]!, rnd() < 0.05 ? 0 : rnd());
  return normalize(v);
}

describe('Centroid', () => {
  it('gives exactly the cosine, weights and order of the Map it was made from', () => {
    for (let round = 0; round < 300; round++) {
      const m = randomVec(1 + Math.floor(rnd() * 120));
      const c = new Centroid(table, [...m.keys()].map((t) => table.idOf(t)!), [...m.values()]);
      expect([...c]).toEqual([...m]);
      expect([...c.keys()]).toEqual([...m.keys()]);
      expect(c.size).toBe(m.size);
      // Smaller, equal and larger item vectors: each side of cosine()'s choice of the loop.
      for (const n of [1, Math.max(1, m.size - 1), m.size, m.size + 1, 200]) {
        const v = randomVec(Math.min(n, 300));
        expect(c.cosine(v)).toBe(cosine(v, m));
      }
      for (const t of words.slice(0, 60)) {
        expect(c.get(t)).toBe(m.get(t));
        expect(c.has(t)).toBe(m.has(t));
      }
      expect(c.has('not-a-term')).toBe(false);
    }
  });
});

describe('NoteTermStore', () => {
  it("keeps every note's terms and counts through changes, removals, compaction and trimming", () => {
    const store = new NoteTermStore();
    const ref = new Map<string, { ids: number[]; counts: number[] }>();
    const runs = (c: NoteTerms) => ({ ids: Array.from({ length: c.len }, (_, j) => idAt(c, j)), counts: Array.from({ length: c.len }, (_, j) => countAt(c, j)) });
    const older: Array<[NoteTerms, { ids: number[]; counts: number[] }]> = [];
    for (let round = 0; round < 3000; round++) {
      const path = `n${Math.floor(rnd() * 200)}.md`;
      if (rnd() < 0.15) {
        store.delete(path);
        ref.delete(path);
      } else {
        const len = Math.floor(rnd() * 90);
        const ids = Array.from({ length: len }, () => Math.floor(rnd() * 100_000));
        // Mostly 1s and 2s; now and then a count that needs more than 16 bits or is not whole.
        const counts = ids.map(() => (rnd() < 0.01 ? 70_000 : rnd() < 0.01 ? 1.5 : 1 + Math.floor(rnd() * 2)));
        const c = store.set(path, `h${round}`, rnd() < 0.1, ids, counts);
        ref.set(path, { ids, counts });
        // A reader that was handed a note's run keeps reading the same numbers after it changed.
        if (round % 97 === 0) older.push([c, { ids, counts }]);
      }
      if (round % 250 === 0) store.compactIfWasteful();
      if (round % 400 === 0) store.trim();
    }
    expect([...store.notes.keys()].sort()).toEqual([...ref.keys()].sort());
    for (const [path, c] of store.notes) expect(runs(c)).toEqual(ref.get(path));
    for (const [c, want] of older) expect(runs(c)).toEqual(want);
  });
});
