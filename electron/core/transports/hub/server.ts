import crypto from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import type { Logger } from '../../kernel/log';
import type { HubBroadcaster, HubMethodHandler } from '../../kernel/types';
import { toErrorShape } from '../../kernel/errors';
import { HubMethod } from '../../../../shared/contract';
import { MessageType, RecordReader, RecordTooLargeError, frame, parseHandshake, parseMessage, type HubMessage } from './protocol';

export interface Hub extends HubBroadcaster {
  register(name: string, handler: HubMethodHandler): void;
  /** Broadcasts an event outside the contract (benchmarks and protocol tests only). */
  broadcastUntyped(event: string, ...args: unknown[]): void;
  /** POST <path>/negotiate */
  handleNegotiate(req: IncomingMessage, res: ServerResponse): void;
  /** WebSocket upgrade on <path> (auth already checked by the HTTP layer). */
  handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void;
  connectionCount(): number;
  /** Closes every connection with allowReconnect so clients come back to the next owner. */
  stop(): Promise<void>;
}

interface Conn {
  id: string;
  ws: WebSocket;
  handshaken: boolean;
  reader: RecordReader;
  /** When the WebSocket opened: a connection that never completes the handshake is closed. */
  openedAt: number;
}

/** Largest message (and largest unterminated record) a connection may send: 1 MiB. */
export const HUB_MAX_MESSAGE_BYTES = 1024 * 1024;
/** Negotiated connection tokens not yet spent by a WebSocket. */
const MAX_PENDING_TOKENS = 1_000;

export interface HubOptions {
  log: Logger;
  /** Keep-alive ping interval (the client times out after 30 s of silence). */
  keepAliveMs?: number;
  /** Limit for one frame and for a record not yet terminated by 0x1e (default 1 MiB). */
  maxMessageBytes?: number;
  /** A connection with no handshake after this long is closed (default 15 s, as ASP.NET Core does). */
  handshakeTimeoutMs?: number;
}

/**
 * A generic SignalR hub over WebSockets speaking the JSON protocol, so the official
 * @microsoft/signalr clients (JS, .NET, Java) connect unchanged. Domains register methods and
 * broadcast events through it.
 */
