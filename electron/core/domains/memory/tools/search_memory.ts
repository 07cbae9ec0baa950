import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import type { MemoryService } from '../service';
import { MemoryOut } from '../schemas';

export const searchMemoryTool = (svc: MemoryService) =>
  defineTool({
    name: 'search_memory',
    title: 'Search memories',
    description:
      'Finds saved memories by words and meaning-alike wording, optionally only those with all the given entities and tags. Returns memories ranked by score (0–1), best first.',
    annotations: { readOnlyHint: true },
    input: z.object({
      query: z.string().max(2000).describe('What to look for; may be empty when filtering by entities/tags.'),
      entities: z.array(z.string()).max(20).optional(),
      tags: z.array(z.string()).max(20).optional(),
      limit: z.number().int().min(1).max(100).optional().describe('Default 10.'),
    }),
    output: z.object({ results: z.array(MemoryOut.extend({ score: z.number() })), total: z.number().int() }),
    handler: async (args) => svc.search(args),
  });
