/** Small text helpers shared by analysis, capture and execution. */

export function slugify(s: string, max = 60): string {
  const slug = s
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['’]/g, '')
    .replace(/[^\p{L}\p{N}]+/gu, '-')
    .replace(/^-+|-+$/g, '');
  return (slug.slice(0, max).replace(/-+$/, '') || 'note');
}

const STOP = new Set(
  'the a an and or but if then than so of to in on at by for with from about into over after before this that these those it its is are was were be been being have has had do does did will would can could should may might must i me my we our you your he him his she her they them their not no yes just also very really more most some any all each every what when where who why how which there here as up out down off again new one two get got make made like need needs want wants let lets via per am pm re fwd'.split(' '),
);

export const isStopword = (w: string) => STOP.has(w);

/** Content words, lowercased (for keyword queries and shingles). */
export function contentWords(text: string): string[] {
  return (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []).filter((w) => w.length > 1 && !STOP.has(w));
}

/** Plain text of markdown (no syntax), whitespace collapsed. */
export function plain(md: string): string {
  return md
    .replace(/```[\s\S]*?```/g, ' ')
    .replace(/!?\[\[([^\]|]+)(?:\|([^\]]+))?\]\]/g, (_m, a: string, b?: string) => b ?? a)
    .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/^#{1,6}\s+/gm, '')
    .replace(/[*_`>~|]+/g, ' ')
    .replace(/^\s*[-+]\s+(\[[ x]\]\s+)?/gm, '')
    .replace(/\s+/g, ' ')
    .trim();
}

export function clip(s: string, n: number): string {
  return s.length <= n ? s : s.slice(0, n - 1).replace(/\s+\S*$/, '') + '…';
}

/** Word 3-gram shingles (hashed to strings) for near-duplicate detection. */
export function shingles(text: string, k = 3): Set<string> {
  const w = (text.toLowerCase().match(/[\p{L}\p{N}]+/gu) ?? []);
  const out = new Set<string>();
  if (w.length < k) {
    if (w.length) out.add(w.join(' '));
    return out;
  }
  for (let i = 0; i + k <= w.length; i++) out.add(w.slice(i, i + k).join(' '));
  return out;
}

/** |A∩B| / |A|: how much of A is contained in B. */
export function containment(a: Set<string>, b: Set<string>): number {
  if (!a.size) return 0;
  let n = 0;
  for (const x of a) if (b.has(x)) n++;
  return n / a.size;
}

/** Rough token count of a JSON payload (~4 characters per token, as tokenizers average on JSON). */
export const approxTokens = (v: unknown) => Math.ceil(JSON.stringify(v).length / 4);
