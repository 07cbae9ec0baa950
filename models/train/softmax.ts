/**
 * Multi-head sparse softmax regression trained with AdaGrad, in plain TypeScript. Each
 * example is a bag of hashed feature rows; each head is a slice of the output columns with its
 * own softmax and its own (optional) target. Deterministic given the seed: a seeded shuffle,
 * zero init, and a fixed order of floating-point operations.
 */
import type { Rng } from './prng';

export interface Head {
  name: string;
  offset: number;
  size: number;
  /** Loss weight of this head. */
  weight: number;
}

export interface SparseExample {
  features: Int32Array;
  /** One target class per head (index within the head), or -1 when the head has no label. */
  targets: number[];
}

export interface TrainOptions {
  buckets: number;
  heads: Head[];
  epochs: number;
  lr: number;
  l2: number;
  rng: Rng;
  log?: (msg: string) => void;
}

export interface LinearModel {
  buckets: number;
  classes: number;
  /** Row-major [buckets × classes]; row 0 stays zero (padding). */
  W: Float64Array;
  b: Float64Array;
}

export function logits(m: LinearModel, features: Int32Array, out = new Float64Array(m.classes)): Float64Array {
  out.set(m.b);
  const C = m.classes;
  for (let k = 0; k < features.length; k++) {
    const row = features[k] * C;
    for (let c = 0; c < C; c++) out[c] += m.W[row + c];
  }
  return out;
}

export function softmaxSlice(z: Float64Array | number[], offset: number, size: number, temperature = 1): number[] {
  let max = -Infinity;
  for (let j = 0; j < size; j++) max = Math.max(max, z[offset + j] / temperature);
  const e: number[] = [];
  let sum = 0;
  for (let j = 0; j < size; j++) {
    const v = Math.exp(z[offset + j] / temperature - max);
    e.push(v);
    sum += v;
  }
  return e.map((v) => v / sum);
}

export function trainSoftmax(data: readonly SparseExample[], opts: TrainOptions): LinearModel {
  const C = opts.heads.reduce((n, h) => Math.max(n, h.offset + h.size), 0);
  const m: LinearModel = { buckets: opts.buckets, classes: C, W: new Float64Array(opts.buckets * C), b: new Float64Array(C) };
  const G = new Float64Array(opts.buckets * C).fill(1e-8);
  const Gb = new Float64Array(C).fill(1e-8);
  const order = data.map((_, i) => i);
  const z = new Float64Array(C);
  const grad = new Float64Array(C);
  for (let epoch = 0; epoch < opts.epochs; epoch++) {
    opts.rng.shuffle(order);
    let loss = 0;
    for (const idx of order) {
      const ex = data[idx];
      logits(m, ex.features, z);
      grad.fill(0);
      for (let h = 0; h < opts.heads.length; h++) {
        const head = opts.heads[h];
        const y = ex.targets[h];
        if (y < 0) continue;
        const p = softmaxSlice(z, head.offset, head.size);
        loss -= head.weight * Math.log(Math.max(p[y], 1e-12));
        for (let j = 0; j < head.size; j++) grad[head.offset + j] = head.weight * (p[j] - (j === y ? 1 : 0));
      }
      for (let c = 0; c < C; c++) {
        const g = grad[c];
        if (g === 0) continue;
        Gb[c] += g * g;
        m.b[c] -= (opts.lr * g) / Math.sqrt(Gb[c]);
      }
      for (let k = 0; k < ex.features.length; k++) {
        const row = ex.features[k] * C;
        for (let c = 0; c < C; c++) {
          const g = grad[c] + opts.l2 * m.W[row + c];
          if (g === 0) continue;
          G[row + c] += g * g;
          m.W[row + c] -= (opts.lr * g) / Math.sqrt(G[row + c]);
        }
      }
    }
    opts.log?.(`epoch ${epoch + 1}/${opts.epochs} loss ${(loss / data.length).toFixed(4)}`);
  }
  m.W.fill(0, 0, C); // padding row
  return m;
}

/** Temperature that minimises the negative log-likelihood of a head on a dev set (grid search). */
export function fitTemperature(m: LinearModel, dev: readonly SparseExample[], head: Head, headIndex: number): number {
  const zs = dev.filter((e) => e.targets[headIndex] >= 0).map((e) => ({ z: logits(m, e.features), y: e.targets[headIndex] }));
  if (zs.length === 0) return 1;
  let best = 1;
  let bestNll = Infinity;
  for (let t = 0.25; t <= 5.0001; t += 0.05) {
    let nll = 0;
    for (const { z, y } of zs) nll -= Math.log(Math.max(softmaxSlice(z, head.offset, head.size, t)[y], 1e-12));
    if (nll < bestNll) {
      bestNll = nll;
      best = Math.round(t * 100) / 100;
    }
  }
  return best;
}
