import { z } from 'zod';
import { invalidArgument } from '../../kernel/errors';
import { parseWith } from '../../kernel/tool';
import type { RouteDef } from '../../kernel/types';
import type { RouterService } from './service';

const ItemBody = z
  .object({ path: z.string().optional(), item: z.record(z.string(), z.unknown()).optional() })
  .passthrough()
  .refine((v) => !!v.path !== !!v.item, { message: 'give exactly one of path (a note in the vault) or item ({ title, content, … })' });
const TestBody = z.object({ path: z.string().optional(), item: z.record(z.string(), z.unknown()).optional(), confirm: z.boolean().optional() });
const RouteItemBody = z.object({ path: z.string().optional(), item: z.record(z.string(), z.unknown()).optional(), dry_run: z.boolean().default(false), route_id: z.string().optional() });

/** REST for the Routes page (the seed's API under /api). */
export function routerRoutes(s: RouterService): RouteDef[] {
  return [
    { method: 'GET', path: '/api/mcp-adapters', handler: () => s.listAdapters() },
    { method: 'POST', path: '/api/mcp-adapters', handler: (req) => s.createAdapter(req.body) },
    { method: 'GET', path: '/api/mcp-adapters/:id', handler: (req) => s.adapterDto(s.store.adapter(req.params.id)) },
    { method: 'PUT', path: '/api/mcp-adapters/:id', handler: (req) => s.updateAdapter(req.params.id, req.body) },
    {
      method: 'DELETE',
      path: '/api/mcp-adapters/:id',
      handler: async (req) => {
        await s.deleteAdapter(req.params.id);
        return { ok: true };
      },
    },
    { method: 'POST', path: '/api/mcp-adapters/:id/test', handler: (req) => s.testAdapter(req.params.id) },
    { method: 'GET', path: '/api/mcp-adapters/:id/tools', handler: (req) => s.tools(req.params.id, req.query.get('refresh') === '1') },

    { method: 'GET', path: '/api/routes', handler: () => s.listRoutes() },
    { method: 'POST', path: '/api/routes', handler: (req) => s.createRoute(req.body) },
    { method: 'POST', path: '/api/routes/reorder', handler: (req) => s.reorder(req.body) },
    { method: 'GET', path: '/api/routes/:id', handler: (req) => s.routeDto(s.store.route(req.params.id)) },
    { method: 'PUT', path: '/api/routes/:id', handler: (req) => s.updateRoute(req.params.id, req.body) },
    {
      method: 'DELETE',
      path: '/api/routes/:id',
      handler: (req) => {
        s.deleteRoute(req.params.id);
        return { ok: true };
      },
    },
    { method: 'POST', path: '/api/routes/:id/check', handler: (req) => s.checkRoute(req.params.id) },
    {
      method: 'POST',
      path: '/api/routes/:id/preview',
      handler: (req) => {
        const b = parseWith(ItemBody, req.body, 'preview request');
        return s.preview(req.params.id, b, { origin: 'api' });
      },
    },
    {
      method: 'POST',
      path: '/api/routes/:id/test',
      handler: (req) => {
        const b = parseWith(TestBody, req.body, 'test request');
        // A test really calls the target tool; the UI asks first and says so.
        if (b.confirm !== true) throw invalidArgument('Testing a route sends the item to the target for real. Send { "confirm": true } to go ahead.');
        if (!!b.path === !!b.item) throw invalidArgument('Give exactly one of path or item.');
        return s.routeItem(b, { routeId: req.params.id, toolContext: { origin: 'api' } });
      },
    },

    {
      method: 'POST',
      path: '/api/router/route',
      handler: (req) => {
        const b = parseWith(RouteItemBody, req.body, 'route request');
        if (!!b.path === !!b.item) throw invalidArgument('Give exactly one of path or item.');
        return s.routeItem(b, { dryRun: b.dry_run, routeId: b.route_id, toolContext: { origin: 'api' } });
      },
    },
    { method: 'GET', path: '/api/router/status', handler: () => s.statuses() },
    { method: 'GET', path: '/api/distributions', handler: (req) => s.distributions(req.query) },
  ];
}
