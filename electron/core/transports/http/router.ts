import type { IncomingMessage, ServerResponse } from 'node:http';
import { MailroomError, statusOf, toErrorShape } from '../../kernel/errors';
import { ErrorCode } from '../../../../shared/errors';
import { RawResponse, type RouteDef } from '../../kernel/types';
import type { Logger } from '../../kernel/log';
import { clientErrorOf, decodePathPart } from './errors';

interface Compiled {
  def: RouteDef;
  re: RegExp;
  keys: string[];
}

function compile(def: RouteDef): Compiled {
  const keys: string[] = [];
  const pattern = def.path
    .split('/')
    .map((seg) => {
      if (seg.startsWith(':')) {
        keys.push(seg.slice(1));
        return '([^/]+)';
      }
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { def, re: new RegExp(`^${pattern}/?$`), keys };
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'cache-control': 'no-store' });
  res.end(text);
}

export function sendError(res: ServerResponse, err: unknown): void {
  sendJson(res, statusOf(err), toErrorShape(err));
}

async function readBody(req: IncomingMessage, max: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > max) {
      throw new MailroomError(ErrorCode.tooLarge, `Request body is larger than ${max} bytes.`, { max_bytes: max });
    }
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/** A small REST router: domains contribute RouteDefs; errors become `{ code, message, details? }`. */
export function createApiRouter(routes: RouteDef[], log: Logger) {
  const compiled = routes.map(compile);
  return async function handle(req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
    const method = (req.method ?? 'GET').toUpperCase();
    let pathMatched = false;
    for (const c of compiled) {
      const m = c.re.exec(url.pathname);
      if (!m) continue;
      pathMatched = true;
      if (c.def.method !== method) continue;
      const params: Record<string, string> = {};
      try {
        // Every key is a `([^/]+)` group, so it always matched a non-empty segment.
        c.keys.forEach((k, i) => {
          const seg = m[i + 1] ?? '';
          params[k] = decodePathPart(seg, `The path segment '${seg.slice(0, 200)}'`);
        });
        let body: unknown = undefined;
        if (method !== 'GET' && method !== 'DELETE' && !c.def.streamBody) {
          const raw = await readBody(req, c.def.maxBytes ?? (c.def.rawBody ? 512 * 1024 * 1024 : 1024 * 1024));
          if (c.def.rawBody) body = raw;
          else if (raw.length > 0) {
            try {
              body = JSON.parse(raw.toString('utf8'));
            } catch {
              throw new MailroomError(ErrorCode.invalidArgument, 'Request body is not valid JSON.');
            }
          }
        }
        const result = await c.def.handler({ params, query: url.searchParams, body, headers: req.headers, ...(c.def.streamBody ? { stream: req as AsyncIterable<Buffer> } : {}) });
        if (result instanceof RawResponse) {
          res.writeHead(result.status, result.headers);
          res.end(result.body);
        } else if (result === undefined) {
          res.writeHead(204).end();
        } else {
          sendJson(res, method === 'POST' ? 200 : 200, result);
        }
      } catch (caught) {
        const e = clientErrorOf(caught);
        if (statusOf(e) >= 500) log.error('api route failed', { path: url.pathname, error: String(e), stack: (e as Error).stack });
        if (!res.headersSent) sendError(res, e);
        else res.destroy();
      }
      return;
    }
    sendError(
      res,
      pathMatched
        ? new MailroomError('method_not_allowed', `${method} is not allowed on ${url.pathname}.`, undefined, 405)
        : new MailroomError(ErrorCode.notFound, `No API route ${method} ${url.pathname}.`, undefined, 404),
    );
  };
}
