/**
 * Memory's contract: the analyze_message, save_memory and search_memory tools' shapes, which are
 * also the REST bodies and replies of `/api/memory...`. zod only.
 */
import { z } from 'zod';
import { route } from './route';
import { AnalysisDto, MAX_CHARS } from './nlp';

/** Long inputs are checked by the nlp layer with a `too_large` error that says the limit; zod only rejects absurd sizes. */
export const messageText = (what: string) => z.string().max(MAX_CHARS * 10, `${what} is far too long`);

export const MemoryDto = z.object({
  id: z.string(),
  path: z.string(),
  content: z.string(),
  entities: z.array(z.string()),
  tags: z.array(z.string()),
  strength: z.number(),
  created: z.string(),
  updated: z.string(),
  source: z.string().optional(),
  intent: z.string().optional(),
  reinforced: z.number().int(),
});
export type MemoryDto = z.infer<typeof MemoryDto>;

export const AnalyzeMessageInput = z.object({
  message: messageText('message').describe('The user message, up to 10,000 characters.'),
  context: z.array(messageText('context message')).max(10).optional().describe('Earlier messages, oldest first.'),
});

export const SaveMemoryInput = z.object({
  content: messageText('content').describe("What to remember, in the user's words."),
  entities: z.array(z.string().max(200)).max(50).optional(),
  tags: z.array(z.string().max(60)).max(30).optional(),
  strength: z.number().min(0).max(2).optional().describe('Importance 0–2; 1 is ordinary.'),
  source: z.string().max(200).optional().describe('Where it came from, e.g. "claude-desktop".'),
  on_duplicate: z.enum(['merge', 'create']).optional().describe('Default "merge".'),
});
export const SaveMemoryResult = z.object({
  status: z.enum(['created', 'merged', 'created_despite_duplicate']),
  memory: MemoryDto,
  duplicate_of: z.string().optional(),
  similarity: z.number().optional(),
  enriched: z.object({ entities: z.boolean(), tags: z.boolean(), strength: z.boolean() }),
});

export const SearchMemoryInput = z.object({
  query: z.string().max(2000).describe('What to look for; may be empty when filtering by entities/tags.'),
  entities: z.array(z.string()).max(20).optional(),
  tags: z.array(z.string()).max(20).optional(),
  limit: z.number().int().min(1).max(100).optional().describe('Default 10.'),
});
export const SearchMemoryResult = z.object({ results: z.array(MemoryDto.extend({ score: z.number() })), total: z.number().int() });

/** GET /api/memory: `q` (words) and `limit` (checked as search_memory's limit). */
export const MemorySearchQuery = z.object({
  q: z.string().default(''),
  limit: z
    .string()
    .optional()
    .transform((v) => (v === undefined ? undefined : Number(v))),
});

export const memoryRoutes = {
  analyze: route('POST', '/api/memory/analyze', { body: AnalyzeMessageInput, reply: AnalysisDto }),
  save: route('POST', '/api/memory', { body: SaveMemoryInput, reply: SaveMemoryResult }),
  search: route('GET', '/api/memory', { query: MemorySearchQuery, reply: SearchMemoryResult }),
} as const;
