/**
 * Snippets cut in JavaScript for the page of results a search returns (FTS5's snippet() re-reads
 * the whole doclist of a frequent word for every hit; the vault's FTS table keeps no text at all).
 */
// eslint-disable-next-line no-control-regex
const ASCII = /^[\x00-\x7f]*$/;
const fold = (s: string) => (ASCII.test(s) ? s.toLowerCase() : s.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase());

/**
 * A short excerpt of `text` around the first place the query's words occur, matches in
 * `**bold**`, `…` where text was cut: what FTS5's snippet() gives, computed for the returned
 * page only (the FTS table is contentless).
 */
export function makeSnippet(text: string, parts: string[], tokens = 12, marks: [string, string] = ['**', '**'], ellipsis = '…'): string {
  const words: Array<{ w: string; prefix: boolean }> = [];
  for (const p of parts) {
    const prefix = p.endsWith('*');
    for (const w of p.replace(/\*$/, '').replace(/"/g, '').split(' ')) if (w) words.push({ w: fold(w), prefix });
  }
  const toks: Array<{ start: number; end: number; hit: boolean }> = [];
  let first = -1;
  for (const m of text.matchAll(/[\p{L}\p{N}]+/gu)) {
    const f = fold(m[0]);
    const hit = words.some((x) => (x.prefix ? f.startsWith(x.w) : f === x.w));
    toks.push({ start: m.index, end: m.index + m[0].length, hit });
    if (hit && first < 0) first = toks.length - 1;
    // Enough: the window after the first match, and one more token to know the text goes on.
    if (first >= 0 && toks.length > first + tokens) break;
  }
  if (!toks.length) return '';
  const from = first <= 2 ? 0 : Math.min(first - 2, Math.max(0, toks.length - tokens));
  const to = Math.min(toks.length, from + tokens);
  let out = '';
  let at = toks[from]?.start ?? 0;
  for (const t of toks.slice(from, to)) {
    out += text.slice(at, t.start) + (t.hit ? `${marks[0]}${text.slice(t.start, t.end)}${marks[1]}` : text.slice(t.start, t.end));
    at = t.end;
  }
  return (from > 0 ? ellipsis : '') + out.replace(/\s+/g, ' ') + (to < toks.length ? ellipsis : '');
}

