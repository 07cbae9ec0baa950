/** zod shapes shared by the three memory tools (one definition: schemas, validation, types). */
import { z } from 'zod';
import { ACTIONS, ENTITY_TYPES, INTENTS, MAX_CHARS } from '../nlp';

export const EntityOut = z.object({
  text: z.string(),
  type: z.enum(ENTITY_TYPES),
  start: z.number().int(),
  end: z.number().int(),
  score: z.number(),
});

export const MemoryOut = z.object({
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

/** Long inputs are checked by the nlp layer with a `too_large` error that says the limit; zod only rejects absurd sizes. */
export const messageText = (what: string) => z.string().max(MAX_CHARS * 10, `${what} is far too long`);

export const AnalysisOut = z.object({
  should_save: z.boolean(),
  action_recommendation: z.enum(ACTIONS),
  intent: z.enum(INTENTS),
  confidence: z.number(),
  intent_probs: z.record(z.string(), z.number()),
  explicit_save: z.boolean(),
  urgency: z.enum(['low', 'normal', 'high']),
  suggested_entities: z.array(z.string()),
  entities: z.array(EntityOut),
  suggested_tags: z.array(z.string()),
  suggested_strength: z.number(),
  duplicate_of: z.object({ id: z.string(), path: z.string().optional(), similarity: z.number(), content: z.string() }).optional(),
  reasoning: z.string(),
  backend: z.enum(['onnx', 'heuristic']),
});
