import fs from 'node:fs';
import path from 'node:path';
import { watch, type FSWatcher } from 'chokidar';
import type { Logger } from '../../kernel/log';
import { isIgnoredRel, isNotePath, toPosix } from './paths';

export interface WatcherOptions {
  root: string;
  log: Logger;
  /** Called with vault-relative paths that were added, changed or removed (debounced). */
  onChange(paths: string[], removedDirs: string[]): void | Promise<void>;
  /** Quiet time before a batch of changes is handed over. */
  debounceMs?: number;
  /** awaitWriteFinish: how long a file's size must stay still before it counts as written. */
  stabilityMs?: number;
}

export interface VaultWatcher {
  ready: Promise<void>;
  /** Resolves once every change seen so far has been handed to onChange. */
  flush(): Promise<void>;
  close(): Promise<void>;
}

/**
 * chokidar on the vault: ignores .git, .obsidian, .trash, dotfiles and Mailroom's temp files,
 * waits for writes to finish so a half-written file is never indexed, and batches bursts.
 */
export function watchVault(opts: WatcherOptions): VaultWatcher {
  const root = fs.realpathSync(opts.root);
  const pending = new Set<string>();
  const removedDirs = new Set<string>();
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> = Promise.resolve();
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
    awaitWriteFinish: { stabilityThreshold: opts.stabilityMs ?? 60, pollInterval: 15 },
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
      running = running.then(async () => {
        try {
          await opts.onChange(batch, dirs);
        } catch (e) {
          opts.log.error('vault change handling failed', { error: String(e) });
        }
      });
    }, opts.debounceMs ?? 30);
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
  watcher.on('error', (e: unknown) => opts.log.warn('vault watcher error', { error: String(e) }));
  const ready = new Promise<void>((resolve) => watcher.once('ready', () => resolve()));

  return {
    ready,
    async flush() {
      while (timer || pending.size) {
        await new Promise((r) => setTimeout(r, 10));
      }
      await running;
    },
    async close() {
      closed = true;
      if (timer) clearTimeout(timer);
      await watcher.close();
      await running;
    },
  };
}
