import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import { createMcpHttpHandler, remoteUpstream, runStdioBridge, type McpHttpOptions } from '../../../electron/core/transports/mcp';
import { silentLogger } from '../../../electron/core/kernel/log';
import { waitFor } from '../../helpers/owner';

/** The /mcp handler on a real 127.0.0.1 socket, spoken to by real SDK clients. */
async function serve(opts: McpHttpOptions) {
  const handler = createMcpHttpHandler({ version: '0', tools: [], resourceTemplates: [], log: silentLogger() }, opts);
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const c of req) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString('utf8');
    await handler.handle(req, res, text ? JSON.parse(text) : undefined);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = new URL(`http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`);
  const clients: Client[] = [];
  const headers = (sid?: string) => ({ 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(sid ? { 'mcp-session-id': sid } : {}) });
  const raw = {
    post: (sid: string | undefined, msg: object) => fetch(url, { method: 'POST', headers: headers(sid), body: JSON.stringify(msg) }).then(async (r) => ({ status: r.status, sid: r.headers.get('mcp-session-id'), text: await r.text() })),
    /** initialize + initialized over plain POSTs, no event stream, never DELETEd. */
    async initialize(): Promise<string> {
      const r = await raw.post(undefined, { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
      expect(r.status).toBe(200);
      await raw.post(r.sid!, { jsonrpc: '2.0', method: 'notifications/initialized' });
      return r.sid!;
    },
  };
  return {
    handler,
    raw,
    base: url.origin,
    async client(): Promise<Client> {
      const c = new Client({ name: 'session-test', version: '1' });
      await c.connect(new StreamableHTTPClientTransport(url));
      clients.push(c);
      return c;
    },
    async close() {
      await Promise.allSettled(clients.map((c) => c.close()));
      await handler.close();
      server.closeAllConnections();
      await new Promise<void>((r) => server.close(() => r()));
    },
  };
}

/** A request on a closed session fails with the 404 that tells an MCP client to initialize again. */
async function expectSessionGone(c: Client): Promise<void> {
  const err = await c.listTools().then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(StreamableHTTPError);
  expect((err as StreamableHTTPError).code).toBe(404);
}

describe('MCP Streamable HTTP sessions are bounded', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0)) await c().catch(() => undefined);
  });

  it('past the cap, the least recently used idle sessions are closed; a recently used one and one holding a stream survive', async () => {
    const s = await serve({ maxSessions: 4 });
    cleanups.push(() => s.close());
    const list = { jsonrpc: '2.0', id: 2, method: 'tools/list' };
    const streaming = await s.client(); // oldest, but busy: its GET event stream is open
    const b = await s.raw.initialize();
    const c = await s.raw.initialize();
    const x = await s.raw.initialize();
    expect((await s.raw.post(b, list)).status).toBe(200); // b is now the most recently used
    const d = await s.raw.initialize(); // evicts c
    const e = await s.raw.initialize(); // evicts x
    expect(s.handler.sessionCount()).toBe(4);
    expect((await s.raw.post(c, list)).status).toBe(404);
    expect((await s.raw.post(x, list)).status).toBe(404);
    for (const live of [b, d, e]) expect((await s.raw.post(live, list)).status).toBe(200);
    expect((await streaming.listTools()).tools).toEqual([]);
  });

  it('when every session is busy, the least recently used one is closed and its client gets the 404 to initialize again', async () => {
    const s = await serve({ maxSessions: 2 });
    cleanups.push(() => s.close());
    const a = await s.client();
    const b = await s.client();
    await a.listTools();
    const c = await s.client(); // evicts b
    expect(s.handler.sessionCount()).toBe(2);
    await expectSessionGone(b);
    for (const live of [a, c]) expect((await live.listTools()).tools).toEqual([]);
  });

  it('a session unused for longer than the TTL is closed by the sweep; a recently used one and one holding a stream are kept', async () => {
    let clock = 1_000_000;
    const s = await serve({ idleTtlMs: 60_000, sweepIntervalMs: 20, now: () => clock });
    cleanups.push(() => s.close());
    // What leaked: clients that initialize over plain POSTs and never send DELETE.
    const idle = await s.raw.initialize();
    const recent = await s.raw.initialize();
    const streaming = await s.client(); // the SDK client keeps its GET event stream open
    expect(s.handler.sessionCount()).toBe(3);
    clock += 40_000;
    expect((await s.raw.post(recent, { jsonrpc: '2.0', id: 2, method: 'tools/list' })).status).toBe(200);
    clock += 40_000; // idle: 80 s unused; recent: 40 s
    await waitFor(() => s.handler.sessionCount(), (n) => n === 2, 5_000, 'the idle session to be swept');
    expect((await s.raw.post(idle, { jsonrpc: '2.0', id: 3, method: 'tools/list' })).status).toBe(404);
    expect((await s.raw.post(recent, { jsonrpc: '2.0', id: 3, method: 'tools/list' })).status).toBe(200);
    expect((await streaming.listTools()).tools).toEqual([]);
  });

  it('an expired session is refused even before the sweep runs', async () => {
    let clock = 0;
    const s = await serve({ idleTtlMs: 1_000, sweepIntervalMs: 3_600_000, now: () => clock });
    cleanups.push(() => s.close());
    const c = await s.client();
    clock += 1_001;
    await expectSessionGone(c);
    expect(s.handler.sessionCount()).toBe(0);
  });

  it('a stdio bridge whose session was closed initializes a new one, and its client does not notice', async () => {
    const s = await serve({ maxSessions: 1 });
    cleanups.push(() => s.close());
    const [clientSide, bridgeSide] = InMemoryTransport.createLinkedPair();
    const bridge = await runStdioBridge({ connect: async () => remoteUpstream(s.base, 'unused', undefined, () => true) }, silentLogger(), bridgeSide);
    cleanups.push(() => bridge.stop());
    const viaBridge = new Client({ name: 'behind-bridge', version: '1' });
    await viaBridge.connect(clientSide);
    expect((await viaBridge.listTools()).tools).toEqual([]);
    await s.client(); // takes the only slot: the bridge's session is closed
    expect((await viaBridge.listTools()).tools).toEqual([]);
    expect(s.handler.sessionCount()).toBe(1);
  });
});
