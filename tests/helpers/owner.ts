import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { HubConnectionBuilder, LogLevel, type HubConnection } from '@microsoft/signalr';
import { resolveConfig, startOwner, type Owner, type OwnerOptions } from '../../electron/core/host';
import { silentLogger } from '../../electron/core/kernel/log';

export const REPO_ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

export function tempDir(prefix = 'mailroom-test-'): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

/** Writes `files` (relative path → content) under `root`. */
export function writeFiles(root: string, files: Record<string, string>): void {
  for (const [rel, content] of Object.entries(files)) {
    const p = path.join(root, rel);
    fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, content);
  }
}

export interface TestOwner extends Owner {
  dataDir: string;
  vaultDir: string;
  /** Calls the REST API with the token; returns status and parsed JSON. */
  api<T = unknown>(method: string, route: string, body?: unknown): Promise<{ status: number; body: T }>;
  /** A connected MCP client over Streamable HTTP (closed by `close`). */
  mcp(opts?: { sessionId?: string }): Promise<Client>;
  /** A started official SignalR client (stopped by `close`). */
  hub(configure?: (c: HubConnection) => void): Promise<HubConnection>;
  close(): Promise<void>;
}

export interface TestOwnerOptions extends Omit<OwnerOptions, 'log'> {
  /** Copy this folder as the vault (e.g. a fixture). */
  vaultFrom?: string;
  /** Extra files to write into the vault. */
  vaultFiles?: Record<string, string>;
  /** Use the demo vault (copied from resources/ on first run). */
  demo?: boolean;
  dataDir?: string;
  vaultDir?: string;
  verbose?: boolean;
  /** Listen on this port (default: any free one). */
  listenPort?: number;
  /** Resolve before the vault's background index has caught up (default: wait for it). */
  waitIndexed?: boolean;
}

/** A real owner (core + HTTP on a free 127.0.0.1 port) in temp dirs. */
export async function startTestOwner(opts: TestOwnerOptions = {}): Promise<TestOwner> {
  const dataDir = opts.dataDir ?? tempDir('mailroom-data-');
  let vaultDir: string | undefined = opts.vaultDir;
  if (!opts.demo && !vaultDir) {
    vaultDir = tempDir('mailroom-vault-');
    if (opts.vaultFrom) fs.cpSync(opts.vaultFrom, vaultDir, { recursive: true });
  }
  if (vaultDir && opts.vaultFiles) writeFiles(vaultDir, opts.vaultFiles);
  const config = resolveConfig({ dataDir, vault: opts.demo ? undefined : vaultDir, port: opts.listenPort ?? 0, env: {}, appRoot: REPO_ROOT });
  const owner = await startOwner(config, { ...opts, log: opts.verbose ? undefined : silentLogger() });
  // The index builds in the background; most tests want the vault searchable first.
  if (opts.waitIndexed !== false) await owner.core.whenIndexed();
  const clients: Client[] = [];
  const hubs: HubConnection[] = [];
  return {
    ...owner,
    dataDir,
    vaultDir: config.vaultDir,
    async api<T>(method: string, route: string, body?: unknown) {
      const r = await fetch(owner.url + route, {
        method,
        headers: { authorization: `Bearer ${owner.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : typeof body === 'string' || body instanceof Uint8Array ? (body as string) : JSON.stringify(body),
      });
      const text = await r.text();
      return { status: r.status, body: (text ? JSON.parse(text) : undefined) as T };
    },
    async mcp(o = {}) {
      const transport = new StreamableHTTPClientTransport(new URL(owner.url + '/mcp'), {
        requestInit: { headers: { authorization: `Bearer ${owner.token}`, ...(o.sessionId ? { 'x-mailroom-task-id': o.sessionId } : {}) } },
      });
      const client = new Client({ name: 'mailroom-test', version: '1.0.0' });
      await client.connect(transport);
      clients.push(client);
      return client;
    },
    async hub(configure) {
      const c = new HubConnectionBuilder()
        .withUrl(owner.url + '/hubs/mailbox', { accessTokenFactory: () => owner.token })
        .configureLogging(LogLevel.None)
        .build();
      configure?.(c);
      await c.start();
      hubs.push(c);
      return c;
    },
    async close() {
      await Promise.allSettled(hubs.map((h) => h.stop()));
      await Promise.allSettled(clients.map((c) => c.close()));
      await owner.stop();
    },
  };
}

/** Resolves when `predicate` holds, polling an observable state; for events prefer `waitForEvent`. */
export async function waitFor<T>(probe: () => T | Promise<T>, predicate: (v: T) => boolean, timeoutMs = 10_000, label = 'condition'): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last: T | undefined;
  for (;;) {
    last = await probe();
    if (predicate(last)) return last;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${label}; last value: ${JSON.stringify(last)}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

/** Resolves with the arguments of the next `event` on a SignalR connection that pass `filter`. */
export function waitForHubEvent(conn: HubConnection, event: string, filter: (...args: unknown[]) => boolean = () => true, timeoutMs = 10_000): Promise<unknown[]> {
  return new Promise((resolve, reject) => {
    const handler = (...args: unknown[]) => {
      if (!filter(...args)) return;
      clearTimeout(timer);
      conn.off(event, handler);
      resolve(args);
    };
    const timer = setTimeout(() => {
      conn.off(event, handler);
      reject(new Error(`timed out waiting for hub event ${event}`));
    }, timeoutMs);
    conn.on(event, handler);
  });
}

/** The structured result of an MCP tool call (throws with the error shape when isError). */
export async function callTool<T = Record<string, unknown>>(client: Client, name: string, args: Record<string, unknown> = {}): Promise<T> {
  const r = await client.callTool({ name, arguments: args });
  if (r.isError) {
    const err = new Error(`tool ${name} failed: ${JSON.stringify(r.content)}`) as Error & { shape?: unknown };
    err.shape = errorShapeOf(r);
    throw err;
  }
  return r.structuredContent as T;
}

/** The error shape of an MCP tool call that must fail. */
export async function callToolError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ code: string; message: string; details?: Record<string, unknown> }> {
  const r = await client.callTool({ name, arguments: args });
  if (!r.isError) throw new Error(`tool ${name} unexpectedly succeeded: ${JSON.stringify(r.structuredContent)}`);
  return errorShapeOf(r);
}

/** Tool errors carry `{ code, message, details? }` as the JSON text of their first content item. */
export function errorShapeOf(r: object): { code: string; message: string; details?: Record<string, unknown> } {
  const first = ((r as { content?: unknown }).content as Array<{ type: string; text?: string }> | undefined)?.[0];
  if (first?.type !== "text" || !first.text) throw new Error(`tool error without text content: ${JSON.stringify(r)}`);
  return JSON.parse(first.text) as { code: string; message: string; details?: Record<string, unknown> };
}
