import { invalidArgument } from '../../kernel/errors';
import { parseWith } from '../../kernel/tool';
import type { RouteDef } from '../../kernel/types';
import { implement } from '../../kernel/route';
import { routerRoutes as R, PreviewBody, RouteItemBody, TestRouteBody } from '../../../../shared/contract/router';
import type { RouterService } from './service';

/** REST for the Routes page (the seed's API under /api). */
export function routerRoutes(s: RouterService): RouteDef[] {
  return [
    implement(R.listAdapters, () => s.listAdapters()),
    implement(R.createAdapter, (req) => s.createAdapter(req.body)),
    implement(R.getAdapter, (req) => s.adapterDto(s.store.adapter(req.params.id))),
    implement(R.updateAdapter, (req) => s.updateAdapter(req.params.id, req.body)),
    implement(R.deleteAdapter, async (req) => {
      await s.deleteAdapter(req.params.id);
      return { ok: true };
    }),
    implement(R.testAdapter, (req) => s.testAdapter(req.params.id)),
    implement(R.adapterTools, (req) => s.tools(req.params.id, req.query.refresh)),

    implement(R.listRoutes, () => s.listRoutes()),
    implement(R.createRoute, (req) => s.createRoute(req.body)),
    implement(R.reorderRoutes, (req) => s.reorder(req.body)),
    implement(R.getRoute, (req) => s.routeDto(s.store.route(req.params.id))),
    implement(R.updateRoute, (req) => s.updateRoute(req.params.id, req.body)),
    implement(R.deleteRoute, (req) => {
      s.deleteRoute(req.params.id);
      return { ok: true };
    }),
    implement(R.checkRoute, (req) => s.checkRoute(req.params.id)),
    implement(R.previewRoute, (req) => {
      const b = parseWith(PreviewBody, req.body, 'preview request');
      return s.preview(req.params.id, b, { origin: 'api' });
    }),
    implement(R.testRoute, (req) => {
      const b = parseWith(TestRouteBody, req.body, 'test request');
      // A test really calls the target tool; the UI asks first and says so.
      if (b.confirm !== true) throw invalidArgument('Testing a route sends the item to the target for real. Send { "confirm": true } to go ahead.');
      if (!!b.path === !!b.item) throw invalidArgument('Give exactly one of path or item.');
      return s.routeItem(b, { routeId: req.params.id, toolContext: { origin: 'api' } });
    }),

    implement(R.routeItem, (req) => {
      const b = parseWith(RouteItemBody, req.body, 'route request');
      if (!!b.path === !!b.item) throw invalidArgument('Give exactly one of path or item.');
      return s.routeItem(b, { dryRun: b.dry_run, routeId: b.route_id, toolContext: { origin: 'api' } });
    }),
    implement(R.status, () => s.statuses()),
    implement(R.distributions, (req) => s.distributions(req.query)),
  ];
}
