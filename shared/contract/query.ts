/** Schemas for query-string parameters (each a string on the wire), shared by the route table. */
import { z } from 'zod';

/**
 * A number in the query string, read leniently (the way the owner always has): missing, empty,
 * zero or not a number → `fallback`; then kept within [min, max].
 */
export function queryNumber(fallback: number, range: { min?: number; max?: number } = {}) {
  return z
    .string()
    .optional()
    .transform((v) => {
      const n = Number(v ?? fallback) || fallback;
      return Math.min(range.max ?? Infinity, Math.max(range.min ?? -Infinity, n));
    });
}

/** An optional text parameter: an empty value is the same as none. */
export const queryText = () =>
  z
    .string()
    .optional()
    .transform((v) => v || undefined);
