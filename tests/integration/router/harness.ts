import fs from 'node:fs';
import path from 'node:path';
import { openStateDb } from '../../../electron/core/kernel/db';
import { resolveConfig } from '../../../electron/core/host/config';
import { keyFileSecretBox } from '../../../electron/core/host/secrets';
import { createLogger } from '../../../electron/core/kernel/log';
import type { Clock, CoreContext } from '../../../electron/core/kernel/types';
import { createRouter, type Router } from '../../../electron/core/domains/router';
import type { RouterDeps } from '../../../electron/core/domains/router/service';
import { REPO_ROOT, tempDir } from '../../helpers/owner';
import { createCoreContext } from '../../../electron/core/host/context';

export const TEST_SERVER = path.join(REPO_ROOT, 'tests', 'fixtures', 'mcp-test-server.mjs');
export const NODE = process.execPath;
export const MEMORY_SERVER = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-memory', 'dist', 'index.js');
export const FS_SERVER = path.join(REPO_ROOT, 'node_modules', '@modelcontextprotocol', 'server-filesystem', 'dist', 'index.js');

/**
 * A clock the test drives: `sleep` waits until the test advances time past it. `nextSleep`
 * resolves when code under test starts a sleep (filtered, so idle timers can be told apart
 * from retry backoff), so tests await the event instead of sleeping.
 */
export class ManualClock implements Clock {
  private offset = 0;
  private timers: Array<{ at: number; ms: number; resolve: () => void; reject: (e: unknown) => void; done: boolean }> = [];
  private waiters: Array<{ filter: (ms: number) => boolean; resolve: (ms: number) => void }> = [];
  readonly sleeps: number[] = [];

  now(): number {
    return Date.now() + this.offset;
  }

  sleep(ms: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const t = { at: this.now() + ms, ms, resolve, reject, done: false };
      this.timers.push(t);
      this.sleeps.push(ms);
      signal?.addEventListener('abort', () => {
        if (t.done) return;
        t.done = true;
        reject(signal.reason);
      }, { once: true });
      for (const w of [...this.waiters]) {
        if (w.filter(ms)) {
          this.waiters.splice(this.waiters.indexOf(w), 1);
          w.resolve(ms);
          break;
        }
      }
    });
  }

  /** Resolves with the length of the next sleep that passes `filter` (default: shorter than a minute). */
  nextSleep(filter: (ms: number) => boolean = (ms) => ms < 60_000, timeoutMs = 15_000): Promise<number> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error('timed out waiting for the code under test to sleep')), timeoutMs);
      this.waiters.push({ filter, resolve: (ms) => (clearTimeout(timer), resolve(ms)) });
    });
  }

  advance(ms: number): void {
    this.offset += ms;
    const now = this.now();
    for (const t of this.timers) {
      if (!t.done && t.at <= now) {
        t.done = true;
        t.resolve();
      }
    }
    this.timers = this.timers.filter((t) => !t.done);
  }

  /** Backoff sleeps seen so far (idle timers are minutes long and left out). */
  backoffs(): number[] {
    return this.sleeps.filter((ms) => ms < 60_000);
  }
}

export interface Harness {
  router: Router;
  ctx: CoreContext;
  dataDir: string;
  vaultDir: string;
  logFile: string;
  broadcasts: Array<{ event: string; args: unknown[] }>;
  close(): Promise<void>;
}

/** A router over a real, fully migrated state DB, a real logger file and real key-file secrets. */
export function makeRouter(opts: { clock?: Clock; deps?: RouterDeps; vaultFiles?: Record<string, string>; configFile?: Record<string, unknown> } = {}): Harness {
  const dataDir = tempDir('mailroom-router-data-');
  const vaultDir = tempDir('mailroom-router-vault-');
  for (const [rel, content] of Object.entries(opts.vaultFiles ?? {})) {
    fs.mkdirSync(path.dirname(path.join(vaultDir, rel)), { recursive: true });
    fs.writeFileSync(path.join(vaultDir, rel), content);
  }
  if (opts.configFile) fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify(opts.configFile));
  const config = resolveConfig({ dataDir, vault: vaultDir, port: 0, env: {}, appRoot: REPO_ROOT });
  const logFile = path.join(dataDir, 'logs', 'mailroom.log');
  const log = createLogger({ file: logFile, level: 'debug' });
  const stateDb = openStateDb(dataDir);
  const broadcasts: Harness['broadcasts'] = [];
  const { ctx } = createCoreContext(config, { broadcast: (event, ...args) => void broadcasts.push({ event, args }) }, {
    log,
    stateDb,
    platform: { kind: 'headless', notify() {}, setBadge() {}, badges: () => ({}), secrets: keyFileSecretBox(dataDir) },
    clock: opts.clock,
  });
  const router = createRouter(ctx, opts.deps);
  return {
    router,
    ctx,
    dataDir,
    vaultDir,
    logFile,
    broadcasts,
    async close() {
      await router.stop?.();
      stateDb.close();
      log.close();
    },
  };
}

/** A stdio adapter for the project test server. */
export function testServerAdapter(name: string, extra: Record<string, unknown> = {}) {
  return { name, transport: 'stdio', command: NODE, args: [TEST_SERVER], ...extra };
}

/** True while a process with this pid exists. */
export function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}
