import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import type { MemoryService } from '../service';
import { MemoryOut, messageText } from '../schemas';

export const saveMemoryTool = (svc: MemoryService) =>
  defineTool({
    name: 'save_memory',
    title: 'Save a memory',
    description:
      'Stores something worth remembering as a markdown note in the vault\'s memory/ folder (frontmatter: entities, tags, strength, created), versioned with the vault. Entities, tags and strength are filled in by the on-device models when omitted. If a near-identical memory exists it is returned and merged into (tags/entities united, strength raised) instead of writing a second copy; pass on_duplicate: "create" to save anyway.',
    input: z.object({
      content: messageText('content').describe('What to remember, in the user\'s words.'),
      entities: z.array(z.string().max(200)).max(50).optional(),
      tags: z.array(z.string().max(60)).max(30).optional(),
      strength: z.number().min(0).max(2).optional().describe('Importance 0–2; 1 is ordinary.'),
      source: z.string().max(200).optional().describe('Where it came from, e.g. "claude-desktop".'),
      on_duplicate: z.enum(['merge', 'create']).optional().describe('Default "merge".'),
    }),
    output: z.object({
      status: z.enum(['created', 'merged', 'created_despite_duplicate']),
      memory: MemoryOut,
      duplicate_of: z.string().optional(),
      similarity: z.number().optional(),
      enriched: z.object({ entities: z.boolean(), tags: z.boolean(), strength: z.boolean() }),
    }),
    handler: async (args) => svc.save(args),
  });
