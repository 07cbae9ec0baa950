/** Classification and span metrics, rounded to 4 places so cards diff cleanly. */
export const r4 = (x: number) => Math.round(x * 10000) / 10000;

export interface Prf {
  precision: number;
  recall: number;
  f1: number;
  support: number;
}

export function prf(tp: number, fp: number, fn: number): Prf {
  const precision = tp + fp ? tp / (tp + fp) : 0;
  const recall = tp + fn ? tp / (tp + fn) : 0;
  const f1 = precision + recall ? (2 * precision * recall) / (precision + recall) : 0;
  return { precision: r4(precision), recall: r4(recall), f1: r4(f1), support: tp + fn };
}

export function classification(gold: readonly string[], pred: readonly string[], labels: readonly string[]) {
  const per: Record<string, Prf> = {};
  for (const l of labels) {
    let tp = 0;
    let fp = 0;
    let fn = 0;
    gold.forEach((g, i) => {
      if (pred[i] === l && g === l) tp++;
      else if (pred[i] === l) fp++;
      else if (g === l) fn++;
    });
    per[l] = prf(tp, fp, fn);
  }
  const present = labels.filter((l) => per[l].support > 0);
  const accuracy = gold.filter((g, i) => g === pred[i]).length / Math.max(1, gold.length);
  const macroF1 = present.reduce((s, l) => s + per[l].f1, 0) / Math.max(1, present.length);
  return { accuracy: r4(accuracy), macro_f1: r4(macroF1), per_class: per };
}

/** Expected calibration error over 10 equal-width confidence bins. */
export function ece(confidence: readonly number[], correct: readonly boolean[], bins = 10): number {
  let total = 0;
  for (let b = 0; b < bins; b++) {
    const idx = confidence.map((c, i) => i).filter((i) => confidence[i] > b / bins && confidence[i] <= (b + 1) / bins);
    if (!idx.length) continue;
    const acc = idx.filter((i) => correct[i]).length / idx.length;
    const conf = idx.reduce((s, i) => s + confidence[i], 0) / idx.length;
    total += (idx.length / confidence.length) * Math.abs(acc - conf);
  }
  return r4(total);
}

export interface SpanLike {
  start: number;
  end: number;
  type: string;
}

/** Exact-match span P/R/F1 per type and micro-averaged overall. */
export function spanMetrics(gold: readonly SpanLike[][], pred: readonly SpanLike[][], types: readonly string[]) {
  const key = (s: SpanLike) => `${s.start}:${s.end}:${s.type}`;
  const counts: Record<string, { tp: number; fp: number; fn: number }> = {};
  for (const t of types) counts[t] = { tp: 0, fp: 0, fn: 0 };
  gold.forEach((g, i) => {
    const gk = new Set(g.map(key));
    const pk = new Set(pred[i].map(key));
    for (const s of pred[i]) {
      if (!counts[s.type]) continue;
      if (gk.has(key(s))) counts[s.type].tp++;
      else counts[s.type].fp++;
    }
    for (const s of g) if (!pk.has(key(s))) counts[s.type].fn++;
  });
  const per: Record<string, Prf> = {};
  let tp = 0;
  let fp = 0;
  let fn = 0;
  for (const t of types) {
    per[t] = prf(counts[t].tp, counts[t].fp, counts[t].fn);
    tp += counts[t].tp;
    fp += counts[t].fp;
    fn += counts[t].fn;
  }
  return { overall: prf(tp, fp, fn), per_type: per };
}
