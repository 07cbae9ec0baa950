/**
 * The typed route table: each REST route is defined once here, with its method, path, query,
 * body schema and reply schema. The owner implements it (`implement` in the kernel, which parses
 * the query with the route's schema), the renderer's client and the CLI call it
 * (`call(route, args)`), and TypeScript keeps the three in step.
 * No Node or DOM imports, and zod only as types: zod-free callers (the session hook) can use
 * `pathOf` without loading it. Query helpers are in ./query.
 */
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}` ? N | ParamNames<`/${Rest}`> : P extends `${string}:${infer N}` ? N : never;

/** `{ id: string }` for `/api/routes/:id`. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

type Schema = z.ZodType | undefined;

export interface RouteSpec<M extends HttpMethod = HttpMethod, P extends string = string, B extends Schema = Schema, R extends z.ZodType = z.ZodType, Q extends Schema = Schema> {
  method: M;
  path: P;
  /** The JSON body; undefined for routes without one (or with a raw / streamed body). */
  body: B;
  /**
   * The query string, as an object of its parameters (each a string on the wire); the owner parses
   * it with this schema before the handler runs. Undefined for routes that read no query.
   */
  query: Q;
  reply: R;
}

/** Defines one route of the table. */
export function route<M extends HttpMethod, P extends string, R extends z.ZodType, B extends Schema = undefined, Q extends Schema = undefined>(
  method: M,
  path: P,
  spec: { reply: R; body?: B; query?: Q },
): RouteSpec<M, P, B, R, Q> {
  return { method, path, body: spec.body as B, query: spec.query as Q, reply: spec.reply };
}

export type ReplyOf<S extends RouteSpec> = z.infer<S['reply']>;
/** What a caller sends (before defaults are applied). */
export type BodyOf<S extends RouteSpec> = S['body'] extends z.ZodType ? z.input<S['body']> : never;
/** What a handler receives after parsing the body with the route's schema. */
export type ParsedBodyOf<S extends RouteSpec> = S['body'] extends z.ZodType ? z.output<S['body']> : never;
/** The query a handler receives, parsed with the route's schema (`{}` for routes without one). */
export type ParsedQueryOf<S extends RouteSpec> = S['query'] extends z.ZodType ? z.output<S['query']> : Record<string, never>;

type QueryValue = string | number | boolean | undefined;
/** What a caller may put in the query string: the parameters the route's schema names. */
export type QueryOf<S extends RouteSpec> = S['query'] extends z.ZodType ? { [K in keyof z.input<S['query']>]?: QueryValue } : never;

/** The arguments a call needs: path parameters when the path has any, a body when the route takes one, a query when it reads one. */
export type CallArgs<S extends RouteSpec> = ([ParamNames<S['path']>] extends [never] ? { params?: undefined } : { params: PathParams<S['path']> }) &
  (S['body'] extends z.ZodType ? { body: BodyOf<S> } : { body?: undefined }) &
  (S['query'] extends z.ZodType ? { query?: QueryOf<S> } : { query?: undefined });

/** The URL path of a call: parameters filled in (URI-encoded) and the query appended. */
export function pathOf<P extends string>(path: P, params?: Partial<Record<string, string>>, query?: Record<string, QueryValue>): string {
  const filled = path.replace(/:([A-Za-z_]+)/g, (_m, name: string) => {
    const v = params?.[name];
    if (v === undefined) throw new Error(`${path}: missing path parameter "${name}"`);
    return encodeURIComponent(v);
  });
  const q = Object.entries(query ?? {})
    .filter((e): e is [string, string | number | boolean] => e[1] !== undefined)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`);
  return q.length ? `${filled}?${q.join('&')}` : filled;
}

/** The URL path of one route's call (for raw or streamed bodies sent without `callRoute`). */
export function urlOf<S extends RouteSpec>(spec: S, args: Pick<CallArgs<S>, 'params' | 'query'>): string {
  const a = args as { params?: Partial<Record<string, string>>; query?: Record<string, QueryValue> };
  return pathOf(spec.path, a.params, a.query);
}

/** Something that can send a request to the owner's REST API and return the parsed JSON reply. */
export type Requester = (method: HttpMethod, path: string, body?: unknown) => Promise<unknown>;

/** A typed call of one route through any requester (the renderer's fetch, the CLI's runtime). */
export async function callRoute<S extends RouteSpec>(request: Requester, spec: S, args: CallArgs<S>): Promise<ReplyOf<S>> {
  const a = args as { params?: Partial<Record<string, string>>; query?: Record<string, QueryValue>; body?: unknown };
  const reply = await request(spec.method, pathOf(spec.path, a.params, a.query), a.body);
  // The reply's type is the contract's; the owner's handler is type-checked against the same schema.
  return reply as ReplyOf<S>;
}
