/**
 * Analyses of inbox items, kept while nothing they depend on has changed: the item's bytes and
 * a key for everything else (the vault index's generation, the rules, what was learnt from
 * review, the day). The automatic analysis of new items and inbox_analyze share it, and a
 * request for an item whose analysis is under way waits for that one instead of starting another.
 * Only the unplaced analysis is kept (see placeItem): where a move lands depends on the run.
 */
import type { AnalysisDetail } from './analyze';

interface Entry {
  key: string;
  detail: Promise<AnalysisDetail>;
}

export class AnalysisCache {
  private readonly entries = new Map<string, Entry>();

  constructor(private readonly max = 2000) {}

  /** The analysis of `rel` under `key` (its bytes' hash + what it depends on), computed once. */
  get(rel: string, key: string, compute: () => Promise<AnalysisDetail>): Promise<AnalysisDetail> {
    const hit = this.entries.get(rel);
    if (hit && hit.key === key) return hit.detail;
    const detail = compute();
    const entry = { key, detail };
    this.entries.delete(rel);
    if (this.entries.size >= this.max) this.entries.delete(this.entries.keys().next().value as string);
    this.entries.set(rel, entry);
    // A failed analysis is not kept: the next request tries again.
    detail.catch(() => {
      if (this.entries.get(rel) === entry) this.entries.delete(rel);
    });
    return detail;
  }

  /** Forgets items that are no longer in the inbox. */
  keepOnly(present: Set<string>): void {
    for (const rel of [...this.entries.keys()]) if (!present.has(rel)) this.entries.delete(rel);
  }

  clear(): void {
    this.entries.clear();
  }

  get size(): number {
    return this.entries.size;
  }
}
