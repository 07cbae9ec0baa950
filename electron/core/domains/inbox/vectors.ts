/** Sparse term vectors (term → weight) and the two operations every comparison uses. */
export type Vec = Map<string, number>;

export function normalize(v: Vec): Vec {
  let s = 0;
  for (const x of v.values()) s += x * x;
  const n = Math.sqrt(s);
  if (n > 0) for (const [k, x] of v) v.set(k, x / n);
  return v;
}

/** Cosine of two L2-normalised vectors. */
export function cosine(a: Vec, b: Vec): number {
  const [small, big] = a.size <= b.size ? [a, b] : [b, a];
  let s = 0;
  for (const [k, x] of small) {
    const y = big.get(k);
    if (y) s += x * y;
  }
  return s;
}
