import fs from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Worker } from 'node:worker_threads';
import type { Logger } from '../../kernel/log';
import { catchUpSteps, type CatchUpReport, type VaultIndex } from './store';
import type { IndexerJob, IndexerMessage } from './indexer-worker';

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

/** Where the worker entry is: next to this module when bundled, or the .ts source under tsx. */
function workerEntry(): { file: URL | string; eval?: boolean } | undefined {
  const here = import.meta.url;
  if (here.endsWith('.ts')) {
    // Running from source (tests, bench): register tsx in the worker, then load the .ts entry.
    const req = createRequire(here);
    const api = pathToFileURL(req.resolve('tsx/package.json').replace(/package\.json$/, 'dist/esm/api/index.mjs')).href;
    const entry = new URL('./indexer-worker.ts', here).href;
    return { file: `import(${JSON.stringify(api)}).then((m) => { m.register(); return import(${JSON.stringify(entry)}); });`, eval: true };
  }
  for (const name of ['vault-indexer.mjs', 'vault-indexer.js']) {
    const u = new URL(`./${name}`, here);
    if (fs.existsSync(fileURLToPath(u))) return { file: u };
  }
  return undefined;
}

/**
 * Runs a catch-up of the vault index in a worker thread (or, when no worker entry is available,
 * on this thread in batches that yield to the event loop between them).
 */
export function runIndex(o: IndexRunOptions): IndexRun {
  const entry = o.inline ? undefined : workerEntry();
  if (!entry) return runInline(o);
  const job: IndexerJob = { dbFile: o.dbFile, root: o.root, full: o.full };
  const worker = new Worker(entry.file, { workerData: job, eval: entry.eval, name: 'vault-indexer' });
  let settled = false;
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
      if (!settled) {
        settled = true;
        await worker.terminate();
      }
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
