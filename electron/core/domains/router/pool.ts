import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { MailroomError } from '../../kernel/errors';
import type { Logger } from '../../kernel/log';
import type { Clock } from '../../kernel/types';
import { resolveCommand } from './command';
import { adapterLaunchForLog, adapterSecrets } from './secrets';
import type { Adapter, AdapterStatus } from './types';

export const ADAPTER_FAILED = 'adapter_failed';
export const ADAPTER_START_FAILED = 'adapter_start_failed';

/** Unexpected exits tolerated before the adapter is marked failed (the seed: restart max 3). */
export const MAX_RESTARTS = 3;
const STDERR_TAIL = 2000;

interface Entry {
  adapterId: string;
  client: Client;
  transport: Transport;
  pid: number | null;
  active: number;
  lastUsed: number;
  idle?: AbortController;
  /** Set when we close it on purpose, so the close is not counted as a crash. */
  closing: boolean;
  stderr: string[];
}

interface Health {
  crashes: number;
  failed: string | null;
  reason: string | null;
  spawned: number;
  pids: number[];
  starting: boolean;
  lastUsed: number | null;
}

export interface PoolDeps {
  clock: Clock;
  log: Logger;
  version: string;
  /** Reads the adapter fresh on each spawn (with secrets unsealed). */
  adapter(id: string): Adapter;
  /** Told on every status change (the domain broadcasts it on the hub). */
  onStatus?(status: AdapterStatus): void;
  /** Told when a new server process/connection replaces an old one (tool schemas may change). */
  onRestart?(adapterId: string): void;
  maxRestarts?: number;
  /** How long initialize may take (ms). */
  startTimeoutMs?: number;
}

/**
 * One MCP client per adapter, shared by every route and request that uses it (the seed's
 * MCPClientManager). Concurrent first requests share one in-flight spawn; each client closes
 * after its adapter's idle timeout with no requests; a server that exits unexpectedly is
 * started again on the next request, at most `maxRestarts` times in a row, after which the
 * adapter is marked failed with the reason until it is reset (edited or tested).
 */
export class ClientPool {
  private readonly entries = new Map<string, Entry>();
  private readonly inflight = new Map<string, Promise<Entry>>();
  private readonly health = new Map<string, Health>();
  private stopped = false;

  constructor(private readonly deps: PoolDeps) {}

  private h(id: string): Health {
    let v = this.health.get(id);
    if (!v) {
      v = { crashes: 0, failed: null, reason: null, spawned: 0, pids: [], starting: false, lastUsed: null };
      this.health.set(id, v);
    }
    return v;
  }

  status(id: string): AdapterStatus {
    const h = this.h(id);
    const e = this.entries.get(id);
    return {
      adapter_id: id,
      state: h.failed ? 'failed' : e ? 'running' : h.starting ? 'starting' : 'idle',
      pid: e?.pid ?? null,
      reason: h.failed ?? h.reason,
      restarts: h.crashes,
      spawned: h.spawned,
      last_used_at: h.lastUsed ? new Date(h.lastUsed).toISOString() : null,
    };
  }

  /** Every pid this pool ever started for the adapter (process accounting). */
  pids(id: string): number[] {
    return [...this.h(id).pids];
  }

  /** Total server processes started since the pool was created. */
  spawnedTotal(): number {
    return [...this.health.values()].reduce((n, h) => n + h.spawned, 0);
  }

  private emit(id: string): void {
    this.deps.onStatus?.(this.status(id));
  }

  /** Runs `fn` with the adapter's client, starting the server if needed; keeps it warm after. */
  async withClient<T>(adapterId: string, fn: (client: Client) => Promise<T>): Promise<T> {
    const entry = await this.acquire(adapterId);
    try {
      const r = await fn(entry.client);
      // A server that answers is healthy again: earlier crashes no longer count towards failure.
      this.h(adapterId).crashes = 0;
      return r;
    } finally {
      this.release(entry);
    }
  }

  private async acquire(id: string): Promise<Entry> {
    if (this.stopped) throw new MailroomError('unavailable', 'The router is shutting down; try again after Mailroom restarts.');
    const h = this.h(id);
    if (h.failed) {
      throw new MailroomError(ADAPTER_FAILED, `The adapter is marked failed: ${h.failed} Fix its settings, then press "Test connection" to try again.`, { adapter_id: id });
    }
    let e = this.entries.get(id);
    if (!e) {
      let p = this.inflight.get(id);
      if (!p) {
        p = this.spawn(id).finally(() => this.inflight.delete(id));
        this.inflight.set(id, p);
      }
      e = await p;
    }
    e.active++;
    e.lastUsed = this.deps.clock.now();
    h.lastUsed = e.lastUsed;
    e.idle?.abort();
    e.idle = undefined;
    return e;
  }

  private release(e: Entry): void {
    e.active = Math.max(0, e.active - 1);
    e.lastUsed = this.deps.clock.now();
    if (e.active > 0 || e.closing || this.entries.get(e.adapterId) !== e) return;
    let idleMs: number;
    try {
      idleMs = this.deps.adapter(e.adapterId).idle_timeout_s * 1000;
    } catch {
      idleMs = 0; // the adapter was deleted: close right away
    }
    const ac = new AbortController();
    e.idle = ac;
    this.deps.clock.sleep(idleMs, ac.signal).then(
      () => {
        if (e.idle === ac && e.active === 0) void this.closeEntry(e, 'idle');
      },
      () => {
        /* aborted: the client was used again or closed */
      },
    );
  }

