import type { PathParams, ReplyOf, RouteSpec } from '../../../shared/contract/route';
import type { ApiRequest, RawResponse, RouteDef } from './types';
import { present } from './errors';

/** A request to a contract route: its path parameters are named by the route's path. */
export interface ContractRequest<S extends RouteSpec> extends Omit<ApiRequest, 'params'> {
  params: PathParams<S['path']>;
}

type Reply<S extends RouteSpec> = ReplyOf<S> | RawResponse;

/**
 * Implements one route of the shared route table: method and path come from the contract, and
 * the handler's reply is type-checked against the contract's reply schema (what the renderer and
 * the CLI are typed with). Bodies are parsed by the handler (`parseWith(spec.body, …)`), so each
 * route keeps its own error wording.
 */
export function implement<S extends RouteSpec>(spec: S, handler: (req: ContractRequest<S>) => Reply<S> | Promise<Reply<S>>, options: Pick<RouteDef, 'rawBody' | 'maxBytes' | 'streamBody'> = {}): RouteDef {
  return {
    method: spec.method,
    path: spec.path,
    ...options,
    // The HTTP layer fills `params` from this very path, so every named parameter is present.
    handler: (req) => handler(req as ContractRequest<S>),
  };
}

/**
 * A path parameter of a route that is not in the shared contract yet. The HTTP layer fills every
 * `:name` of the route's own path, so a miss is a typo in the handler (an `internal` error).
 */
export function pathParam(req: ApiRequest, name: string): string {
  return present(req.params[name], `path parameter :${name}`);
}
