/**
 * The vault indexer thread (node:worker_threads): lists, reads, parses and writes index.db on its
 * own connection, in short batched transactions, posting progress after each batch. The owner's
 * event loop stays free to answer MCP, the hub and the UI meanwhile. Bundled as its own entry
 * (out/cli/vault-indexer.mjs, out/main/vault-indexer.js); run from source with tsx in tests.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { catchUpSteps, VaultIndex } from './store';

export interface IndexerJob {
  dbFile: string;
  root: string;
  full: boolean;
  batch?: number;
}

export type IndexerMessage =
  | { type: 'progress'; done: number; total: number; changed: string[] }
  | { type: 'done'; report: { scanned: number; indexed: number; unchanged: number; removed: number } }
  | { type: 'error'; message: string };

const job = workerData as IndexerJob;
const post = (m: IndexerMessage) => parentPort!.postMessage(m);
let index: VaultIndex | undefined;
try {
  index = new VaultIndex(job.dbFile);
  if (job.full) index.clear();
  const steps = catchUpSteps(index, job.root, job.batch ?? 500);
  for (;;) {
    const r = steps.next();
    if (r.done) {
      // Everything is searchable now: say so first, then merge the FTS segments of a bulk load
      // (so later searches read few b-trees). Readers are not blocked by the merge (WAL).
      post({ type: 'done', report: { scanned: r.value.scanned, indexed: r.value.indexed, unchanged: r.value.unchanged, removed: r.value.removed } });
      if (r.value.indexed > 1000) index.db.exec("INSERT INTO notes_fts(notes_fts) VALUES('optimize')");
      break;
    }
    post({ type: 'progress', ...r.value });
  }
} catch (e) {
  post({ type: 'error', message: (e as Error)?.message ?? String(e) });
} finally {
  index?.close();
}
