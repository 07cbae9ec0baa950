import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../common/log';
import { createMcpServer, type McpSurface } from './server';
import { TASK_HEADER } from './http';

/** Where the bridge's JSON-RPC goes: a running owner's /mcp, or a core this process owns. */
export interface Upstream {
  kind: 'remote' | 'local';
  transport: Transport;
  /** Resolves when the upstream is known to be gone (owner exited). */
  lost: Promise<void>;
  dispose(): Promise<void>;
}

export interface UpstreamFactory {
  /** Connect to a running owner, or become the owner; called again after the owner is lost. */
  connect(): Promise<Upstream>;
}

type Msg = JSONRPCMessage & { id?: string | number; method?: string; result?: unknown; error?: unknown };

const isRequest = (m: Msg) => m.method !== undefined && m.id !== undefined;
const isResponse = (m: Msg) => m.method === undefined && m.id !== undefined;

/** An upstream talking to a running owner over Streamable HTTP. */
export function remoteUpstream(url: string, token: string, taskId: string | undefined, isAlive: () => boolean): Upstream {
  const transport = new StreamableHTTPClientTransport(new URL(url + '/mcp'), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...(taskId ? { [TASK_HEADER]: taskId } : {}) } },
    reconnectionOptions: { initialReconnectionDelay: 200, maxReconnectionDelay: 1_000, reconnectionDelayGrowFactor: 1.5, maxRetries: 2 },
  });
  let markLost!: () => void;
  const lost = new Promise<void>((r) => (markLost = r));
  // The owner is on this machine: its pid going away is the fastest, surest sign it is gone.
  const watchdog = setInterval(() => {
    if (!isAlive()) markLost();
  }, 200);
  watchdog.unref();
  transport.onclose = () => markLost();
  return {
    kind: 'remote',
    transport,
    lost,
    async dispose() {
      clearInterval(watchdog);
      await transport.close().catch(() => undefined);
    },
  };
}

/** An upstream served in this process (we are the owner). */
export function localUpstream(surface: McpSurface, taskId: string | undefined, onDispose: () => Promise<void>): Upstream {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(surface, { taskId });
  void server.connect(serverSide);
  return {
    kind: 'local',
    transport: clientSide,
    lost: new Promise<void>(() => undefined), // we are the owner: lost only when we exit
    async dispose() {
      await server.close().catch(() => undefined);
      await onDispose();
    },
  };
}

/**
 * `mailroom mcp`: MCP over stdio. JSON-RPC is forwarded unchanged to the upstream (the running
 * owner, or a core this process starts). When a remote owner goes away the bridge connects again
 * — to the next owner, or becoming it — replays the client's initialize, and re-sends requests
 * still waiting for an answer, so the MCP client never notices.
 */
export async function runStdioBridge(factory: UpstreamFactory, log: Logger, stdio: Transport = new StdioServerTransport()): Promise<{ done: Promise<void>; stop(): Promise<void> }> {
  let upstream: Upstream | undefined;
  let initRequest: Msg | undefined;
  let initialized = false;
  const pending = new Map<string | number, Msg>();
  let queue: Msg[] = [];
  let switching: Promise<void> | undefined;
  let stopped = false;
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const REPLAY_ID = '__mailroom_replay_init__';

  const toUpstream = async (m: Msg) => {
    if (!upstream || switching) {
      queue.push(m);
      return;
    }
    try {
      await upstream.transport.send(m);
    } catch (e) {
      log.warn('upstream send failed; switching owner', { error: String(e) });
      queue.push(m);
      void failover();
    }
  };

  const attach = async (u: Upstream, replay: boolean) => {
    let replayed: (() => void) | undefined;
    const replayDone = new Promise<void>((r) => (replayed = r));
    u.transport.onmessage = (raw) => {
      const m = raw as Msg;
      if (m.id === REPLAY_ID && isResponse(m)) {
        replayed?.();
        return;
      }
      if (isResponse(m)) pending.delete(m.id!);
      void stdio.send(m).catch((e) => log.warn('stdout send failed', { error: String(e) }));
    };
    u.transport.onerror = (e) => log.debug('upstream transport error', { error: String(e) });
    await u.transport.start();
    if (replay && initRequest) {
      await u.transport.send({ ...initRequest, id: REPLAY_ID } as JSONRPCMessage);
      await Promise.race([replayDone, new Promise((_, rej) => setTimeout(() => rej(new Error('replayed initialize timed out')), 10_000))]);
      if (initialized) await u.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
    }
    void u.lost.then(() => {
      if (upstream === u && !stopped) void failover();
    });
  };

  const connect = async (replay: boolean) => {
    for (let attempt = 0; ; attempt++) {
      try {
        const u = await factory.connect();
        await attach(u, replay);
        upstream = u;
        log.info('mcp bridge connected', { upstream: u.kind });
        return;
      } catch (e) {
        if (stopped) throw e;
        log.warn('mcp bridge could not connect; retrying', { attempt, error: String(e) });
        await new Promise((r) => setTimeout(r, Math.min(2_000, 100 * 2 ** attempt)));
      }
    }
  };

  const failover = async () => {
    if (switching || stopped) return switching;
    const old = upstream;
    upstream = undefined;
    switching = (async () => {
      await old?.dispose().catch(() => undefined);
      await connect(true);
      // Requests the old owner never answered go to the new one, then anything queued meanwhile.
      const resend = [...pending.values()];
      const queued = queue.filter((m) => !(isRequest(m) && pending.has(m.id!)));
      queue = [];
      switching = undefined;
      for (const m of [...resend, ...queued]) await toUpstream(m);
    })();
    return switching;
  };

  stdio.onmessage = (raw) => {
    const m = raw as Msg;
    if (m.method === 'initialize' && isRequest(m)) initRequest = m;
    if (m.method === 'notifications/initialized') initialized = true;
    if (isRequest(m)) pending.set(m.id!, m);
    void toUpstream(m);
  };
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    await upstream?.dispose().catch(() => undefined);
    finish();
  };
  stdio.onclose = () => void stop();
  await connect(false);
  await stdio.start();
  for (const m of queue.splice(0)) await toUpstream(m);
  return { done, stop };
}
