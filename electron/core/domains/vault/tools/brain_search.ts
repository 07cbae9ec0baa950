import { z } from 'zod';
import { defineTool } from '../../../kernel/tool';
import type { VaultApi } from '../api';

export const brainSearchTool = (vault: Pick<VaultApi, 'search' | 'indexStatus'>) =>
  defineTool({
    name: 'brain_search',
    title: 'Search the vault',
    description:
      'Full-text search (BM25) over the vault\'s notes: titles, aliases, tags and text. Words are ANDed (falls back to OR), "quoted phrases" match exactly, word* matches a prefix. Returns paths, titles and short snippets; read a note with brain_read_note. While the vault is still being indexed (start-up of a large vault) it returns the hits so far plus indexing: { done, total }.',
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
      indexing: z
        .object({ done: z.number().int(), total: z.number().int(), note: z.string() })
        .optional()
        .describe('Present while the index is still being built: results cover only the notes indexed so far.'),
    }),
    handler: (args) => {
      const hits = vault.search(args.query, { limit: args.limit, folder: args.folder });
      const st = vault.indexStatus();
      if (st.state === 'ready') return { hits };
      return { hits, indexing: { done: st.done, total: st.total, note: `The vault is still being indexed (${st.done.toLocaleString('en')} / ${st.total ? st.total.toLocaleString('en') : '?'} notes); these are the hits so far. Search again shortly for complete results.` } };
    },
  });
