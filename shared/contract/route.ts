/**
 * The typed route table: each REST route is defined once here, with its method, path, body
 * schema and reply schema. The owner implements it (`implement` in the kernel), the renderer's
 * client and the CLI call it (`call(route, args)`), and TypeScript keeps the three in step.
 * No Node or DOM imports: zod only.
 */
import type { z } from 'zod';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

type ParamNames<P extends string> = P extends `${string}:${infer N}/${infer Rest}` ? N | ParamNames<`/${Rest}`> : P extends `${string}:${infer N}` ? N : never;

/** `{ id: string }` for `/api/routes/:id`. */
export type PathParams<P extends string> = { [K in ParamNames<P>]: string };

export interface RouteSpec<M extends HttpMethod = HttpMethod, P extends string = string, B extends z.ZodType | undefined = z.ZodType | undefined, R extends z.ZodType = z.ZodType> {
  method: M;
  path: P;
  /** The JSON body; undefined for routes without one (or with a raw / streamed body). */
  body: B;
  reply: R;
}

/** Defines one route of the table. */
export function route<M extends HttpMethod, P extends string, R extends z.ZodType, B extends z.ZodType | undefined = undefined>(method: M, path: P, spec: { reply: R; body?: B }): RouteSpec<M, P, B, R> {
  return { method, path, body: spec.body as B, reply: spec.reply };
}

export type ReplyOf<S extends RouteSpec> = z.infer<S['reply']>;
/** What a caller sends (before defaults are applied). */
export type BodyOf<S extends RouteSpec> = S['body'] extends z.ZodType ? z.input<S['body']> : never;
/** What a handler receives after parsing the body with the route's schema. */
export type ParsedBodyOf<S extends RouteSpec> = S['body'] extends z.ZodType ? z.output<S['body']> : never;

type Query = Record<string, string | number | boolean | undefined>;

/** The arguments a call needs: path parameters when the path has any, a body when the route takes one. */
export type CallArgs<S extends RouteSpec> = ([ParamNames<S['path']>] extends [never] ? { params?: undefined } : { params: PathParams<S['path']> }) &
  (S['body'] extends z.ZodType ? { body: BodyOf<S> } : { body?: undefined }) & { query?: Query };

/** The URL path of a call: parameters filled in (URI-encoded) and the query appended. */
export function pathOf<P extends string>(path: P, params?: Partial<Record<string, string>>, query?: Query): string {
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

/** Something that can send a request to the owner's REST API and return the parsed JSON reply. */
export type Requester = (method: HttpMethod, path: string, body?: unknown) => Promise<unknown>;

/** A typed call of one route through any requester (the renderer's fetch, the CLI's runtime). */
export async function callRoute<S extends RouteSpec>(request: Requester, spec: S, args: CallArgs<S>): Promise<ReplyOf<S>> {
  const reply = await request(spec.method, pathOf(spec.path, args.params, args.query), args.body);
  // The reply's type is the contract's; the owner's handler is type-checked against the same schema.
  return reply as ReplyOf<S>;
}
