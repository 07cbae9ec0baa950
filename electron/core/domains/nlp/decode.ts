/**
 * BIO decoding: constrained Viterbi over per-token log-probabilities (an I-X may only follow
 * B-X or I-X), then character spans with a score (geometric mean of the chosen labels' probs).
 */
import type { EntitySpan, EntityType } from './contract';
import type { Token } from './tokenize';
import { present } from '../../kernel/errors';

export function allowedTransition(prev: string | undefined, next: string): boolean {
  if (!next.startsWith('I-')) return true;
  if (!prev || prev === 'O') return false;
  return prev.slice(2) === next.slice(2);
}

export interface Transitions {
  /** log P(next | prev), [prev][next]. */
  matrix?: readonly (readonly number[])[];
  start?: readonly number[];
}

/** Best label sequence; `logProbs` is row-major [tokens × labels]; transitions add label-bigram evidence. */
export function viterbi(logProbs: Float32Array | number[], nTokens: number, labels: readonly string[], trans: Transitions = {}): number[] {
  const L = labels.length;
  if (nTokens === 0) return [];
  const allowed: boolean[][] = labels.map((p) => labels.map((n) => allowedTransition(p, n)));
  let score = new Float64Array(L);
  const back: Int32Array[] = [];
  // Numeric reads use `?? NaN`: exactly what an out-of-range read did in the arithmetic before.
  for (const [j, label] of labels.entries()) score[j] = allowedTransition(undefined, label) ? (logProbs[j] ?? NaN) + (trans.start?.[j] ?? 0) : -Infinity;
  for (let t = 1; t < nTokens; t++) {
    const next = new Float64Array(L);
    const bp = new Int32Array(L);
    for (let j = 0; j < L; j++) {
      let best = -Infinity;
      let arg = 0;
      for (let i = 0; i < L; i++) {
        if (!allowed[i]?.[j]) continue;
        const s = (score[i] ?? NaN) + (trans.matrix ? (trans.matrix[i]?.[j] ?? NaN) : 0);
        if (s > best) {
          best = s;
          arg = i;
        }
      }
      next[j] = best + (logProbs[t * L + j] ?? NaN);
      bp[j] = arg;
    }
    back.push(bp);
    score = next;
  }
  let last = 0;
  for (let j = 1; j < L; j++) if ((score[j] ?? NaN) > (score[last] ?? NaN)) last = j;
  const path = new Array<number>(nTokens);
  path[nTokens - 1] = last;
  for (let t = nTokens - 1; t > 0; t--) path[t - 1] = present(back[t - 1]?.[path[t] ?? NaN], 'a Viterbi back-pointer');
  return path;
}

export function spansFromPath(text: string, tokens: readonly Token[], path: readonly number[], labels: readonly string[], logProbs: Float32Array | number[]): EntitySpan[] {
  const L = labels.length;
  const out: EntitySpan[] = [];
  let cur: { type: EntityType; from: number; to: number; lp: number } | undefined;
  const flush = () => {
    if (!cur) return;
    // A span neither begins nor ends with a punctuation or emoji token ("1 April —", "Sunday."): those stay outside.
    // (A period right after the second number of a day-first date is the date's own: "03.04."; after
    // a lone number it ends the sentence: "in 2019.")
    const bare = (i: number) => !/[\p{L}\p{N}]/u.test(tokens[i]?.text ?? '') && !(tokens[i]?.text === '.' && /\d$/.test(tokens[i - 1]?.text ?? '') && tokens[i - 1]?.end === tokens[i]?.start && (/\d\.\d+$/.test(tokens[i - 1]?.text ?? '') || tokens[i - 2]?.text === '.'));
    while (cur.to > cur.from && bare(cur.to)) cur.to--;
    while (cur.from < cur.to && bare(cur.from)) cur.from++;
    const start = present(tokens[cur.from], 'the first token of a span').start;
    const end = present(tokens[cur.to], 'the last token of a span').end;
    // Emoji and punctuation are never names, whatever a token classifier says.
    if (!/[\p{L}\p{N}]/u.test(text.slice(start, end))) {
      cur = undefined;
      return;
    }
    const n = cur.to - cur.from + 1;
    out.push({ text: text.slice(start, end), type: cur.type, start, end, score: Math.round(Math.exp(cur.lp / n) * 1000) / 1000 });
    cur = undefined;
  };
  path.forEach((j, t) => {
    const label = present(labels[j], 'the label of a decoded index');
    const lp = logProbs[t * L + j] ?? NaN;
    if (label.startsWith('B-')) {
      flush();
      cur = { type: label.slice(2) as EntityType, from: t, to: t, lp };
    } else if (label.startsWith('I-') && cur) {
      cur.to = t;
      cur.lp += lp;
    } else flush();
  });
  flush();
  return out;
}
