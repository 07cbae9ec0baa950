import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { MailroomError, statusOf } from '../../kernel/errors';
import { beginInteractive } from '../../kernel/interactive';
import type { Logger } from '../../kernel/log';
import type { RouteDef } from '../../kernel/types';
import { ErrorCode } from '../../../../shared/errors';
import { HUB_PATH, MCP_PATH } from '../../../../shared/contract';
import type { Hub } from '../hub';
import { createMcpHttpHandler, type McpSurface } from '../mcp';
import { bearerOf, checkHostAndOrigin, contentSecurityPolicy, cookieOf, TOKEN_COOKIE, tokensEqual } from './guard';
import { createApiRouter, sendError, sendJson } from './router';
import { clientErrorOf, parseTarget } from './errors';
import { serveStatic } from './static';

export interface HttpServerOptions {
  port: number;
  token: string;
  log: Logger;
  routes: RouteDef[];
  hub: Hub;
  mcp: McpSurface;
  /** The built renderer (headless mode); omitted in tests that need no UI. */
  staticDir?: string;
}

export interface RunningHttpServer {
  port: number;
  url: string;
  close(): Promise<void>;
}

const SECURITY_HEADERS = {
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** What a browser without the token sees: how to get in, styled like the app (no scripts, inline CSS only). */
export const NO_TOKEN_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1">
<title>Mailroom — open it with your link</title>
<style>
:root{color-scheme:light dark;--bg:#f6f7f9;--panel:#fff;--text:#1c2230;--muted:#6a7385;--border:#e2e6ee;--accent:#3b6ef5;--chip:#eef2fb}
@media (prefers-color-scheme:dark){:root{--bg:#14171e;--panel:#1b1f28;--text:#e4e8f1;--muted:#8d96a8;--border:#2a303d;--chip:#242b3a}}
*{box-sizing:border-box}body{margin:0;min-height:100vh;display:grid;place-items:center;background:var(--bg);color:var(--text);font:15px/1.55 ui-sans-serif,system-ui,-apple-system,'Segoe UI',Roboto,Arial,sans-serif}
main{max-width:560px;margin:24px;background:var(--panel);border:1px solid var(--border);border-radius:10px;padding:28px 32px;box-shadow:0 2px 10px rgba(20,30,60,.06)}
h1{font-size:20px;margin:0 0 4px;display:flex;gap:10px;align-items:center}.mark{background:var(--accent);color:#fff;border-radius:7px;width:30px;height:30px;display:inline-grid;place-items:center;font-size:16px}
p{margin:10px 0}.muted{color:var(--muted)}ol{padding-left:20px}li{margin:8px 0}
code{font:13px ui-monospace,'SF Mono',Menlo,Consolas,monospace;background:var(--chip);border-radius:5px;padding:2px 6px}
</style></head><body><main>
<h1><span class="mark" aria-hidden="true">✉</span> Mailroom</h1>
<p class="muted">This page needs your private link: Mailroom only answers pages opened with it.</p>
<ol>
<li>Run <code>mailroom open</code> (or <code>npm run open</code> in the Mailroom folder): it opens Mailroom in your browser.</li>
<li>Or use the link <code>mailroom start</code> printed when it started (it ends in <code>?token=…</code>).</li>
<li>Lost it? <code>mailroom status</code> prints it again.</li>
</ol>
<p class="muted">Not running? Start it with <code>npm start</code> (or <code>mailroom start</code>).</p>
</main></body></html>`;

/** Writes a last answer on a raw socket and destroys it once flushed (or after 5 s if the peer never reads). */
function endAndDestroy(socket: Duplex, text: string): void {
  const timer = setTimeout(() => socket.destroy(), 5_000);
  timer.unref();
  socket.end(text, () => {
    clearTimeout(timer);
    socket.destroy();
  });
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const c of req) {
    size += (c as Buffer).length;
    if (size > 4 * 1024 * 1024) throw new MailroomError(ErrorCode.tooLarge, 'MCP message larger than 4 MiB.');
    chunks.push(c as Buffer);
  }
  if (size === 0) return undefined;
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    throw new MailroomError(ErrorCode.invalidArgument, 'Body is not valid JSON.');
  }
}

/**
 * The owner's one HTTP server on 127.0.0.1: REST (/api), MCP Streamable HTTP (/mcp), the
 * SignalR hub (/hubs/mailbox) and the renderer (/). Every request is checked for Host, Origin
 * and the token before anything else runs.
 */
export async function startHttpServer(opts: HttpServerOptions): Promise<RunningHttpServer> {
  const { log, token, hub } = opts;
  const api = createApiRouter(opts.routes, log.child('api'));
  const mcp = createMcpHttpHandler(opts.mcp);
  let port = opts.port;

  const isAuthorized = (req: IncomingMessage, url: URL, allowCookie: boolean, allowQuery: boolean) =>
    tokensEqual(bearerOf(req), token) ||
    (allowQuery && tokensEqual(url.searchParams.get('access_token'), token)) ||
    (allowCookie && tokensEqual(cookieOf(req, TOKEN_COOKIE), token));

  const onRequest = async (req: IncomingMessage, res: ServerResponse) => {
    const guard = checkHostAndOrigin(req, port);
    if (!guard.ok) return sendError(res, new MailroomError(ErrorCode.forbidden, guard.why, undefined, 403));
    const url = parseTarget(req.url, port);
    if (!url) return sendError(res, new MailroomError(ErrorCode.invalidArgument, 'The request target is not a valid URL path.'));

    const isHub = url.pathname === HUB_PATH || url.pathname.startsWith(HUB_PATH + '/');
    const isApi = url.pathname.startsWith('/api/');
    const isMcp = url.pathname === MCP_PATH;
    const isUi = !isHub && !isApi && !isMcp;

    // The UI link carries ?token= once; it becomes a SameSite=Strict cookie for the page's assets.
    if (isUi && req.method === 'GET' && tokensEqual(url.searchParams.get('token'), token)) {
      res.setHeader('set-cookie', `${TOKEN_COOKIE}=${encodeURIComponent(token)}; HttpOnly; SameSite=Strict; Path=/`);
    } else if (!isAuthorized(req, url, isUi, isHub)) {
      if (isUi) {
        res.writeHead(401, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store', ...SECURITY_HEADERS, 'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'" });
        res.end(NO_TOKEN_PAGE);
        return;
      }
      res.setHeader('www-authenticate', 'Bearer realm="mailroom"');
      return sendError(res, new MailroomError(ErrorCode.unauthorized, 'Missing or wrong token. Send Authorization: Bearer <token> (the token is in <data-dir>/token).', undefined, 401));
    }

    if (isApi) return await api(req, res, url);
    if (isMcp) {
      const body = req.method === 'POST' ? await readJson(req) : undefined;
      return await mcp.handle(req, res, body);
    }
    if (isHub) {
      if (url.pathname === `${HUB_PATH}/negotiate` && req.method === 'POST') return hub.handleNegotiate(req, res);
      return sendJson(res, 400, { code: 'invalid_argument', message: 'Connect to the hub with a SignalR client (negotiate, then WebSocket).' });
    }
    if (!opts.staticDir) return sendError(res, new MailroomError(ErrorCode.notFound, 'No UI in this mode.', undefined, 404));
    serveStatic(opts.staticDir, url.pathname, res, { ...SECURITY_HEADERS, 'content-security-policy': contentSecurityPolicy(port) });
  };

  /** The last resort for one request: it fails alone (500 `internal` if nothing was sent yet), the owner keeps serving. */
  const failRequest = (req: IncomingMessage, res: ServerResponse, e: unknown) => {
    if (statusOf(e) >= 500) log.error('request failed', { method: req.method, target: String(req.url).slice(0, 300), error: String(e), stack: (e as Error)?.stack });
    try {
      if (!res.headersSent) sendError(res, e);
      else res.destroy();
    } catch {
      res.destroy();
    }
  };

  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    // Upgraded sockets have no HTTP-server error handling: a reset must not become an uncaught exception.
    socket.on('error', (e) => log.debug('upgrade socket error', { error: String(e) }));
    const reject = (status: number, text: string) =>
      endAndDestroy(socket, `HTTP/1.1 ${status} ${text}\r\nContent-Type: text/plain\r\nConnection: close\r\n\r\n${text}\r\n`);
    try {
      if (!checkHostAndOrigin(req, port).ok) return reject(403, 'Forbidden');
      const url = parseTarget(req.url, port);
      if (!url) return reject(400, 'Bad Request');
      if (url.pathname !== HUB_PATH) return reject(404, 'Not Found');
      if (!isAuthorized(req, url, false, true)) return reject(401, 'Unauthorized');
      hub.handleUpgrade(req, socket, head);
    } catch (e) {
      // The last resort for one connection: close it with an error, log, keep serving.
      log.error('upgrade failed', { target: String(req.url).slice(0, 300), error: String(e), stack: (e as Error)?.stack });
      if (socket.writable) reject(500, 'Internal Server Error');
      else socket.destroy();
    }
  };

  const server = http.createServer((req, res) => {
    // Someone waits on this answer (not on a long-lived event stream): background work steps aside until it is sent.
    if (!(req.method === 'GET' && /text\/event-stream/.test(req.headers.accept ?? ''))) res.once('close', beginInteractive());
    onRequest(req, res).catch((e) => failRequest(req, res, clientErrorOf(e)));
  });
  // Malformed HTTP (bad request line, oversized headers …): a plain 400 and the socket is gone.
  server.on('clientError', (err: NodeJS.ErrnoException, socket: Duplex) => {
    log.debug('malformed http request', { error: String(err), code: err.code });
    // Like Node's default: answer only if nothing of a response went out on this socket yet.
    if (err.code !== 'ECONNRESET' && socket.writable && (socket as Socket).bytesWritten === 0) {
      const status = err.code === 'HPE_HEADER_OVERFLOW' ? '431 Request Header Fields Too Large' : err.code === 'ERR_HTTP_REQUEST_TIMEOUT' ? '408 Request Timeout' : '400 Bad Request';
      const body = JSON.stringify({ code: ErrorCode.invalidArgument, message: 'Malformed HTTP request.' });
      endAndDestroy(socket, `HTTP/1.1 ${status}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`);
    } else socket.destroy();
  });
  server.on('upgrade', onUpgrade);
  // Idle keep-alive sockets stay open well past what clients keep them for (undici: 4 s), so a
  // client never reuses a socket the owner has just closed (a "fetch failed" on a busy machine).
  server.keepAliveTimeout = 30_000;

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  port = (server.address() as AddressInfo).port;
  log.info('http server listening', { port });

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    async close() {
      // Hub sockets are upgraded connections the HTTP server no longer tracks: close them first.
      await hub.stop();
      await mcp.close();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
