/**
 * On-device understanding's REST contract (`/api/models`, `/api/nlp/analyze`): the shipped models
 * with their cards, and what one message analysis returns (also analyze_message's output). zod only.
 */
import { z } from 'zod';
import { route } from './route';

export const INTENTS = ['SAVE_PREFERENCE', 'SAVE_DECISION', 'SAVE_FACT', 'RECALL_INFO', 'UPDATE_INFO', 'QUESTION', 'GREETING'] as const;
export type Intent = (typeof INTENTS)[number];

export const ENTITY_TYPES = ['PERSON', 'ORG', 'PRODUCT', 'GPE', 'DATE', 'TIME'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

/** What to do with a message: save it (must / should), look something up, or nothing. */
export const ACTIONS = ['MUST_SAVE', 'SHOULD_SAVE', 'SHOULD_SEARCH', 'NONE'] as const;
export type Action = (typeof ACTIONS)[number];

/** Longest message the models read: beyond it a clear error, never a slow crawl. */
export const MAX_CHARS = 10_000;

export const EntityDto = z.object({
  text: z.string(),
  type: z.enum(ENTITY_TYPES),
  /** UTF-16 offsets into the input, end exclusive. */
  start: z.number().int(),
  end: z.number().int(),
  score: z.number(),
});
export type EntityDto = z.infer<typeof EntityDto>;

export const AnalysisDto = z.object({
  should_save: z.boolean(),
  action_recommendation: z.enum(ACTIONS),
  intent: z.enum(INTENTS),
  confidence: z.number(),
  intent_probs: z.record(z.string(), z.number()),
  explicit_save: z.boolean(),
  urgency: z.enum(['low', 'normal', 'high']),
  suggested_entities: z.array(z.string()),
  entities: z.array(EntityDto),
  suggested_tags: z.array(z.string()),
  suggested_strength: z.number(),
  duplicate_of: z.object({ id: z.string(), path: z.string().optional(), similarity: z.number(), content: z.string() }).optional(),
  reasoning: z.string(),
  backend: z.enum(['onnx', 'heuristic']),
});
export type AnalysisDto = z.infer<typeof AnalysisDto>;

const IoSchema = z.object({ name: z.string(), type: z.string(), shape: z.array(z.union([z.string(), z.number()])), description: z.string() });

export const HeadSchema = z.object({ output: z.string(), labels: z.array(z.string()), temperature: z.number() });

/** A model card: the JSON beside each ONNX file that says how to feed it and how good it is. */
export const ModelCardSchema = z.object({
  name: z.string(),
  version: z.string(),
  task: z.string(),
  file: z.string(),
  sha256: z.string(),
  bytes: z.number(),
  inputs: z.array(IoSchema),
  outputs: z.array(IoSchema),
  labels: z.array(z.string()),
  heads: z.record(z.string(), HeadSchema).optional(),
  features: z.object({ version: z.number(), buckets: z.number(), featurizer: z.string(), description: z.string() }),
  decoding: z.string().optional(),
  /** NER: log P(label_t | label_t-1) from the training corpus, [labels × labels]; row = previous. */
  transitions: z.array(z.array(z.number())).optional(),
  /** NER: log P(label_0), one per label. */
  start: z.array(z.number()).optional(),
  training: z.object({
    command: z.string(),
    seed: z.number(),
    algorithm: z.string(),
    epochs: z.number(),
    examples: z.record(z.string(), z.number()),
    corpus: z.string(),
  }),
  /** Evaluation figures; their shape differs per task (intent accuracy, NER precision/recall per type, …). */
  metrics: z.record(z.string(), z.unknown()),
});
export type ModelCard = z.infer<typeof ModelCardSchema>;

/** GET /api/models: which backend answers (the ONNX models or the heuristic fallback) and the loaded models' cards. */
export const ModelsInfo = z.object({
  backend: z.enum(['onnx', 'heuristic']),
  load_ms: z.number(),
  error: z.string().optional(),
  models: z.array(z.object({ path: z.string(), card: ModelCardSchema })),
});
export type ModelsInfo = z.infer<typeof ModelsInfo>;

export const NlpAnalyzeBody = z.object({ message: z.string(), context: z.array(z.string()).max(20).optional() });

export const nlpRoutes = {
  models: route('GET', '/api/models', { reply: ModelsInfo }),
  /** Settings → Models: try the models on one message. */
  analyze: route('POST', '/api/nlp/analyze', { body: NlpAnalyzeBody, reply: AnalysisDto }),
} as const;
