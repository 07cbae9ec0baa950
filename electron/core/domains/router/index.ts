import type { CoreContext, Domain, ToolContext } from '../../kernel/types';
import { routerRoutes } from './routes';
import { RouterService, type RouteItemResult, type RouterDeps } from './service';
import type { DistributionRun } from './store';
import { listRoutesTool } from './tools/list_routes';
import { routeItemTool } from './tools/route_item';
import type { RoutableItem } from './types';

export { RouterService, type RouteItemResult, type RouterDeps, type AdapterDto, type RouteDto, type Prepared } from './service';
export type { RoutableItem, VaultLike, InboxLike, Adapter, Route, AdapterStatus, DistributionRow } from './types';
export { matches, parseCondition, describeCondition, type Condition } from './conditions';
export { renderTemplate, templateMap, schemaDefaults } from './mapping/template';
export { openAiLlm, samplingLlm, type LlmClient } from './mapping/llm';

/**
 * What other domains hand to `routeItem`: a vault note by `path`, or an item. `route` names a
 * route (by name or id) to use instead of matching conditions — mail triage suggests one;
 * `metadata` is available to mappings as `frontmatter.*`.
 */
export type RouteItemInput = Partial<RoutableItem> & { path?: string; route?: string; metadata?: Record<string, unknown> };

export interface RouterApi {
  service: RouterService;
  /** Routes an item (or a vault note by path) — the mail domain and the inbox call this. */
  routeItem(item: RouteItemInput, opts?: { dryRun?: boolean; toolContext?: ToolContext }): Promise<RouteItemResult>;
  /** The distribution log, read back (History). */
  journal: { runs(limit: number): DistributionRun[]; run(runId: string): DistributionRun | undefined };
}

export type Router = Domain & RouterApi;

/** The MCP router (seed 001): adapters, routes, client pool, tool registry, mapping, distribution log. */
export function createRouter(ctx: CoreContext, deps: RouterDeps = {}): Router {
  const service = new RouterService(ctx, deps);
  const ready = () => service.store.ready();
  return {
    name: 'router',
    service,
    journal: { runs: (limit) => (ready() ? service.store.distributionRuns(limit) : []), run: (runId) => (ready() ? service.store.distributionRun(runId) : undefined) },
    tools: [routeItemTool(service), listRoutesTool(service)],
    routes: routerRoutes(service),
    counts: (): Record<string, number> =>
      ready() ? { mcp_adapters: service.store.listAdapters().length, routes: service.store.listRoutes().length, distributions: service.store.countDistributions() } : {},
    routeItem(input, opts = {}) {
      const { route, metadata, ...rest } = input;
      const forced = route ? service.store.listRoutes().find((r) => r.id === route || r.name.toLowerCase() === route.toLowerCase()) : undefined;
      const isNoteRef = rest.path !== undefined && rest.title === undefined && rest.content === undefined;
      const item = { ...rest, intent: rest.intent ?? (typeof metadata?.intent === 'string' ? metadata.intent : undefined), frontmatter: { ...(metadata ?? {}), ...(rest.frontmatter ?? {}) } };
      return service.routeItem(isNoteRef ? { path: rest.path } : { item }, { dryRun: opts.dryRun, routeId: forced?.id, toolContext: opts.toolContext });
    },
    start() {
      // Until migration 004 is in the state DB's list the tables are absent: stay inert, not fatal.
      if (!ready()) {
        ctx.log.error('router tables are missing: migration 004_router is not registered in db/migrations/index.ts; routes stay off');
        return;
      }
      // Values older versions kept in clear (names the old rule missed, secret args/URL parameters).
      const sealed = service.store.upgradeSecrets();
      if (sealed.length) ctx.log.info('sealed adapter secrets stored in clear by an older version', { adapters: sealed.length });
    },
    async stop() {
      await service.stop();
    },
  };
}
export type { DistributionRun } from './store';
