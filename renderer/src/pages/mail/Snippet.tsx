/**
 * A search snippet with its matches highlighted. The search API (and the search_inbox contract)
 * mark matches as `[term]`; here they become <mark>, never raw brackets.
 */
export function snippetParts(snippet: string): Array<{ text: string; mark: boolean }> {
  const out: Array<{ text: string; mark: boolean }> = [];
  const re = /\[([^[\]\n]{1,200})\]/g;
  let at = 0;
  for (let m = re.exec(snippet); m; m = re.exec(snippet)) {
    if (m.index > at) out.push({ text: snippet.slice(at, m.index), mark: false });
    out.push({ text: m[1] ?? '', mark: true });
    at = m.index + m[0].length;
  }
  if (at < snippet.length) out.push({ text: snippet.slice(at), mark: false });
  return out;
}

export function Snippet({ text }: { text: string }) {
  return (
    <span className="muted mail-snippet" data-testid="mail-snippet">
      {snippetParts(text).map((p, i) => (p.mark ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>))}
    </span>
  );
}
