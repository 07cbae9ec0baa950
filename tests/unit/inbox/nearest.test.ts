/**
 * The nearest-notes ranking keeps the k best by score, ties to the earlier note, exactly as a
 * full sort of every candidate would.
 */
import { describe, expect, it } from 'vitest';
import { topK } from '../../../electron/core/domains/inbox/profile-index';

function fullSort(ids: number[], score: number[], k: number): Array<[number, number]> {
  return ids
    .map((i) => [i, score[i] ?? 0] as [number, number])
    .sort((a, b) => b[1] - a[1] || a[0] - b[0])
    .slice(0, k);
}

describe('topK', () => {
  it('equals a full sort, ties and all, for any k', () => {
    let seed = 3;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31);
    for (let round = 0; round < 200; round++) {
      const n = 1 + Math.floor(rnd() * 300);
      // Few distinct values, so ties are common.
      const score = Array.from({ length: n }, () => Math.floor(rnd() * 8) / 8);
      const ids = Array.from({ length: n }, (_, i) => i).filter(() => rnd() < 0.7);
      for (let j = ids.length - 1; j > 0; j--) {
        const r = Math.floor(rnd() * (j + 1));
        [ids[j], ids[r]] = [ids[r]!, ids[j]!];
      }
      const k = Math.floor(rnd() * 20);
      expect(topK(ids, score, k)).toEqual(fullSort(ids, score, k));
    }
  });

  it('returns nothing for k = 0 or no candidates', () => {
    expect(topK([1, 2], [0, 1, 2], 0)).toEqual([]);
    expect(topK([], [], 5)).toEqual([]);
  });
});
