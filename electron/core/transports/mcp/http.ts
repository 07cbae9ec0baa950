import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { isInitializeRequest } from '@modelcontextprotocol/sdk/types.js';
import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { createMcpServer, type McpSurface } from './server';

/** Header the stdio bridge uses to carry its client's MAILROOM_TASK_ID to the owner. */
export const TASK_HEADER = 'x-mailroom-task-id';

/** A session nobody used for this long is closed (the client re-initializes on its 404). */
export const DEFAULT_SESSION_IDLE_TTL_MS = 30 * 60_000;
/** At most this many live sessions; the least recently used idle one goes first. */
export const DEFAULT_MAX_SESSIONS = 256;

export interface McpHttpOptions {
  /** Idle time after which a session is closed. Default 30 min. */
  idleTtlMs?: number;
  /** Cap on live sessions. Default 256. */
  maxSessions?: number;
  /** How often expired sessions are swept. Default min(idleTtlMs / 2, 60 s). */
  sweepIntervalMs?: number;
  /** Clock (ms), injectable for tests. */
  now?: () => number;
}

interface Session {
  transport: StreamableHTTPServerTransport;
  server: Server;
  lastUsed: number;
  /** Requests (and open SSE streams) being served; a busy session is never expired. */
  inflight: number;
}

/**
 * MCP over Streamable HTTP at /mcp: one MCP server per session id. Sessions are bounded: one idle
 * for `idleTtlMs` is closed, and past `maxSessions` the least recently used idle one is closed.
 * A closed session's id gets 404, on which MCP clients initialize a new session.
 */
export function createMcpHttpHandler(surface: McpSurface, opts: McpHttpOptions = {}) {
  const ttl = opts.idleTtlMs ?? DEFAULT_SESSION_IDLE_TTL_MS;
  const max = Math.max(1, opts.maxSessions ?? DEFAULT_MAX_SESSIONS);
  const now = opts.now ?? Date.now;
  /** In least-recently-used order: a used session is moved to the end. */
  const sessions = new Map<string, Session>();
  let closed = false;

  const rpcError = (res: ServerResponse, status: number, message: string) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }));
  };

  const drop = (id: string, why: string) => {
    const s = sessions.get(id);
    if (!s) return;
    sessions.delete(id);
    surface.log.debug('mcp session closed', { why, sessions: sessions.size });
    void s.server.close().catch(() => undefined);
  };

  const expired = (s: Session) => s.inflight === 0 && now() - s.lastUsed >= ttl;

  const sweep = () => {
    for (const [id, s] of sessions) if (expired(s)) drop(id, 'idle');
  };
  const sweeper = setInterval(sweep, Math.max(10, opts.sweepIntervalMs ?? Math.min(ttl / 2, 60_000)));
  sweeper.unref();

  /** Makes room for one more session: expired ones first, then the least recently used idle one (or, all busy, the oldest). */
  const makeRoom = () => {
    sweep();
    while (sessions.size >= max) {
      let victim: string | undefined;
      for (const [id, s] of sessions) {
        if (s.inflight === 0) {
          victim = id;
          break;
        }
      }
      drop(victim ?? sessions.keys().next().value!, 'cap');
    }
  };

  /** Counts the request against the session until its response ends. */
  const track = (id: string, s: Session, res: ServerResponse) => {
    s.inflight++;
    s.lastUsed = now();
    sessions.delete(id);
    sessions.set(id, s);
    res.once('close', () => {
      s.inflight--;
      s.lastUsed = now();
    });
  };

  return {
    sessionCount: () => sessions.size,
    async handle(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
      if (closed) return rpcError(res, 503, 'Mailroom is shutting down.');
      const sid = req.headers['mcp-session-id'];
      const mcpSessionId = Array.isArray(sid) ? sid[0] : sid;
      if (mcpSessionId) {
        const s = sessions.get(mcpSessionId);
        if (s && expired(s)) drop(mcpSessionId, 'idle');
        const live = sessions.get(mcpSessionId);
        if (!live) return rpcError(res, 404, 'Session not found: it ended or expired; initialize a new one.');
        track(mcpSessionId, live, res);
        return live.transport.handleRequest(req, res, body);
      }
      if (req.method !== 'POST' || !(Array.isArray(body) ? body.some(isInitializeRequest) : isInitializeRequest(body))) {
        return rpcError(res, 400, 'No MCP session id: send initialize first.');
      }
      // The Mailroom session this client speaks for (the header's wire name keeps the protocol's "task").
      const taskHeader = req.headers[TASK_HEADER];
      const sessionId = (Array.isArray(taskHeader) ? taskHeader[0] : taskHeader) || undefined;
      const server = createMcpServer(surface, { sessionId });
      const transport: StreamableHTTPServerTransport = new StreamableHTTPServerTransport({
        sessionIdGenerator: () => crypto.randomUUID(),
        onsessioninitialized: (id) => {
          makeRoom();
          const s: Session = { transport, server, lastUsed: now(), inflight: 0 };
          sessions.set(id, s);
          track(id, s, res);
        },
        onsessionclosed: (id) => {
          sessions.delete(id);
        },
      });
      transport.onclose = () => {
        const id = transport.sessionId;
        if (id && sessions.get(id)?.transport === transport) sessions.delete(id);
      };
      await server.connect(transport);
      await transport.handleRequest(req, res, body);
    },
    async close(): Promise<void> {
      closed = true;
      clearInterval(sweeper);
      const all = [...sessions.values()];
      sessions.clear();
      await Promise.allSettled(all.map((s) => s.server.close()));
    },
  };
}
