import type { Config } from '../host/config';
import type { CliRuntime } from '../kernel/cli';

export type { CliRuntime } from '../kernel/cli';
import { createCore, type Core } from '../host/core';
import { findOwner } from '../host/lock';
import { MailroomError } from '../kernel/errors';
import { ErrorCode, isErrorShape } from '../../../shared/errors';
import { silentLogger } from '../kernel/log';
import type { RouteDef } from '../kernel/types';
import { RawResponse } from '../kernel/types';

function matchRoute(routes: RouteDef[], method: string, pathname: string): { def: RouteDef; params: Record<string, string> } | undefined {
  for (const def of routes) {
    if (def.method !== method) continue;
    const keys: string[] = [];
    const re = new RegExp(
      '^' +
        def.path
          .split('/')
          .map((s) => (s.startsWith(':') ? (keys.push(s.slice(1)), '([^/]+)') : s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
          .join('/') +
        '/?$',
    );
    const m = re.exec(pathname);
    if (m) {
      try {
        return { def, params: Object.fromEntries(keys.map((k, i) => [k, decodeURIComponent(m[i + 1] ?? '')])) };
      } catch {
        throw new MailroomError(ErrorCode.invalidArgument, `The path ${pathname} has malformed percent-encoding (a '%' must be followed by two hex digits forming UTF-8).`);
      }
    }
  }
  return undefined;
}

/**
 * CLI commands are thin REST calls: to the running owner when there is one (it owns the
 * databases), otherwise to a core started in-process just for this command.
 */
export function createCliRuntime(resolve: () => Config): CliRuntime {
  let config: Config | undefined;
  let local: Core | undefined;
  const cfg = () => (config ??= resolve());
  return {
    config: cfg,
    out: (t) => process.stdout.write(t.endsWith('\n') ? t : t + '\n'),
    err: (t) => process.stderr.write(t.endsWith('\n') ? t : t + '\n'),
    async call<T>(method: string, path: string, body?: unknown): Promise<T> {
      const c = cfg();
      if (!local) {
        const owner = await findOwner(c.dataDir, 2_000);
        if (owner) {
          const r = await fetch(owner.url + path, {
            method,
            headers: { authorization: `Bearer ${owner.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
            body: body === undefined ? undefined : Buffer.isBuffer(body) ? new Uint8Array(body) : JSON.stringify(body),
          });
          const text = await r.text();
          const data: unknown = text ? JSON.parse(text) : undefined;
          if (!r.ok) {
            if (isErrorShape(data)) throw new MailroomError(data.code, data.message, data.details, r.status);
            throw new MailroomError('http_error', `Owner answered HTTP ${r.status}.`);
          }
          return data as T;
        }
        local = await createCore(c, { log: silentLogger() });
        await local.start();
      }
      const url = new URL(path, 'http://cli.invalid');
      const hit = matchRoute(local.routes, method, url.pathname);
      if (!hit) throw new MailroomError('not_found', `No API route ${method} ${url.pathname}.`);
      const result = await hit.def.handler({ params: hit.params, query: url.searchParams, body, headers: {} });
      if (result instanceof RawResponse) return result.body as T;
      return result as T;
    },
    async close() {
      await local?.stop();
      local = undefined;
    },
  };
}
