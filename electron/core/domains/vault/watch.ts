import fs from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from '../../kernel/log';
import { isIgnoredRel, isNotePath, listVaultFiles, toPosix } from './paths';
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

/** Longest a continuous stream of changes holds a batch back (a file appended to forever still syncs). */
const MAX_HOLD_MS = 1000;

/**
 * chokidar on the vault's folders: ignores .git, .obsidian, .trash, dotfiles and Mailroom's temp
 * files, waits until a file has been quiet for `stabilityMs` so a half-written file is never
 * indexed, and batches bursts. chokidar watches directories only — never one watch per note,
 * which at 50,000 notes held hundreds of MB — and the notes' own events come from their folder's
 * watch (chokidar's `raw` events carry the file name). A folder that appears (moved in, created
 * with notes) is listed once; one that disappears is reported as removed.
 */
export function chokidarBatches(o: BatcherOptions): { ready: Promise<void>; idle(): Promise<void>; close(): Promise<void> } {
  const root = fs.realpathSync(o.root);
  const pending = new Set<string>();
  const removedDirs = new Set<string>();
  const addedDirs = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let heldSince = 0;
  let closed = false;
  let isReady = false;
  const rel = (p: string) => toPosix(path.relative(root, p));
  const watcher: FSWatcher = watch(root, {
    ignoreInitial: true,
    persistent: true,
    followSymlinks: false,
    // Folders only: every file (and symlink) is left to its folder's watch.
    ignored: (p: string, stats?: fs.Stats) => {
      const r = rel(p);
      if (!r || r.startsWith('..')) return false;
      if (isIgnoredRel(r)) return true;
      return !!stats && !stats.isDirectory();
    },
  });
  const quietMs = Math.max(o.debounceMs ?? 0, o.stabilityMs ?? 50);
  const hand = () => {
    timer = undefined;
    heldSince = 0;
    for (const d of addedDirs) for (const f of listVaultFiles(root, d, isNotePath)) pending.add(f);
    addedDirs.clear();
    const batch = [...pending];
    const dirs = [...removedDirs];
    pending.clear();
    removedDirs.clear();
    o.onBatch(batch, dirs);
  };
  const schedule = () => {
    if (closed) return;
    const now = Date.now();
    heldSince ||= now;
    if (timer) clearTimeout(timer);
    timer = setTimeout(hand, now - heldSince >= MAX_HOLD_MS ? 0 : quietMs);
  };
  const noteAt = (r: string) => {
    if (!r || r.startsWith('..') || isIgnoredRel(r) || !isNotePath(r)) return;
    pending.add(r);
    schedule();
  };
  // A folder's watch names the file that changed (added, written, renamed, removed).
  watcher.on('raw', (_event, file, details) => {
    const dir = (details as { watchedPath?: unknown } | undefined)?.watchedPath;
    if (!file || typeof dir !== 'string') return;
    noteAt(rel(path.resolve(dir, file)));
  });
  // Its notes are listed when the batch is handed over (by then the folder's own watch is set
  // up, so a note written in between is either listed or heard).
  watcher.on('addDir', (p: string) => {
    const r = rel(p);
    if (!isReady || !r || isIgnoredRel(r)) return;
    addedDirs.add(r);
    schedule();
  });
  watcher.on('unlinkDir', (p: string) => {
    const r = rel(p);
    if (!r || isIgnoredRel(r)) return;
    removedDirs.add(r);
    schedule();
  });
  watcher.on('error', (e: unknown) => o.onError(e));
  const ready = new Promise<void>((resolve) =>
    watcher.once('ready', () => {
      isReady = true;
      resolve();
    }),
  );
  return {
    ready,
    async idle() {
      while (timer || pending.size || removedDirs.size || addedDirs.size) await new Promise((r) => setTimeout(r, 10));
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
  // A small young generation: chokidar's set-up walk leaves garbage that an idle thread never collects (−25 MB RSS at 10,000 notes).
  const worker = new Worker(entry.file, { workerData: job, eval: entry.eval, name: 'vault-watcher', resourceLimits: { maxYoungGenerationSizeMb: 2 } });
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