  private async spawn(id: string): Promise<Entry> {
    const h = this.h(id);
    const adapter = this.deps.adapter(id);
    const log = this.deps.log;
    h.starting = true;
    this.emit(id);
    const stderr: string[] = [];
    let transport: Transport;
    let pidOf: () => number | null = () => null;
    const secrets = adapterSecrets(adapter);
    try {
      if (adapter.transport === 'stdio') {
        const env = Object.fromEntries(adapter.env.map((kv) => [kv.key, kv.value]));
        // Validated here as well as on save: PATH or the file may have changed since.
        const command = resolveCommand(adapter.command ?? '', env.PATH ?? process.env.PATH);
        const t = new TrackedStdioTransport({ command, args: adapter.args, env, stderr: 'pipe' });
        t.stderr?.on('data', (chunk: Buffer) => {
          stderr.push(chunk.toString('utf8'));
          while (stderr.join('').length > STDERR_TAIL && stderr.length > 1) stderr.shift();
        });
        transport = t;
        pidOf = () => t.startedPid;
      } else {
        const headers = Object.fromEntries(adapter.headers.map((kv) => [kv.key, kv.value]));
        transport = new StreamableHTTPClientTransport(new URL(adapter.url ?? ''), { requestInit: { headers } });
      }
    } catch (err) {
      h.starting = false;
      // A command that cannot run is a configuration error: fail at once, no restarts.
      if (err instanceof MailroomError) {
        h.failed = err.message;
        this.emit(id);
      }
      throw err;
    }

    const client = new Client({ name: 'mailroom-router', version: this.deps.version });
    const entry: Entry = { adapterId: id, client, transport, pid: null, active: 0, lastUsed: this.deps.clock.now(), closing: false, stderr };
    try {
      await client.connect(transport, { timeout: this.deps.startTimeoutMs ?? 30_000 });
      entry.pid = pidOf();
    } catch (err) {
      const pid = pidOf();
      if (pid) {
        h.pids.push(pid);
        h.spawned++;
      }
      entry.closing = true;
      await client.close().catch(() => {});
      h.starting = false;
      const tail = scrub(stderr.join('').trim(), secrets).slice(-400);
      const why = `the server did not start (${(err as Error).message})${tail ? `; its last output: ${tail}` : ''}.`;
      this.crashed(id, why);
      throw new MailroomError(ADAPTER_START_FAILED, `Could not start the MCP server: ${why}`, { adapter_id: id, retryable: !h.failed });
    }
    if (entry.pid) h.pids.push(entry.pid);
    h.spawned++;
    h.starting = false;
    h.reason = null;
    if (this.stopped) {
      entry.closing = true;
      await client.close().catch(() => {});
      throw new MailroomError('unavailable', 'The router is shutting down.');
    }
    client.onclose = () => {
      if (this.entries.get(id) === entry) this.entries.delete(id);
      entry.idle?.abort();
      if (entry.closing) return;
      const tail = scrub(entry.stderr.join('').trim(), secrets).slice(-400);
      this.crashed(id, `the server exited unexpectedly${entry.pid ? ` (pid ${entry.pid})` : ''}${tail ? `; its last output: ${tail}` : ''}.`);
    };
    this.entries.set(id, entry);
    if (h.spawned > 1) this.deps.onRestart?.(id);
    log.info('adapter server started', { adapter: adapter.name, pid: entry.pid, transport: adapter.transport, ...adapterLaunchForLog(adapter) });
    this.emit(id);
    return entry;
  }

  private crashed(id: string, why: string): void {
    const h = this.h(id);
    h.crashes++;
    h.reason = why;
    const max = this.deps.maxRestarts ?? MAX_RESTARTS;
    if (h.crashes > max) h.failed = `${why} It stopped ${h.crashes} times in a row (${max} restarts allowed).`;
    this.deps.log.warn('adapter server stopped unexpectedly', { adapter_id: id, crashes: h.crashes, failed: !!h.failed });
    this.emit(id);
  }

  private async closeEntry(e: Entry, why: 'idle' | 'reset' | 'stop'): Promise<void> {
    e.closing = true;
    e.idle?.abort();
    if (this.entries.get(e.adapterId) === e) this.entries.delete(e.adapterId);
    await e.client.close().catch(() => {});
    this.deps.log.info('adapter server closed', { adapter_id: e.adapterId, pid: e.pid, why });
    this.emit(e.adapterId);
  }

  /** Closes the adapter's server and forgets its failure (after an edit, or before a test). */
  async reset(id: string): Promise<void> {
    const p = this.inflight.get(id);
    if (p) await p.catch(() => {});
    const e = this.entries.get(id);
    if (e) await this.closeEntry(e, 'reset');
    const h = this.h(id);
    h.failed = null;
    h.crashes = 0;
    h.reason = null;
    this.emit(id);
  }

  /** Forgets an adapter entirely (deleted). */
  async remove(id: string): Promise<void> {
    await this.reset(id);
    this.health.delete(id);
  }

  /** Closes every server; the pool refuses new work afterwards. */
  async stop(): Promise<void> {
    this.stopped = true;
    await Promise.allSettled([...this.inflight.values()]);
    await Promise.allSettled([...this.entries.values()].map((e) => this.closeEntry(e, 'stop')));
  }
}

/** Remembers the pid after the process exits (a server that dies during start-up still counts). */
class TrackedStdioTransport extends StdioClientTransport {
  startedPid: number | null = null;
  override async start(): Promise<void> {
    await super.start();
    this.startedPid = this.pid;
  }
}

/** Removes secret values from text we keep or show (a server may print its own env). */
export function scrub(text: string, secrets: string[]): string {
  let out = text;
  for (const s of secrets) if (s.length >= 4) out = out.split(s).join('[redacted]');
  return out;
}
