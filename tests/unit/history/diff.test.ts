import { describe, expect, it } from 'vitest';
import { isBinary, unifiedDiff } from '../../../electron/core/domains/history/diff';

describe('unifiedDiff', () => {
  it('prints hunks with 3 lines of context, deletions before additions', () => {
    const before = 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj\n';
    const after = 'a\nb\nC\nd\ne\nf\ng\nh\ni\nj\nk\n';
    expect(unifiedDiff(before, after, { from: 'a/x.md', to: 'b/x.md' }).diff).toBe(
      '--- a/x.md\n+++ b/x.md\n@@ -1,6 +1,6 @@\n a\n b\n-c\n+C\n d\n e\n f\n@@ -8,3 +8,4 @@\n h\n i\n j\n+k\n',
    );
  });

  it('new and removed files, equal text, cut output, binary bytes', () => {
    expect(unifiedDiff('', 'one\ntwo\n').diff).toBe('--- a\n+++ b\n@@ -0,0 +1,2 @@\n+one\n+two\n');
    expect(unifiedDiff('gone\n', '').diff).toBe('--- a\n+++ b\n@@ -1,1 +0,0 @@\n-gone\n');
    expect(unifiedDiff('same\n', 'same\n')).toEqual({ diff: null, truncated: false });
    const big = unifiedDiff('', Array.from({ length: 5000 }, (_, i) => `line ${i}`).join('\n'), { maxChars: 1000 });
    expect(big.truncated).toBe(true);
    expect(big.diff!.length).toBeLessThan(1100);
    expect(isBinary(new Uint8Array([0x89, 0x50, 0, 1]))).toBe(true);
    expect(isBinary(Buffer.from('text'))).toBe(false);
  });
});
