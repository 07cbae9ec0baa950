import type { MatchRange } from '../../../shared/contract/vault';

/** Text with the server's match ranges as <mark> — React text nodes only, never HTML. */
export function Highlight({ text, ranges }: { text: string; ranges: MatchRange[] }) {
  const parts: Array<string | { mark: string }> = [];
  let at = 0;
  for (const [s, e] of [...ranges].sort((a, b) => a[0] - b[0])) {
    if (s < at || e > text.length || e <= s) continue;
    if (s > at) parts.push(text.slice(at, s));
    parts.push({ mark: text.slice(s, e) });
    at = e;
  }
  if (at < text.length) parts.push(text.slice(at));
  return <>{parts.map((p, i) => (typeof p === 'string' ? <span key={i}>{p}</span> : <mark key={i}>{p.mark}</mark>))}</>;
}
