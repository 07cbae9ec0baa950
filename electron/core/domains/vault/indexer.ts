import { Worker } from 'node:worker_threads';
import type { Logger } from '../../kernel/log';
import { catchUpSteps, type CatchUpReport, type VaultIndex } from './store';
import type { IndexerJob, IndexerMessage } from './indexer-worker';
import { workerEntry } from './worker-entry';

export interface IndexRun {
  /** Resolves with the report (changed paths are delivered through onBatch, not here). */
  done: Promise<Omit<CatchUpReport, 'changed'>>;
  /** Stops the run (the worker is terminated; the index keeps what was committed). */
  stop(): Promise<void>;
}

export interface IndexRunOptions {
  index: VaultIndex;
  dbFile: string;
  root: string;
  full: boolean;
  log: Logger;
  onBatch(p: { done: number; total: number; changed: string[] }): void;
  /** Force the in-process runner (tests of the fallback). */
  inline?: boolean;
}

/**
 * Runs a catch-up of the vault index in a worker thread (or, when no worker entry is available,
 * on this thread in batches that yield to the event loop between them).
 */
export function runIndex(o: IndexRunOptions): IndexRun {
  const entry = o.inline ? undefined : workerEntry('vault-indexer', './indexer-worker.ts');
  if (!entry) return runInline(o);
  const job: IndexerJob = { dbFile: o.dbFile, root: o.root, full: o.full };
  const worker = new Worker(entry.file, { workerData: job, eval: entry.eval, name: 'vault-indexer' });
  let settled = false;
  // The worker may still be merging FTS segments after 'done': stop() ends it until it has exited.
  let exited = false;
  worker.once('exit', () => (exited = true));
  const done = new Promise<Omit<CatchUpReport, 'changed'>>((resolve, reject) => {
    worker.on('message', (m: IndexerMessage) => {
      if (m.type === 'progress') o.onBatch(m);
      else if (m.type === 'done') {
        settled = true;
        resolve(m.report);
      } else if (m.type === 'error') {
        settled = true;
        reject(new Error(m.message));
      }
    });
    worker.on('error', (e) => {
      settled = true;
      reject(e);
    });
    worker.on('exit', (code) => {
      if (!settled) reject(new Error(`the vault indexer stopped (exit code ${code})`));
    });
  });
  done.catch(() => undefined);
  return {
    done,
    async stop() {
      settled = true;
      if (!exited) await worker.terminate();
    },
  };
}

function runInline(o: IndexRunOptions): IndexRun {
  let stopped = false;
  const done = (async () => {
    if (o.full) o.index.clear();
    const steps = catchUpSteps(o.index, o.root);
    for (;;) {
      if (stopped) throw new Error('stopped');
      const r = steps.next();
      if (r.done) {
        const { changed: _c, ...report } = r.value;
        return report;
      }
      o.onBatch(r.value);
      await new Promise<void>((res) => setImmediate(res));
    }
  })();
  done.catch(() => undefined);
  return {
    done,
    async stop() {
      stopped = true;
      await done.catch(() => undefined);
    },
  };
}
