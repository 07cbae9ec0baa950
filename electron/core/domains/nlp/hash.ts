/**
 * Feature hashing shared by training and inference. FNV-1a over UTF-16 code units: tiny,
 * fast, and identical in every JS engine, which is what keeps trained weights and runtime
 * features in step.
 */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193);
  }
  return h >>> 0;
}

/** Row 0 of every weight table is padding (always zero), so hashed features land in 1..buckets-1. */
export function bucketOf(feature: string, buckets: number): number {
  return 1 + (fnv1a(feature) % (buckets - 1));
}
