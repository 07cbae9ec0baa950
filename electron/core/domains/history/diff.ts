/**
 * A small line diff (LCS over the lines between the common prefix and suffix) printed as a
 * unified diff with 3 lines of context. Enough for notes; big inputs are cut, not slowed down.
 */

import { present } from '../../kernel/errors';

const MAX_CELLS = 4_000_000;

export function isBinary(b: Uint8Array | undefined): boolean {
  if (!b) return false;
  const n = Math.min(b.length, 8000);
  for (let i = 0; i < n; i++) if (b[i] === 0) return true;
  return false;
}

type Op = { t: ' ' | '-' | '+'; line: string };

function lines(s: string): string[] {
  if (s === '') return [];
  const out = s.split('\n');
  if (out[out.length - 1] === '') out.pop();
  return out;
}

function editScript(a: string[], b: string[]): Op[] | undefined {
  let pre = 0;
  while (pre < a.length && pre < b.length && a[pre] === b[pre]) pre++;
  let suf = 0;
  while (suf < a.length - pre && suf < b.length - pre && a[a.length - 1 - suf] === b[b.length - 1 - suf]) suf++;
  const A = a.slice(pre, a.length - suf);
  const B = b.slice(pre, b.length - suf);
  if ((A.length + 1) * (B.length + 1) > MAX_CELLS) return undefined;
  // lcs[i][j] = LCS length of A[i:], B[j:]
  const w = B.length + 1;
  const lcs = new Uint32Array((A.length + 1) * w);
  for (let i = A.length - 1; i >= 0; i--) {
    for (let j = B.length - 1; j >= 0; j--) {
      // In range: every cell read is below (A.length + 1) * w.
      lcs[i * w + j] = A[i] === B[j] ? (lcs[(i + 1) * w + j + 1] ?? 0) + 1 : Math.max(lcs[(i + 1) * w + j] ?? 0, lcs[i * w + j + 1] ?? 0);
    }
  }
  const ops: Op[] = a.slice(0, pre).map((line) => ({ t: ' ', line }));
  let i = 0;
  let j = 0;
  while (i < A.length || j < B.length) {
    const ai = A[i];
    const bj = B[j];
    if (ai !== undefined && bj !== undefined && ai === bj) {
      ops.push({ t: ' ', line: ai });
      i++;
      j++;
    } else if (ai !== undefined && (j === B.length || (lcs[(i + 1) * w + j] ?? 0) >= (lcs[i * w + j + 1] ?? 0))) {
      ops.push({ t: '-', line: ai });
      i++;
    } else {
      ops.push({ t: '+', line: present(bj, 'the next line of the new text') }); // the loop runs while a side has lines
      j++;
    }
  }
  for (const line of a.slice(a.length - suf)) ops.push({ t: ' ', line });
  return ops;
}

/**
 * `--- a/path` / `+++ b/path` and `@@` hunks. Returns null when both sides are equal; cuts the
 * text at `maxChars` (truncated: true).
 */
export function unifiedDiff(before: string, after: string, opts: { from?: string; to?: string; context?: number; maxChars?: number } = {}): { diff: string | null; truncated: boolean } {
  if (before === after) return { diff: null, truncated: false };
  const ctx = opts.context ?? 3;
  const max = opts.maxChars ?? 20_000;
  const a = lines(before);
  const b = lines(after);
  const ops = editScript(a, b);
  const head = `--- ${opts.from ?? 'a'}\n+++ ${opts.to ?? 'b'}\n`;
  if (!ops) return { diff: `${head}@@ file too large to diff (${a.length} → ${b.length} lines) @@\n`, truncated: true };
  const out: string[] = [];
  let k = 0;
  while (k < ops.length) {
    if (ops[k]?.t === ' ') {
      k++;
      continue;
    }
    // A hunk: back up `ctx` lines, run until `2*ctx` unchanged lines in a row.
    let start = Math.max(0, k - ctx);
    let end = k;
    let same = 0;
    while (end < ops.length && (ops[end]?.t !== ' ' || same < ctx * 2)) {
      same = ops[end]?.t === ' ' ? same + 1 : 0;
      end++;
    }
    end = Math.min(ops.length, end - Math.max(0, same - ctx));
    let aStart = 0;
    let bStart = 0;
    for (let x = 0; x < start; x++) {
      if (ops[x]?.t !== '+') aStart++;
      if (ops[x]?.t !== '-') bStart++;
    }
    const hunk = ops.slice(start, end);
    const aLen = hunk.filter((o) => o.t !== '+').length;
    const bLen = hunk.filter((o) => o.t !== '-').length;
    out.push(`@@ -${aLen ? aStart + 1 : aStart},${aLen} +${bLen ? bStart + 1 : bStart},${bLen} @@`);
    for (const o of hunk) out.push(o.t + o.line);
    k = end;
    start = end;
  }
  let diff = head + out.join('\n') + '\n';
  let truncated = false;
  if (diff.length > max) {
    diff = diff.slice(0, diff.lastIndexOf('\n', max) + 1) + '… (diff cut)\n';
    truncated = true;
  }
  return { diff, truncated };
}
