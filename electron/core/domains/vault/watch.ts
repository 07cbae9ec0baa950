import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from '../../kernel/log';
import { isIgnoredRel, isNotePath, toPosix } from './paths';
import { workerEntry } from './worker-entry';

export interface WatcherOptions {
  root: string;
  log: Logger;
  /** Called with vault-relative paths that were added, changed or removed (debounced). */
  onChange(paths: string[], removedDirs: string[]): void | Promise<void>;
  /** Quiet time before a batch of changes is handed over. */
  debounceMs?: number;
  /** awaitWriteFinish: how long a file's size must stay still before it counts as written. */
  stabilityMs?: number;
  /** Watch on this thread instead of a worker thread. */
  inline?: boolean;
}

export interface VaultWatcher {
  ready: Promise<void>;
  /** Resolves once every change seen so far has been handed to onChange. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

export interface BatcherOptions {
  root: string;
  debounceMs?: number;
  stabilityMs?: number;
  onBatch(paths: string[], removedDirs: string[]): void;
  onError(e: unknown): void;
}

/** What the watcher thread and the owner say to each other. */
export type WatcherJob = { root: string; debounceMs?: number; stabilityMs?: number };
export type WatcherToOwner = { type: 'batch'; paths: string[]; dirs: string[] } | { type: 'ready' } | { type: 'flushed'; id: number } | { type: 'closed' } | { type: 'error'; message: string };
export type OwnerToWatcher = { type: 'flush'; id: number } | { type: 'close' };

/**
 * chokidar on the vault: ignores .git, .obsidian, .trash, dotfiles and Mailroom's temp files,
 * waits for writes to finish so a half-written file is never indexed, and batches bursts.
 * Setting chokidar up walks the whole vault and opens a watch per file (seconds of CPU at 50k
 * notes), so the owner runs this in a worker thread (see watchVault).
 */
export function chokidarBatches(o: BatcherOptions): { ready: Promise<void>; idle(): Promise<void>; close(): Promise<void> } {
  const root = fs.realpathSync(o.root);
  const pending = new Set<string>();
  const removedDirs = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let closed = false;
  const rel = (p: string) => toPosix(path.relative(root, p));
  const watcher: FSWatcher = watch(root, {
    ignoreInitial: true,
    persistent: true,
    followSymlinks: false,
    ignored: (p: string, stats?: fs.Stats) => {
      const r = rel(p);
      if (!r || r.startsWith('..')) return false;
      if (isIgnoredRel(r)) return true;
      return !!stats?.isFile() && !/\.md$/i.test(r);
    },
    awaitWriteFinish: { stabilityThreshold: o.stabilityMs ?? 60, pollInterval: 15 },
  });
  const schedule = () => {
    if (closed) return;
    if (timer) clearTimeout(timer);
    timer = setTimeout(() => {
      timer = undefined;
      const batch = [...pending];
      const dirs = [...removedDirs];
      pending.clear();
      removedDirs.clear();
      o.onBatch(batch, dirs);
    }, o.debounceMs ?? 30);
  };
  const onFile = (p: string) => {
    const r = rel(p);
    if (!isNotePath(r)) return;
    pending.add(r);
    schedule();
  };
  watcher.on('add', onFile).on('change', onFile).on('unlink', onFile);
  watcher.on('unlinkDir', (p: string) => {
    const r = rel(p);
    if (!r || isIgnoredRel(r)) return;
    removedDirs.add(r);
    schedule();
  });
  watcher.on('error', (e: unknown) => o.onError(e));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));
  return {
    ready,
    async idle() {
      while (timer || pending.size || removedDirs.size) await new Promise((r) => setTimeout(r, 10));
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await watcher.close();
    },
  };
}

/** Watches the vault: in a worker thread when its entry is available, else on this thread. */
export function watchVault(opts: WatcherOptions): VaultWatcher {
  let running: Promise<void> = Promise.resolve();
  const hand = (batch: string[], dirs: string[]) => {
    running = running.then(async () => {
      try {
        await opts.onChange(batch, dirs);
      } catch (e) {
        opts.log.error('vault change handling failed', { error: String(e) });
      }
    });
  };
  const entry = opts.inline ? undefined : workerEntry('vault-watcher', './watch-worker.ts');
  if (!entry) {
    const b = chokidarBatches({ ...opts, onBatch: hand, onError: (e) => opts.log.warn('vault watcher error', { error: String(e) }) });
    return {
      ready: b.ready,
      async flush() {
        await b.ready;
        await b.idle();
        await running;
      },
      async close() {
        await b.close();
        await running;
      },
    };
  }

  const job: WatcherJob = { root: opts.root, debounceMs: opts.debounceMs, stabilityMs: opts.stabilityMs };
  const worker = new Worker(entry.file, { workerData: job, eval: entry.eval, name: 'vault-watcher' });
  let exited = false;
  let nextId = 0;
  const waiting = new Map<number, () => void>();
  let closedReply: (() => void) | undefined;
  let readyResolve!: () => void;
  const ready = new Promise<void>((r) => (readyResolve = r));
  const release = () => {
    readyResolve();
    for (const w of waiting.values()) w();
    waiting.clear();
    closedReply?.();
  };
  worker.on('message', (m: WatcherToOwner) => {
    if (m.type === 'batch') hand(m.paths, m.dirs);
    else if (m.type === 'ready') readyResolve();
    else if (m.type === 'flushed') {
      waiting.get(m.id)?.();
      waiting.delete(m.id);
    } else if (m.type === 'closed') closedReply?.();
    else if (m.type === 'error') opts.log.warn('vault watcher error', { error: m.message });
  });
  worker.on('error', (e) => opts.log.error('vault watcher thread failed', { error: String(e) }));
  worker.on('exit', () => {
    exited = true;
    release();
  });
  return {
    ready,
    async flush() {
      if (exited) return running;
      const id = ++nextId;
      // Messages arrive in order: every batch the thread had is handed over before 'flushed'.
      await new Promise<void>((r) => {
        waiting.set(id, r);
        worker.postMessage({ type: 'flush', id } satisfies OwnerToWatcher);
      });
      await running;
    },
    async close() {
      if (!exited) {
        await new Promise<void>((r) => {
          closedReply = r;
          worker.postMessage({ type: 'close' } satisfies OwnerToWatcher);
        });
        await worker.terminate();
      }
      await running;
    },
  };
}
