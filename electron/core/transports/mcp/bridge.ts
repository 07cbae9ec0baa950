import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InMemoryTransport } from '@modelcontextprotocol/sdk/inMemory.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Logger } from '../../kernel/log';
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
export function remoteUpstream(url: string, token: string, sessionId: string | undefined, isAlive: () => boolean): Upstream {
  const transport = new StreamableHTTPClientTransport(new URL(url + '/mcp'), {
    requestInit: { headers: { authorization: `Bearer ${token}`, ...(sessionId ? { [TASK_HEADER]: sessionId } : {}) } },
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
export function localUpstream(surface: McpSurface, sessionId: string | undefined, onDispose: () => Promise<void>): Upstream {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(surface, { sessionId });
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

export interface BridgeOptions {
  /** Delay before the 2nd reconnect in a window; doubles each time. Default 100 ms. */
  backoffBaseMs?: number;
  /** Longest delay between reconnects. Default 5 s. */
  backoffMaxMs?: number;
  /** At most this many reconnects per window; more wait for the window to move. Default 10 / 60 s. */
  maxReconnectsPerWindow?: number;
  windowMs?: number;
  /** A request sent this many times without an answer is answered with an error. Default 3. */
  maxSends?: number;
}

/** JSON-RPC codes the bridge answers with itself. */
const METHOD_NOT_FOUND = -32601;
const INVALID_REQUEST = -32600;
const INTERNAL_ERROR = -32603;

/**
 * Methods an MCP server built by createMcpServer answers. Before initialize the bridge has no
 * owner session to forward to, so it answers these with "initialize first" and any other method
 * with "Method not found" — what the SDK server answers in-process for a method it has no handler for.
 */
const SERVER_METHODS = new Set(['initialize', 'ping', 'tools/list', 'tools/call', 'resources/list', 'resources/templates/list', 'resources/read']);

type Failure = 'request' | 'session' | 'lost';

/**
 * What a failed send to the upstream means. A 4xx is the owner refusing this request (answered
 * to the client as a JSON-RPC error), a 404 on a session is the owner having closed our session
 * (initialize again), anything else — connection refused or reset, 5xx — is the owner being gone.
 */
function classify(e: unknown, hasSession: boolean): { kind: Failure; status?: number; body?: string } {
  if (e instanceof StreamableHTTPError) {
    const body = e.message.replace(/^Streamable HTTP error: /, '').replace(/^Error POSTing to endpoint: /, '');
    const status = e.code;
    if (status === 404 && hasSession) return { kind: 'session', status, body };
    if (status === -1 || (status !== undefined && status >= 400 && status < 500)) return { kind: 'request', status, body };
    return { kind: 'lost', status, body };
  }
  return { kind: 'lost' };
}

/** The JSON-RPC error in an owner's 4xx body, or a generic one naming the status. */
function rpcErrorOf(status: number | undefined, body: string | undefined): { code: number; message: string } {
  try {
    const parsed = JSON.parse(body ?? '') as { error?: { code?: unknown; message?: unknown } };
    if (typeof parsed.error?.code === 'number' && typeof parsed.error.message === 'string') return { code: parsed.error.code, message: parsed.error.message };
  } catch {
    /* not JSON */
  }
  return { code: INVALID_REQUEST, message: `Mailroom refused the request (HTTP ${status ?? '?'})${body ? `: ${body.slice(0, 300)}` : ''}` };
}

/**
 * `mailroom mcp`: MCP over stdio. JSON-RPC is forwarded unchanged to the upstream (the running
 * owner, or a core this process starts). When a remote owner goes away the bridge connects again
 * — to the next owner, or becoming it — replays the client's initialize, and re-sends requests
 * still waiting for an answer, so the MCP client never notices. Reconnects back off
 * exponentially and are bounded per window; an owner refusing a request (HTTP 4xx) is an answer
 * to that request, not a lost owner.
 */
export async function runStdioBridge(
  factory: UpstreamFactory,
  log: Logger,
  stdio: Transport = new StdioServerTransport(),
  opts: BridgeOptions = {},
): Promise<{ done: Promise<void>; stop(): Promise<void> }> {
  const baseMs = opts.backoffBaseMs ?? 100;
  const maxMs = opts.backoffMaxMs ?? 5_000;
  const perWindow = opts.maxReconnectsPerWindow ?? 10;
  const windowMs = opts.windowMs ?? 60_000;
  const maxSends = opts.maxSends ?? 3;

  let upstream: Upstream | undefined;
  /** The kind of the last upstream: before initialize, a remote one has no session to forward to. */
  let kind: Upstream['kind'] | undefined;
  let initRequest: Msg | undefined;
  /** The client got its initialize answer. */
  let initAnswered = false;
  let initialized = false;
  const pending = new Map<string | number, { msg: Msg; sends: number }>();
  let queue: Msg[] = [];
  let switching: Promise<void> | undefined;
  let stopped = false;
  let finish!: () => void;
  const done = new Promise<void>((r) => (finish = r));
  const REPLAY_ID = '__mailroom_replay_init__';
  const reconnects: number[] = [];
  const wakers = new Set<() => void>();

  const sleep = (ms: number) =>
    new Promise<void>((resolve) => {
      const wake = () => {
        clearTimeout(t);
        wakers.delete(wake);
        resolve();
      };
      const t = setTimeout(wake, ms);
      wakers.add(wake);
    });

  /** Waits as long as the reconnect budget says: exponential within a window, capped, bounded per window. */
  const throttle = async () => {
    const now = Date.now();
    let oldest = reconnects[0];
    while (oldest !== undefined && now - oldest >= windowMs) {
      reconnects.shift();
      oldest = reconnects[0];
    }
    let delay = reconnects.length === 0 ? 0 : Math.min(maxMs, baseMs * 2 ** (reconnects.length - 1));
    if (reconnects.length >= perWindow && oldest !== undefined) delay = Math.max(delay, oldest + windowMs - now);
    reconnects.push(now + delay);
    log.info('mcp bridge reconnecting', { attempt: reconnects.length, delayMs: delay });
    if (delay > 0) await sleep(delay);
  };

  const toClient = (m: Msg) => void stdio.send(m as JSONRPCMessage).catch((e) => log.warn('stdout send failed', { error: String(e) }));
  const answerError = (id: string | number, error: { code: number; message: string }) => {
    pending.delete(id);
    if (initRequest && initRequest.id === id && !initAnswered) initRequest = undefined; // the client may initialize again
    toClient({ jsonrpc: '2.0', id, error } as Msg);
  };

  const toUpstream = async (m: Msg) => {
    const u = upstream;
    if (!u || switching) {
      queue.push(m);
      return;
    }
    const entry = isRequest(m) ? pending.get(m.id!) : undefined;
    if (entry) entry.sends++;
    try {
      await u.transport.send(m);
    } catch (e) {
      const hasSession = (u.transport as { sessionId?: string }).sessionId !== undefined;
      const f = classify(e, hasSession);
      if (f.kind === 'request') {
        log.warn('owner refused a message', { method: m.method, status: f.status });
        if (isRequest(m)) answerError(m.id!, rpcErrorOf(f.status, f.body));
        return;
      }
      if (entry && entry.sends >= maxSends) {
        log.warn('giving up on a request', { method: m.method, sends: entry.sends, error: String(e) });
        answerError(m.id!, { code: INTERNAL_ERROR, message: `Mailroom did not answer ${m.method} after ${entry.sends} tries: ${String(e)}` });
        return;
      }
      log.warn(f.kind === 'session' ? 'owner closed our session; initializing again' : 'upstream send failed; switching owner', { error: String(e) });
      if (!isRequest(m) || !pending.has(m.id!)) queue.push(m);
      if (upstream === u) void failover();
    }
  };

  const attach = async (u: Upstream, replay: boolean) => {
    let replayed: ((m: Msg) => void) | undefined;
    const replayDone = new Promise<Msg>((r) => (replayed = r));
    u.transport.onmessage = (raw) => {
      const m = raw as Msg;
      if (m.id === REPLAY_ID && isResponse(m)) {
        replayed?.(m);
        return;
      }
      if (isResponse(m)) {
        pending.delete(m.id!);
        if (initRequest && m.id === initRequest.id) initAnswered = true;
      }
      toClient(m);
    };
    u.transport.onerror = (e) => log.debug('upstream transport error', { error: String(e) });
    await u.transport.start();
    if (replay && initRequest) {
      // One initialize per owner session: the replay stands in for the client's own.
      await u.transport.send({ ...initRequest, id: REPLAY_ID } as JSONRPCMessage);
      let timer: NodeJS.Timeout | undefined;
      const answer = await Promise.race([
        replayDone,
        new Promise<never>((_, rej) => (timer = setTimeout(() => rej(new Error('replayed initialize timed out')), 10_000))),
      ]).finally(() => clearTimeout(timer));
      if ((answer as { error?: unknown }).error) throw new Error(`replayed initialize failed: ${JSON.stringify((answer as { error?: unknown }).error)}`);
      if (!initAnswered && pending.has(initRequest.id!)) {
        initAnswered = true;
        pending.delete(initRequest.id!);
        toClient({ ...answer, id: initRequest.id } as Msg);
      }
      if (initialized) await u.transport.send({ jsonrpc: '2.0', method: 'notifications/initialized' } as JSONRPCMessage);
    }
    void u.lost.then(() => {
      if (upstream === u && !stopped) void failover();
    });
  };

  const connect = async (replay: boolean, first: boolean) => {
    for (let attempt = 0; ; attempt++) {
      if (!first || attempt > 0) await throttle();
      if (stopped) throw new Error('bridge stopped');
      let u: Upstream | undefined;
      try {
        u = await factory.connect();
        if (stopped) throw new Error('bridge stopped');
        await attach(u, replay);
        upstream = u;
        kind = u.kind;
        log.info('mcp bridge connected', { upstream: u.kind });
        return;
      } catch (e) {
        await u?.dispose().catch(() => undefined);
        if (stopped) throw e;
        log.warn('mcp bridge could not connect; retrying', { attempt, error: String(e) });
        // The client should not wait forever on an owner that keeps failing: answer what is pending.
        if (attempt + 1 >= maxSends && pending.size > 0) {
          for (const { msg } of [...pending.values()]) answerError(msg.id!, { code: INTERNAL_ERROR, message: `Mailroom is not answering (${String(e)}); try again.` });
          queue = queue.filter((m) => !isRequest(m));
        }
      }
    }
  };

  const failover = async () => {
    if (switching || stopped) return switching;
    const old = upstream;
    upstream = undefined;
    switching = (async () => {
      await old?.dispose().catch(() => undefined);
      try {
        await connect(true, false);
      } catch {
        return; // stopped
      } finally {
        switching = undefined;
      }
      // Requests the old owner never answered go to the new one, then anything queued meanwhile.
      // Never the client's initialize: the replay answered it.
      const resend = [...pending.values()].map((p) => p.msg).filter((m) => m.method !== 'initialize');
      const queued = queue.filter((m) => !(isRequest(m) && pending.has(m.id!)) && m.method !== 'initialize');
      queue = [];
      for (const m of [...resend, ...queued]) await toUpstream(m);
    })();
    return switching;
  };

  stdio.onmessage = (raw) => {
    const m = raw as Msg;
    if (isResponse(m) || stopped) return void toUpstream(m);
    if (m.method === 'initialize') {
      if (isRequest(m) && !initRequest) {
        initRequest = m;
        initAnswered = false;
      }
    } else if (!initRequest && kind !== 'local') {
      // No owner session yet (one is made by initialize): answer as the in-process server would.
      if (!isRequest(m)) return; // a notification before initialize: nothing to do
      if (m.method === 'ping') return toClient({ jsonrpc: '2.0', id: m.id, result: {} } as Msg);
      if (!SERVER_METHODS.has(m.method!)) return toClient({ jsonrpc: '2.0', id: m.id, error: { code: METHOD_NOT_FOUND, message: 'Method not found' } } as Msg);
      return toClient({ jsonrpc: '2.0', id: m.id, error: { code: INVALID_REQUEST, message: `Send initialize before ${m.method}.` } } as Msg);
    }
    if (m.method === 'notifications/initialized') initialized = true;
    if (isRequest(m)) pending.set(m.id!, { msg: m, sends: 0 });
    void toUpstream(m);
  };
  const stop = async () => {
    if (stopped) return;
    stopped = true;
    for (const wake of [...wakers]) wake();
    const u = upstream;
    upstream = undefined;
    await switching?.catch(() => undefined);
    await u?.dispose().catch(() => undefined);
    // A reconnect that finished while we waited.
    await (upstream as Upstream | undefined)?.dispose().catch(() => undefined);
    finish();
  };
  stdio.onclose = () => void stop();
  await connect(false, true);
  await stdio.start();
  for (const m of queue.splice(0)) await toUpstream(m);
  return { done, stop };
}
