import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import type { RouterService } from '../service';

/** list_routes: what the router would do, in the order it tries routes. */
export function listRoutesTool(s: RouterService) {
  return defineTool({
    name: 'list_routes',
    title: 'List routes',
    description: 'The router\'s routes in the order they are tried (highest priority first): when each applies, which MCP server and tool it sends to, and whether it is enabled.',
    annotations: { readOnlyHint: true },
    input: z.object({}).strict(),
    output: z.object({
      routes: z.array(
        z.object({
          id: z.string(),
          name: z.string(),
          enabled: z.boolean(),
          priority: z.number(),
          when: z.string(),
          condition: z.unknown(),
          adapter: z.string().nullable(),
          tool: z.string(),
          mapper: z.string(),
          instructions: z.string(),
          allow_fallback: z.boolean(),
          schema_drift: z.boolean().nullable(),
        }),
      ),
    }),
    handler: () => ({
      routes: s.listRoutes().map((r) => ({
        id: r.id,
        name: r.name,
        enabled: r.enabled,
        priority: r.priority,
        when: r.condition_text,
        condition: r.condition,
        adapter: r.adapter_name,
        tool: r.tool,
        mapper: r.mapper,
        instructions: r.instructions,
        allow_fallback: r.allow_fallback,
        schema_drift: r.schema_drift,
      })),
    }),
  });
}
