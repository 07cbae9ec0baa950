import type { ParsedQueryOf, PathParams, ReplyOf, RouteSpec } from '../../../shared/contract/route';
import { invalidArgument } from './errors';
import type { ApiRequest, RawResponse, RouteDef } from './types';
import { present } from './errors';

/** A request to a contract route: path parameters named by its path, the query parsed by its schema. */
export interface ContractRequest<S extends RouteSpec> extends Omit<ApiRequest, 'params' | 'query'> {
  params: PathParams<S['path']>;
  query: ParsedQueryOf<S>;
}

type Reply<S extends RouteSpec> = ReplyOf<S> | RawResponse;

export interface ImplementOptions extends Pick<RouteDef, 'rawBody' | 'maxBytes' | 'streamBody'> {
  /**
   * How a bad query is named in the error: "Invalid <queryName>: q: …". Without it the error is
   * the schema's own message(s), for routes whose schemas say what to do in words.
   */
  queryName?: string;
}

/** Parses a request's query with a route's schema; a bad one is an `invalid_argument` error (400). */
export function parseQuery<S extends RouteSpec>(spec: S, query: URLSearchParams, queryName?: string): ParsedQueryOf<S> {
  if (!spec.query) return {} as ParsedQueryOf<S>;
  const r = spec.query.safeParse(Object.fromEntries(query));
  if (r.success) return r.data as ParsedQueryOf<S>;
  const issues = r.error.issues.map((i) => ({ path: i.path.map(String), message: i.message }));
  const message = queryName ? `Invalid ${queryName}: ${issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ')}` : issues.map((i) => i.message).join('; ');
  throw invalidArgument(message, { issues });
}

/**
 * Implements one route of the shared route table: method and path come from the contract, the
 * query is parsed with the contract's schema, and the handler's reply is type-checked against
 * the contract's reply schema (what the renderer and the CLI are typed with). Bodies are parsed
 * by the handler (`parseWith(spec.body, …)`), so each route keeps its own error wording.
 */
export function implement<S extends RouteSpec>(spec: S, handler: (req: ContractRequest<S>) => Reply<S> | Promise<Reply<S>>, options: ImplementOptions = {}): RouteDef {
  const { queryName, ...def } = options;
  return {
    method: spec.method,
    path: spec.path,
    ...def,
    // The HTTP layer fills `params` from this very path, so every named parameter is present.
    handler: (req) => handler({ ...req, params: req.params as PathParams<S['path']>, query: parseQuery(spec, req.query, queryName) }),
  };
}

/**
 * A path parameter of a route that is not in the shared contract yet. The HTTP layer fills every
 * `:name` of the route's own path, so a miss is a typo in the handler (an `internal` error).
 */
export function pathParam(req: ApiRequest, name: string): string {
  return present(req.params[name], `path parameter :${name}`);
}
