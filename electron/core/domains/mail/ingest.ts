import type { Logger } from '../../kernel/log';
import { parseRaw, type ParsedMessage } from './parse';
import type { RawItem } from './importers';
import type { InboxRow, MailStore } from './store';

export interface ImportReport {
  inbox_id: string;
  total: number;
  imported: number;
  duplicates: number;
  failed: Array<{ source: string; error: string }>;
  thread_ids: string[];
  message_ids: string[];
}

export interface IngestOptions {
  now: () => number;
  log?: Logger;
  onProgress?: (p: { phase: 'parse' | 'store'; done: number; total: number }) => void;
  /** Yield to the event loop every so often so the owner stays responsive during big imports. */
  batch?: number;
}

const tick = () => new Promise<void>((r) => setImmediate(r));

/**
 * Parses raw messages (mailparser), sorts them by date so subject-threading sees parents before
 * replies, and stores them in batched transactions. Idempotent: re-importing adds nothing. A
 * message that cannot be parsed is reported and skipped; it never stops the rest.
 */
export async function ingest(store: MailStore, inbox: InboxRow, items: Iterable<RawItem>, opts: IngestOptions): Promise<ImportReport> {
  const all = [...items];
  const list = all.filter((it) => !it.invalid);
  const report: ImportReport = { inbox_id: inbox.id, total: all.length, imported: 0, duplicates: 0, failed: all.filter((it) => it.invalid).map((it) => ({ source: it.source, error: it.invalid! })), thread_ids: [], message_ids: [] };
  const parsed: Array<{ m: ParsedMessage; source: string; order: number }> = [];
  const batch = opts.batch ?? 200;
  const CONCURRENCY = 8;
  for (let i = 0; i < list.length; i += CONCURRENCY) {
    const slice = list.slice(i, i + CONCURRENCY);
    const results = await Promise.allSettled(slice.map((it) => parseRaw(it.raw, { now: opts.now, seen: it.seen })));
    results.forEach((r, j) => {
      const it = slice[j];
      if (r.status === 'fulfilled') parsed.push({ m: r.value, source: it.source, order: i + j });
      else report.failed.push({ source: it.source, error: String((r.reason as Error)?.message ?? r.reason) });
    });
    if ((i / CONCURRENCY) % 25 === 0) opts.onProgress?.({ phase: 'parse', done: Math.min(list.length, i + CONCURRENCY), total: list.length });
  }
  opts.onProgress?.({ phase: 'parse', done: list.length, total: list.length });
  parsed.sort((a, b) => a.m.createdAt.localeCompare(b.m.createdAt) || a.order - b.order);
  const threads = new Set<string>();
  for (let i = 0; i < parsed.length; i += batch) {
    const chunk = parsed.slice(i, i + batch);
    store.db.transaction(() => {
      for (const { m, source } of chunk) {
        try {
          const r = store.insert(inbox, m, source);
          report.message_ids.push(r.id);
          if (r.created) report.imported++;
          else report.duplicates++;
        } catch (e) {
          report.failed.push({ source, error: (e as Error).message });
        }
      }
    })();
    opts.onProgress?.({ phase: 'store', done: Math.min(parsed.length, i + batch), total: parsed.length });
    await tick();
  }
  // Threads may have merged during the import; report the ones that still exist.
  for (const id of report.message_ids) {
    const m = store.findMessage(id);
    if (m) threads.add(m.thread_id);
  }
  report.thread_ids = [...threads];
  if (report.failed.length) opts.log?.warn('some messages could not be imported', { inbox: inbox.id, failed: report.failed.length });
  return report;
}
