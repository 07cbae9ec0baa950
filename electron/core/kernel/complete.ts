/**
 * Completion matching shared by domains' completion sources: ids that start with what was typed
 * come first, then ids whose label (name, address) contains it; case-insensitive, at most `max`.
 */
export function completeFrom(items: Array<{ id: string; labels?: Array<string | null | undefined> }>, typed: string, max = 100): string[] {
  const q = typed.trim().toLowerCase();
  const starts: string[] = [];
  const contains: string[] = [];
  for (const it of items) {
    const id = it.id.toLowerCase();
    if (id.startsWith(q)) starts.push(it.id);
    else if (q && (id.includes(q) || (it.labels ?? []).some((l) => l && l.toLowerCase().includes(q)))) contains.push(it.id);
  }
  return [...starts, ...contains].slice(0, max);
}
