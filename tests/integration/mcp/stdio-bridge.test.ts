import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { BIN, cleanEnv, killAndWait } from '../../helpers/cli';
import { startTestOwner, tempDir, waitFor, type TestOwner } from '../../helpers/owner';
import { lockPath, readLock, tokenPath } from '../../../electron/core/host/lock';

type Rpc = { jsonrpc: '2.0'; id?: number | string; method?: string; params?: unknown; result?: unknown; error?: { code: number; message: string } };

const INIT = { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw-stdio-test', version: '1' } };

/** `mailroom mcp` driven over its real stdin/stdout, one JSON-RPC message per line, the way MCP clients do. */
function spawnBridge(dataDir: string, vault: string) {
  const child = spawn(process.execPath, [BIN, 'mcp', '--data-dir', dataDir, '--vault', vault], { env: cleanEnv(), stdio: ['pipe', 'pipe', 'pipe'] }) as ChildProcessWithoutNullStreams;
  const answers = new Map<number | string, (m: Rpc) => void>();
  let buf = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  child.stdout.on('data', (d) => {
    buf += d;
    for (let i = buf.indexOf('\n'); i >= 0; i = buf.indexOf('\n')) {
      const line = buf.slice(0, i).trim();
      buf = buf.slice(i + 1);
      if (!line) continue;
      const m = JSON.parse(line) as Rpc;
      if (m.id !== undefined && m.method === undefined) answers.get(m.id)?.(m);
    }
  });
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  let nextId = 1;
  const bridge = {
    child,
    exited,
    /** Sends a request and resolves with its answer (result or error). */
    request(method: string, params?: unknown, timeoutMs = 15_000): Promise<Rpc> {
      const id = nextId++;
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no answer to ${method} within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        answers.set(id, (m) => {
          clearTimeout(t);
          resolve(m);
        });
        child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id, method, ...(params !== undefined ? { params } : {}) }) + '\n');
      });
    },
    notify(method: string) {
      child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method }) + '\n');
    },
    async initialize(): Promise<Rpc> {
      const r = await bridge.request('initialize', INIT);
      if (!r.error) bridge.notify('notifications/initialized');
      return r;
    },
    /** Closes stdin the way a quitting client does and resolves with the exit code. */
    async closeStdin(timeoutMs = 15_000): Promise<number | null> {
      child.stdin.end();
      let t: NodeJS.Timeout | undefined;
      return Promise.race([exited, new Promise<never>((_, rej) => (t = setTimeout(() => rej(new Error(`mailroom mcp still running ${timeoutMs} ms after stdin closed`)), timeoutMs)))]).finally(() => clearTimeout(t));
    },
  };
  return bridge;
}

type Bridge = ReturnType<typeof spawnBridge>;

const bridgeLog = (dataDir: string) => {
  try {
    return fs.readFileSync(path.join(dataDir, 'logs', 'mcp-bridge.log'), 'utf8');
  } catch {
    return '';
  }
};
const countLines = (text: string, needle: string) => text.split('\n').filter((l) => l.includes(needle)).length;

