import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import type { VaultApi } from '../api';

export const brainSearchTool = (vault: Pick<VaultApi, 'search'>) =>
  defineTool({
    name: 'brain_search',
    title: 'Search the vault',
    description:
      'Full-text search (BM25) over the vault\'s notes: titles, aliases, tags and text. Words are ANDed (falls back to OR), "quoted phrases" match exactly, word* matches a prefix. Returns paths, titles and short snippets; read a note with brain_read_note.',
    annotations: { readOnlyHint: true },
    input: z
      .object({
        query: z.string().min(1).max(500).describe('Words, "a phrase", or a prefix*'),
        limit: z.number().int().min(1).max(50).optional().describe('Max hits (default 10)'),
        folder: z.string().max(500).optional().describe('Only notes under this folder, e.g. family/kids'),
      })
      .strict(),
    output: z.object({
      hits: z.array(z.object({ path: z.string(), title: z.string(), snippet: z.string(), score: z.number() })),
    }),
    handler: (args) => ({ hits: vault.search(args.query, { limit: args.limit, folder: args.folder }) }),
  });