export function createHub(opts: HubOptions): Hub {
  const { log } = opts;
  const methods = new Map<string, HubMethodHandler>();
  const conns = new Map<string, Conn>();
  /** connectionToken → expiry, issued by negotiate and spent by the WebSocket. */
  const pendingTokens = new Map<string, number>();
  const maxMessageBytes = opts.maxMessageBytes ?? HUB_MAX_MESSAGE_BYTES;
  const wss = new WebSocketServer({ noServer: true, maxPayload: maxMessageBytes });
  let stopped = false;

  methods.set(HubMethod.ping, () => ({ now: new Date().toISOString() }));

  const send = (c: Conn, msg: object) => {
    if (c.ws.readyState === WebSocket.OPEN) c.ws.send(frame(msg));
  };

  const handshakeTimeoutMs = opts.handshakeTimeoutMs ?? 15_000;
  const keepAlive = setInterval(() => {
    const now = Date.now();
    for (const c of conns.values()) {
      if (c.handshaken) send(c, { type: MessageType.Ping });
      else if (now - c.openedAt >= handshakeTimeoutMs) fail(c, 1002, 'No handshake received in time.');
    }
    for (const [t, exp] of pendingTokens) if (exp < now) pendingTokens.delete(t);
  }, opts.keepAliveMs ?? 15_000);
  keepAlive.unref();

  async function onInvocation(c: Conn, msg: Extract<HubMessage, { type: 1 }>) {
    const handler = methods.get(msg.target);
    const reply = (body: { result?: unknown; error?: string }) => {
      if (msg.invocationId !== undefined) send(c, { type: MessageType.Completion, invocationId: msg.invocationId, ...body });
    };
    if (!handler) {
      reply({ error: JSON.stringify({ code: 'method_not_found', message: `Unknown hub method '${msg.target.slice(0, 200)}'.` }) });
      return;
    }
    try {
      const result = await handler({ connectionId: c.id }, ...(Array.isArray(msg.arguments) ? msg.arguments : []));
      reply(result === undefined ? {} : { result });
    } catch (e) {
      const shape = toErrorShape(e);
      if (shape.code === 'internal') log.error('hub method failed', { method: msg.target, error: String(e) });
      reply({ error: JSON.stringify(shape) });
    }
  }

  /** Ends a connection for a protocol violation: a Close message the client can read, then the close frame. */
  function fail(c: Conn, wsCode: number, error: string) {
    log.warn('hub connection closed', { connectionId: c.id, code: wsCode, error });
    if (c.ws.readyState === WebSocket.OPEN) {
      if (c.handshaken) send(c, { type: MessageType.Close, error, allowReconnect: false });
      else c.ws.send(frame({ error }));
      // A close reason is at most 123 bytes: keep it short and ASCII.
      c.ws.close(wsCode, error.replace(/[^\x20-\x7e]/g, '?').slice(0, 120));
    }
  }

  function onRecord(c: Conn, text: string) {
    if (c.ws.readyState !== WebSocket.OPEN) return;
    if (!c.handshaken) {
      const hs = parseHandshake(text);
      if (!hs.ok) return fail(c, 1002, hs.error);
      c.handshaken = true;
      c.ws.send(frame({}));
      return;
    }
    const parsed = parseMessage(text);
    if (!parsed.ok) return fail(c, parsed.error.includes('not JSON') ? 1003 : 1002, parsed.error);
    const msg = parsed.msg;
    switch (msg.type) {
      case MessageType.Invocation:
        onInvocation(c, msg as Extract<HubMessage, { type: 1 }>).catch((e) => {
          log.error('hub invocation failed', { connectionId: c.id, error: String(e), stack: (e as Error).stack });
        });
        break;
      case MessageType.StreamInvocation: {
        const id = (msg as { invocationId?: string }).invocationId;
        if (id) send(c, { type: MessageType.Completion, invocationId: id, error: 'Streaming methods are not supported by this hub.' });
        break;
      }
      case MessageType.Close:
        c.ws.close(1000);
        break;
      default:
        // Ping, CancelInvocation, StreamItem, Completion and newer types need no answer.
        break;
    }
  }

  /** One frame from a client; nothing in it may throw past here. */
  function onFrame(c: Conn, data: RawData) {
    try {
      const chunk = Buffer.isBuffer(data) ? data : Array.isArray(data) ? Buffer.concat(data) : Buffer.from(data);
      for (const r of c.reader.push(chunk)) onRecord(c, r);
    } catch (e) {
      if (e instanceof RecordTooLargeError) return fail(c, 1009, e.message);
      log.error('hub connection failed', { connectionId: c.id, error: String(e), stack: (e as Error).stack });
      fail(c, 1011, 'Internal error in the hub; reconnect.');
    }
  }

  const sendToAll = (event: string, args: unknown[]) => {
    const text = frame({ type: MessageType.Invocation, target: event, arguments: args });
    for (const c of conns.values()) {
      if (c.handshaken && c.ws.readyState === WebSocket.OPEN) c.ws.send(text);
    }
  };

  return {
    register(name, handler) {
      if (methods.has(name)) throw new Error(`hub method ${name} registered twice`);
      methods.set(name, handler);
    },
    broadcast(event, ...args) {
      sendToAll(event, args);
    },
    broadcastUntyped(event, ...args) {
      sendToAll(event, args);
    },
    handleNegotiate(_req, res) {
      const connectionId = crypto.randomUUID();
      const connectionToken = crypto.randomBytes(16).toString('base64url');
      // Bounded: a client looping on negotiate cannot grow the map past the cap (oldest tokens go first).
      if (pendingTokens.size >= MAX_PENDING_TOKENS) pendingTokens.delete(pendingTokens.keys().next().value as string);
      pendingTokens.set(connectionToken, Date.now() + 60_000);
      res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
      res.end(
        JSON.stringify({
          negotiateVersion: 1,
          connectionId,
          connectionToken,
          availableTransports: [{ transport: 'WebSockets', transferFormats: ['Text'] }],
        }),
      );
    },
    handleUpgrade(req, socket, head) {
      if (stopped) {
        socket.end('HTTP/1.1 503 Service Unavailable\r\nConnection: close\r\n\r\n');
        return;
      }
      let id: string | null = null;
      try {
        id = new URL(req.url ?? '/', 'http://localhost').searchParams.get('id');
      } catch {
        socket.end('HTTP/1.1 400 Bad Request\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\nMalformed request target.\r\n');
        return;
      }
      // A client that skipped negotiation has no id; one that negotiated must present a live token.
      if (id !== null) {
        if (!pendingTokens.has(id)) {
          socket.end('HTTP/1.1 404 Not Found\r\nContent-Type: text/plain\r\n\r\nUnknown or expired connection id; negotiate again.\r\n');
          return;
        }
        pendingTokens.delete(id);
      }
      wss.handleUpgrade(req, socket, head, (ws) => {
        const c: Conn = { id: id ?? crypto.randomUUID(), ws, handshaken: false, reader: new RecordReader(maxMessageBytes), openedAt: Date.now() };
        conns.set(c.id, c);
        ws.on('message', (data: RawData) => onFrame(c, data));
        ws.on('close', () => conns.delete(c.id));
        ws.on('error', (e) => log.warn('hub socket error', { error: String(e) }));
      });
    },
    connectionCount: () => conns.size,
    async stop() {
      if (stopped) return;
      stopped = true;
      clearInterval(keepAlive);
      for (const c of conns.values()) {
        send(c, { type: MessageType.Close, allowReconnect: true });
        c.ws.close(1001);
        c.ws.terminate();
      }
      conns.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
    },
  };
}
