/**
 * What the rest of Mailroom asks of on-device understanding. The models issue implements it
 * with ONNX models; until they load, `heuristicNlp` (below, in heuristic.ts) answers.
 */
export const INTENTS = [
  'SAVE_PREFERENCE',
  'SAVE_DECISION',
  'SAVE_FACT',
  'RECALL_INFO',
  'UPDATE_INFO',
  'QUESTION',
  'GREETING',
] as const;
export type Intent = (typeof INTENTS)[number];

export const ENTITY_TYPES = ['PERSON', 'ORG', 'PRODUCT', 'GPE', 'DATE', 'TIME'] as const;
export type EntityType = (typeof ENTITY_TYPES)[number];

export interface EntitySpan {
  text: string;
  type: EntityType;
  /** UTF-16 offsets into the input, end exclusive. */
  start: number;
  end: number;
  score: number;
}

export interface IntentResult {
  intent: Intent;
  confidence: number;
  probs: Record<Intent, number>;
  /** Probability that the message explicitly asks to save/remember something (extra head). */
  explicitSave?: number;
  /** 'low' | 'normal' | 'high' urgency (extra head, used by inbox and mail triage). */
  urgency?: { label: 'low' | 'normal' | 'high'; probs: Record<'low' | 'normal' | 'high', number> };
}

export interface Nlp {
  /** 'onnx' when the shipped models are loaded, 'heuristic' otherwise. */
  readonly backend: 'onnx' | 'heuristic';
  entities(text: string): Promise<EntitySpan[]>;
  intent(text: string): Promise<IntentResult>;
}
