import type { CoreContext, ToolContext } from '../../kernel/types';
import { SchemaValidator } from './mapping/validate';
import { ClientPool } from './pool';
import { ToolRegistry } from './registry';
import { RouterStore, type DistributionFilter } from './store';
import type { Adapter, RoutableItem, Route } from './types';
import { HubEvent } from '../../../../shared/contract/hub';
import { RouterCatalog } from './catalog';
import { RouterDispatch } from './dispatch';

/** The wire shapes are the shared contract's (renderer and owner use the same definitions). */
export type { Adapter as AdapterDto, Route as RouteDto } from '../../../../shared/contract/router';
import type { Adapter as AdapterDto, Route as RouteDto } from '../../../../shared/contract/router';
export type { RouterDeps, Prepared, AttemptDto, RouteItemResult } from './dispatch';
import type { RouterDeps } from './dispatch';

/**
 * The router, put together: its catalog (storage: adapters, routes, schemas) and its dispatch
 * (policy and transport: mapping, validation, calls with retries). This face keeps one API for
 * the REST routes, the MCP tools and the mail domain.
 */
export class RouterService {
  readonly store: RouterStore;
  readonly pool: ClientPool;
  readonly registry: ToolRegistry;
  readonly catalog: RouterCatalog;
  readonly dispatch: RouterDispatch;

  constructor(ctx: CoreContext, deps: RouterDeps = {}) {
    this.store = new RouterStore(ctx.stateDb, ctx.platform.secrets, ctx.clock);
    this.pool = new ClientPool({
      clock: ctx.clock,
      log: ctx.log.child('router'),
      version: ctx.config.version,
      adapter: (id) => this.store.adapter(id),
      onStatus: (s) => ctx.hub.broadcast(HubEvent.routerAdapterStatus, s),
      onRestart: (id) => this.registry.invalidate(id),
      maxRestarts: deps.maxRestarts,
    });
    this.registry = new ToolRegistry(this.pool, ctx.clock);
    const cfgBackoff = (ctx.config.file as { router?: { backoff_ms?: unknown } }).router?.backoff_ms;
    const backoff = deps.backoffMs ?? (Array.isArray(cfgBackoff) && cfgBackoff.every((n) => typeof n === 'number') ? (cfgBackoff as number[]) : [1000, 2000, 4000]);
    this.catalog = new RouterCatalog(ctx, this.store, this.pool, this.registry);
    this.dispatch = new RouterDispatch(ctx, this.catalog, deps, backoff);
  }

  get validator(): SchemaValidator {
    return this.dispatch.validator;
  }

  // ---- catalog (storage) ----
  commandProblem = (a: Adapter) => this.catalog.commandProblem(a);
  adapterDto = (a: Adapter): AdapterDto => this.catalog.adapterDto(a);
  listAdapters = () => this.catalog.listAdapters();
  createAdapter = (body: unknown) => this.catalog.createAdapter(body);
  updateAdapter = (id: string, body: unknown) => this.catalog.updateAdapter(id, body);
  deleteAdapter = (id: string) => this.catalog.deleteAdapter(id);
  testAdapter = (id: string) => this.catalog.testAdapter(id);
  tools = (id: string, refresh = false) => this.catalog.tools(id, refresh);
  routeDto = (r: Route): RouteDto => this.catalog.routeDto(r);
  listRoutes = () => this.catalog.listRoutes();
  createRoute = (body: unknown) => this.catalog.createRoute(body);
  updateRoute = (id: string, body: unknown) => this.catalog.updateRoute(id, body);
  deleteRoute = (id: string) => this.catalog.deleteRoute(id);
  reorder = (body: unknown) => this.catalog.reorder(body);
  checkRoute = (id: string) => this.catalog.checkRoute(id);
  distributions = (filter: DistributionFilter) => this.catalog.distributions(filter);
  statuses = () => this.catalog.statuses();

  // ---- dispatch (policy and transport) ----
  prepare = (route: Route, item: RoutableItem, tctx?: ToolContext) => this.dispatch.prepare(route, item, tctx);
  resolve = (input: { path?: string; item?: unknown }) => this.dispatch.resolve(input);
  candidates = (item: RoutableItem) => this.dispatch.candidates(item);
  preview = (routeId: string, input: { path?: string; item?: unknown }, tctx?: ToolContext) => this.dispatch.preview(routeId, input, tctx);
  routeItem = (input: { path?: string; item?: unknown }, opts: { dryRun?: boolean; routeId?: string; toolContext?: ToolContext } = {}) => this.dispatch.routeItem(input, opts);

  async stop(): Promise<void> {
    await this.pool.stop();
  }
}
