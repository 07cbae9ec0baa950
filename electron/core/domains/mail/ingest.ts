import type { Logger } from '../../kernel/log';
import type { ParsedMessage } from './parse';
import { inlineParser, startParseThread, type Parser } from './parse-pool';
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
  /** Parse on a worker thread when the source is bigger than one window (default true). */
  parseThread?: boolean;
}

/** WAL pages between checkpoints during a big import (SQLite's default is 1,000). */
const IMPORT_CHECKPOINT_PAGES = 8192;

const tick = () => new Promise<void>((r) => setImmediate(r));

/**
 * Streams raw messages through the parser and into the store, one window at a time (never the
 * whole mailbox in memory): a source bigger than one window is parsed on a worker thread, the
 * next window parsing while this one is stored; each window is ordered by date (so
 * subject-threading sees parents before replies) and stored in one transaction. Replies that
 * came in an earlier window than their parent are joined afterwards by a pass over the threads'
 * links in SQL (header links already thread in either order through mail_refs). Idempotent:
 * re-importing adds nothing. A message that cannot be parsed is reported and skipped.
 */
export async function ingest(store: MailStore, inbox: InboxRow, items: Iterable<RawItem>, opts: IngestOptions): Promise<ImportReport> {
  const report: ImportReport = { inbox_id: inbox.id, total: 0, imported: 0, duplicates: 0, failed: [], thread_ids: [], message_ids: [] };
  const window = opts.batch ?? 500;
  const touched = new Set<string>();
  const iter = items[Symbol.iterator]();
  let exhausted = false;
  const readWindow = (): RawItem[] => {
    const slice: RawItem[] = [];
    while (!exhausted && slice.length < window) {
      const r = iter.next();
      if (r.done) {
        exhausted = true;
        break;
      }
      report.total++;
      if (r.value.invalid) report.failed.push({ source: r.value.source, error: r.value.invalid });
      else slice.push(r.value);
    }
    return slice;
  };
  let slice = readWindow();
  // A source bigger than one window parses on its own thread, a window ahead of the store.
  const parser: Parser = (!exhausted && (opts.parseThread ?? true) ? startParseThread() : undefined) ?? inlineParser;
  // A big import checkpoints the WAL every 32 MB instead of every 4 MB: each checkpoint syncs the
  // database file, and they were half the commit time.
  const checkpointPages = parser === inlineParser ? undefined : (store.db.pragma('wal_autocheckpoint', { simple: true }) as number);
  if (checkpointPages !== undefined) store.db.pragma(`wal_autocheckpoint = ${IMPORT_CHECKPOINT_PAGES}`);
  let done = 0;
  try {
    let parsing = slice.length ? parser.parse(slice, opts.now) : undefined;
    while (parsing) {
      const outcomes = await parsing;
      const current = slice;
      slice = readWindow();
      parsing = slice.length ? parser.parse(slice, opts.now) : undefined;
      const parsed: Array<{ m: ParsedMessage; source: string; order: number }> = [];
      outcomes.forEach((o, i) => {
        const source = current[i]?.source ?? '';
        if (o.ok) parsed.push({ m: o.m, source, order: i });
        else report.failed.push({ source, error: o.error });
      });
      opts.onProgress?.({ phase: 'parse', done: done + current.length, total: report.total });
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
      done += current.length;
      opts.onProgress?.({ phase: 'store', done, total: report.total });
      await tick();
    }
  } finally {
    await parser.close();
    if (checkpointPages !== undefined) {
      store.db.pragma(`wal_autocheckpoint = ${checkpointPages}`);
      store.db.pragma('wal_checkpoint(PASSIVE)');
    }
  }
  // Replies stored before their parent arrived in a later window: join them by subject now.
  if (touched.size) store.db.transaction(() => store.rethreadBySubject(inbox, touched))();
  // Threads may have merged during the import; report the ones that still exist.
  const threads = new Set<string>();
  for (let i = 0; i < report.message_ids.length; i += 500) {
    const ids = report.message_ids.slice(i, i + 500);
    const rows = store.db.prepare<unknown[], { thread_id: string }>(`SELECT DISTINCT thread_id FROM mail_messages WHERE id IN (${ids.map(() => '?').join(',')})`).all(...ids);
    for (const r of rows) threads.add(r.thread_id);
  }
  report.thread_ids = [...threads];
  if (report.failed.length) opts.log?.warn('some messages could not be imported', { inbox: inbox.id, failed: report.failed.length });
  return report;
}
