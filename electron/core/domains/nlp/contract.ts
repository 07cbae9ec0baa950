/**
 * What the rest of Mailroom asks of on-device understanding. The models issue implements it
 * with ONNX models; until they load, `heuristicNlp` (below, in heuristic.ts) answers.
 */
import type { EntityType, Intent } from '../../../../shared/contract/nlp';

export { INTENTS, ENTITY_TYPES, type Intent, type EntityType } from '../../../../shared/contract/nlp';

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
  /**
   * The mail urgency head's probabilities for a message's own words (`urgencyHeadText`), when
   * models/urgency.onnx is loaded; undefined otherwise.
   */
  mailUrgency?(text: string): Promise<Record<'low' | 'medium' | 'high', number> | undefined>;
}