/** A stand-in owner on a real socket: it holds the data dir's lock and answers health, but /mcp as `mcpStatus` says. */
async function fakeOwner(dataDir: string, mcpStatus: number) {
  let mcpRequests = 0;
  const server = http.createServer((req, res) => {
    if (req.url === '/api/health') {
      res.writeHead(200, { 'content-type': 'application/json' });
      return res.end('{"ok":true}');
    }
    mcpRequests++;
    req.resume();
    res.writeHead(mcpStatus, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message: `Bad Request: refused by the test (${mcpStatus})` }, id: null }));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  fs.mkdirSync(dataDir, { recursive: true });
  fs.writeFileSync(tokenPath(dataDir), 'x'.repeat(43));
  fs.writeFileSync(lockPath(dataDir), JSON.stringify({ pid: process.pid, port: (server.address() as AddressInfo).port, started: new Date().toISOString() }));
  return {
    requests: () => mcpRequests,
    async close() {
      fs.rmSync(lockPath(dataDir), { force: true });
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

describe('mailroom mcp (stdio bridge)', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  });
  const start = (dataDir: string, vault: string): Bridge => {
    const b = spawnBridge(dataDir, vault);
    cleanups.push(() => killAndWait(b.child));
    return b;
  };
  const owner = async (): Promise<TestOwner> => {
    const o = await startTestOwner();
    cleanups.push(() => o.close());
    return o;
  };

  describe('exits when its client closes stdin', () => {
    it('as the owner: stops the core, releases the lock, and a bridge that forwarded to it takes over', async () => {
      const dataDir = tempDir();
      const vault = tempDir();
      const first = start(dataDir, vault);
      expect((await first.initialize()).error).toBeUndefined();
      await waitFor(() => readLock(dataDir)?.pid, (pid) => pid === first.child.pid, 10_000, 'the first bridge to own the data dir');
      const second = start(dataDir, vault);
      expect((await second.initialize()).error).toBeUndefined();
      const info = async (b: Bridge) => ((await b.request('tools/call', { name: 'mailroom_info', arguments: {} })).result as { structuredContent: { owner_pid: number } }).structuredContent.owner_pid;
      expect(await info(second)).toBe(first.child.pid);

      expect(await first.closeStdin()).toBe(0);
      // The same client session keeps working: its bridge became the owner.
      expect(await info(second)).toBe(second.child.pid);
      expect(readLock(dataDir)?.pid).toBe(second.child.pid);

      expect(await second.closeStdin()).toBe(0);
      expect(readLock(dataDir)).toBeUndefined();
    });

    it('as a bridge to another owner: exits and leaves the owner serving', async () => {
      const o = await owner();
      const b = start(o.dataDir, o.vaultDir);
      expect((await b.initialize()).error).toBeUndefined();
      expect(((await b.request('tools/list')).result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
      expect(await b.closeStdin()).toBe(0);
      expect(readLock(o.dataDir)?.pid).toBe(process.pid);
      expect((await o.api('GET', '/api/health')).status).toBe(200);
    });
  });

  describe('requests before initialize (Claude Code sends server/discover first)', () => {
    it('are answered as the in-process server answers them, without reconnecting or initializing twice', async () => {
      // The in-process answer: a bridge that is the owner serves the SDK server in its own process.
      const alone = start(tempDir(), tempDir());
      const inProcess = {
        discover: await alone.request('server/discover', {}),
        unknown: await alone.request('no/such/method'),
        ping: await alone.request('ping'),
      };
      expect(inProcess.discover.error).toEqual({ code: -32601, message: 'Method not found' });
      expect(inProcess.ping.result).toEqual({});

      const o = await owner();
      let sessions = 0;
      o.core.ctx.events.on('mcp:session', () => sessions++);
      const b = start(o.dataDir, o.vaultDir);
      const discover = await b.request('server/discover', {});
      const unknown = await b.request('no/such/method');
      const ping = await b.request('ping');
      expect({ discover: discover.error ?? discover.result, unknown: unknown.error ?? unknown.result, ping: ping.error ?? ping.result }).toEqual({
        discover: inProcess.discover.error,
        unknown: inProcess.unknown.error,
        ping: inProcess.ping.result,
      });

      // Then the client initializes as usual, once, and works.
      expect((await b.initialize()).error).toBeUndefined();
      expect(((await b.request('tools/list')).result as { tools: unknown[] }).tools.length).toBeGreaterThan(0);
      await waitFor(() => sessions, (n) => n >= 1, 10_000, 'the owner to see the session');
      expect(sessions).toBe(1);
      const log = bridgeLog(o.dataDir);
      expect(countLines(log, 'mcp bridge connected')).toBe(1);
      expect(countLines(log, 'reconnecting')).toBe(0);
      expect(await b.closeStdin()).toBe(0);
    });
  });

  describe('an owner that keeps refusing does not make the bridge spin', () => {
    it('HTTP 4xx is that request’s answer: relayed as a JSON-RPC error, no reconnects, no retries', async () => {
      const dataDir = tempDir();
      const fake = await fakeOwner(dataDir, 400);
      cleanups.push(() => fake.close());
      const b = start(dataDir, tempDir());
      const started = Date.now();
      const answers: Rpc[] = [];
      // A client that keeps trying for a few seconds.
      while (Date.now() - started < 2_500) answers.push(await b.request('initialize', INIT));
      for (const a of answers) expect(a.error).toEqual({ code: -32000, message: 'Bad Request: refused by the test (400)' });
      expect(fake.requests()).toBe(answers.length); // one POST per client request, nothing more
      expect(countLines(bridgeLog(dataDir), 'reconnecting')).toBe(0);
    });

    it('HTTP 5xx is a failing owner: reconnects back off, and the client gets an error instead of waiting forever', async () => {
      const dataDir = tempDir();
      const fake = await fakeOwner(dataDir, 503);
      cleanups.push(() => fake.close());
      const b = start(dataDir, tempDir());
      const init = await b.request('initialize', INIT);
      expect(init.error?.code).toBe(-32603);
      // A bounded soak: whatever the bridge does in the background must stay slow.
      const soakStart = fake.requests();
      await new Promise((r) => setTimeout(r, 3_000));
      expect(fake.requests()).toBeLessThanOrEqual(10);
      expect(fake.requests() - soakStart).toBeLessThanOrEqual(3);
      expect(countLines(bridgeLog(dataDir), 'reconnecting')).toBeLessThanOrEqual(10);
    });
  });
});
