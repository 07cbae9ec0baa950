import type { Logger } from '../../kernel/log';
import { present } from '../../kernel/errors';
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
 * Streams raw messages through mailparser and into the store, one window at a time (never the
 * whole mailbox in memory): each window is parsed with some concurrency, ordered by date (so
 * subject-threading sees parents before replies) and stored in one transaction. Replies that
 * came in an earlier window than their parent are joined afterwards by a pass over the threads'
 * links in SQL (header links already thread in either order through mail_refs). Idempotent:
 * re-importing adds nothing. A message that cannot be parsed is reported and skipped.
 */
export async function ingest(store: MailStore, inbox: InboxRow, items: Iterable<RawItem>, opts: IngestOptions): Promise<ImportReport> {
  const report: ImportReport = { inbox_id: inbox.id, total: 0, imported: 0, duplicates: 0, failed: [], thread_ids: [], message_ids: [] };
  const window = opts.batch ?? 500;
  const CONCURRENCY = 16;
  const touched = new Set<string>();
  const iter = items[Symbol.iterator]();
  let done = 0;
  for (let exhausted = false; !exhausted; ) {
    const slice: RawItem[] = [];
    while (slice.length < window) {
      const r = iter.next();
      if (r.done) {
        exhausted = true;
        break;
      }
      report.total++;
      if (r.value.invalid) report.failed.push({ source: r.value.source, error: r.value.invalid });
      else slice.push(r.value);
    }
    if (!slice.length) continue;
    const parsed: Array<{ m: ParsedMessage; source: string; order: number }> = [];
    for (let i = 0; i < slice.length; i += CONCURRENCY) {
      const part = slice.slice(i, i + CONCURRENCY);
      const results = await Promise.allSettled(part.map((it) => parseRaw(it.raw, { now: opts.now, seen: it.seen })));
      results.forEach((r, j) => {
        const it = present(part[j], 'the message a parse result belongs to'); // allSettled keeps the order and length of part
        if (r.status === 'fulfilled') parsed.push({ m: r.value, source: it.source, order: i + j });
        else report.failed.push({ source: it.source, error: String((r.reason as Error)?.message ?? r.reason) });
      });
    }
    opts.onProgress?.({ phase: 'parse', done: done + slice.length, total: report.total });
    parsed.sort((a, b) => a.m.createdAt.localeCompare(b.m.createdAt) || a.order - b.order);
    store.db.transaction(() => {
      for (const { m, source } of parsed) {
        try {
          const r = store.insert(inbox, m, source);
          report.message_ids.push(r.id);
          if (r.created) {
            report.imported++;
            touched.add(r.thread_id);
          } else report.duplicates++;
        } catch (e) {
          report.failed.push({ source, error: (e as Error).message });
        }
      }
    })();
    done += slice.length;
    opts.onProgress?.({ phase: 'store', done, total: report.total });
    await tick();
  }
  // Replies stored before their parent arrived in a later window: join them by subject now.
  if (touched.size) store.db.transaction(() => store.rethreadBySubject(inbox, touched))();
  // Threads may have merged during the import; report the ones that still exist.
  const threads = new Set<string>();
  for (let i = 0; i < report.message_ids.length; i += 500) {
    const ids = report.message_ids.slice(i, i + 500);
    const rows = store.db.prepare(`SELECT DISTINCT thread_id FROM mail_messages WHERE id IN (${ids.map(() => '?').join(',')})`).all(...ids) as Array<{ thread_id: string }>;
    for (const r of rows) threads.add(r.thread_id);
  }
  report.thread_ids = [...threads];
  if (report.failed.length) opts.log?.warn('some messages could not be imported', { inbox: inbox.id, failed: report.failed.length });
  return report;
}
