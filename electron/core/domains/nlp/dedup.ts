/**
 * Near-duplicate detection for memories: cosine similarity of word and character-trigram
 * counts. Cheap, deterministic, and robust to re-wording of the "I prefer TypeScript" /
 * "i prefer typescript!" kind; a paraphrase with new words is treated as new information.
 */
import { tokenize } from './tokenize';

export const DUPLICATE_THRESHOLD = 0.85;

function profile(text: string): Map<string, number> {
  const m = new Map<string, number>();
  const words = tokenize(text.toLowerCase()).map((t) => t.text).filter((w) => /[\p{L}\p{N}]/u.test(w));
  for (const w of words) {
    m.set(`w:${w}`, (m.get(`w:${w}`) ?? 0) + 1);
    const p = ` ${w} `;
    for (let i = 0; i + 3 <= p.length; i++) m.set(`c:${p.slice(i, i + 3)}`, (m.get(`c:${p.slice(i, i + 3)}`) ?? 0) + 0.5);
  }
  return m;
}

export function similarity(a: string, b: string): number {
  const pa = profile(a);
  const pb = profile(b);
  let dot = 0;
  let na = 0;
  let nb = 0;
  for (const [k, v] of pa) {
    na += v * v;
    const w = pb.get(k);
    if (w) dot += v * w;
  }
  for (const v of pb.values()) nb += v * v;
  return na && nb ? Math.round((dot / Math.sqrt(na * nb)) * 1000) / 1000 : 0;
}

export interface DuplicateCandidate {
  id: string;
  content: string;
}

export function findDuplicate<T extends DuplicateCandidate>(content: string, candidates: readonly T[], threshold = DUPLICATE_THRESHOLD): { match: T; similarity: number } | undefined {
  let best: { match: T; similarity: number } | undefined;
  for (const c of candidates) {
    const s = similarity(content, c.content);
    if (s >= threshold && (!best || s > best.similarity)) best = { match: c, similarity: s };
  }
  return best;
}
