import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import { invalidArgument } from '../../../kernel/errors';
import type { RouterService } from '../service';

const Err = z.object({ code: z.string(), message: z.string() }).nullable();

/** route_item: send an inbox item (or any item) to the first matching route's MCP server. */
export function routeItemTool(s: RouterService) {
  return defineTool({
    name: 'route_item',
    title: 'Route an item to another MCP server',
    description:
      'Sends an item through the router: the first enabled route (by priority) whose conditions match maps it to the target tool\'s arguments and calls it, with retries. ' +
      'Give `path` (a note in the vault, e.g. inbox/todo.md) or `item` ({ title, content, tags, entities, intent, folder, source }). ' +
      'With dry_run: true nothing is sent; you get the matched route and the arguments it would send. Returns the route, the arguments (secrets redacted) and the target\'s result.',
    annotations: { destructiveHint: false, openWorldHint: true },
    input: z
      .object({
        path: z.string().optional().describe('A note in the vault, relative to its root'),
        item: z
          .object({
            title: z.string().optional(),
            content: z.string().optional(),
            tags: z.array(z.string()).optional(),
            entities: z.array(z.string()).optional(),
            intent: z.string().optional(),
            folder: z.string().optional(),
            source: z.string().optional(),
            date: z.string().optional(),
            path: z.string().optional(),
          })
          .optional()
          .describe('The item itself, when it is not a vault note'),
        dry_run: z.boolean().optional().describe('Only show what would be sent'),
      })
      .strict(),
    output: z.object({
      status: z.enum(['ok', 'failed', 'unrouted', 'dry_run']),
      run_id: z.string().nullable(),
      matched: z.object({ id: z.string(), name: z.string(), adapter_id: z.string(), tool: z.string() }).nullable(),
      candidates: z.array(z.object({ id: z.string(), name: z.string() })),
      args: z.record(z.string(), z.unknown()).nullable(),
      validation: z.object({ valid: z.boolean(), errors: z.array(z.string()), warning: z.string().optional() }).nullable(),
      mapper: z.string().nullable(),
      result: z.unknown(),
      attempts: z.array(z.object({ attempt: z.number(), status: z.enum(['ok', 'error']), retryable: z.boolean(), error: z.string().nullable(), duration_ms: z.number() })),
      skipped: z.array(z.object({ id: z.string(), name: z.string(), reason: z.string() })),
      error: Err,
    }),
    handler: async (args, ctx) => {
      if (!!args.path === !!args.item) throw invalidArgument('Give exactly one of path (a vault note) or item.');
      const r = await s.routeItem({ path: args.path, item: args.item }, { dryRun: args.dry_run, toolContext: ctx });
      const { item: _item, ...rest } = r;
      return rest;
    },
  });
}
