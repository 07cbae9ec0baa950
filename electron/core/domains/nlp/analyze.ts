/**
 * analyze_message's engine: phrase detector + intent model + NER + importance + tags +
 * recent context + duplicate check, combined by the seed's rule (an explicit save request is
 * always MUST_SAVE).
 */
import type { EntitySpan, Intent, IntentResult, Nlp } from './contract';
import { detectPhrases } from './phrases';
import { intentGivenSave, isExplicitSave } from './activation';
import { scoreImportance } from './importance';
import { suggestTags } from './tags';
import { CONFIRMATION_RE } from './context';
import { assertSize } from './limits';

import type { Action } from '../../../../shared/contract/nlp';
export { ACTIONS, type Action } from '../../../../shared/contract/nlp';

/** Intent confidence above which a save-type intent becomes SHOULD_SAVE (the seed's 0.8 on calibrated probabilities, lowered for 7 classes). */
export const SHOULD_SAVE_CONFIDENCE = 0.6;
export const SHOULD_SEARCH_CONFIDENCE = 0.5;

export interface Analysis {
  should_save: boolean;
  action_recommendation: Action;
  intent: Intent;
  confidence: number;
  intent_probs: Record<Intent, number>;
  explicit_save: boolean;
  urgency: 'low' | 'normal' | 'high';
  suggested_entities: string[];
  entities: EntitySpan[];
  suggested_tags: string[];
  suggested_strength: number;
  duplicate_of?: { id: string; path?: string; similarity: number; content: string };
  reasoning: string;
  backend: 'onnx' | 'heuristic';
}

export interface AnalyzeOptions {
  /** Earlier messages of the conversation, oldest first. */
  context?: readonly string[];
  /** Looks for a stored memory this message would duplicate. */
  findDuplicate?: (message: string) => Promise<{ id: string; path?: string; similarity: number; content: string } | undefined>;
}

const SAVE_INTENTS: readonly Intent[] = ['SAVE_PREFERENCE', 'SAVE_DECISION', 'SAVE_FACT', 'UPDATE_INFO'];

/** Entity strings without repeats (case-insensitive), in reading order. */
export function entityStrings(entities: readonly EntitySpan[]): string[] {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const e of entities) {
    const k = e.text.toLowerCase();
    if (!seen.has(k)) {
      seen.add(k);
      out.push(e.text);
    }
  }
  return out;
}

export async function analyzeMessage(nlp: Nlp, message: string, opts: AnalyzeOptions = {}): Promise<Analysis> {
  assertSize(message);
  for (const c of opts.context ?? []) assertSize(c, 'context message');
  const text = message.trim();
  if (!/[\p{L}\p{N}]/u.test(text)) {
    const probs = await nlp.intent('');
    return {
      should_save: false,
      action_recommendation: 'NONE',
      intent: 'GREETING',
      confidence: 0,
      intent_probs: probs.probs,
      explicit_save: false,
      urgency: 'normal',
      suggested_entities: [],
      entities: [],
      suggested_tags: [],
      suggested_strength: 0,
      reasoning: text ? 'No words to analyse (only symbols or emoji).' : 'Empty message.',
      backend: nlp.backend,
    };
  }
  const phrases = detectPhrases(message);
  const [ir, entities] = await Promise.all([nlp.intent(message), nlp.entities(message)]);
  let result: IntentResult = ir;
  const reasons: string[] = [];

  // A bare confirmation takes its meaning from the previous message: agreeing to a proposal is a decision.
  const previous = opts.context?.[opts.context.length - 1];
  if (previous && CONFIRMATION_RE.test(text) && text.length < 80) {
    const prev = await nlp.intent(previous);
    if (SAVE_INTENTS.includes(prev.intent) || prev.intent === 'QUESTION') {
      result = { ...ir, intent: 'SAVE_DECISION', confidence: Math.max(ir.probs.SAVE_DECISION, 0.6) };
      reasons.push('Confirms the previous message, read as a decision');
    }
  }
  const explicit = isExplicitSave(result.explicitSave, phrases, result.intent);
  const saveable = intentGivenSave(result, explicit);
  if (saveable !== result) reasons.push(`Asks to keep something: read as ${saveable.intent}, not ${result.intent}`);
  result = saveable;
  const strength = scoreImportance(result.intent, phrases, explicit);
  const tags = suggestTags(message, result.intent, entities);
  let duplicate: Analysis['duplicate_of'];
  if ((explicit || SAVE_INTENTS.includes(result.intent)) && opts.findDuplicate) duplicate = await opts.findDuplicate(message);

  let action: Action = 'NONE';
  if (explicit) action = 'MUST_SAVE';
  else if (SAVE_INTENTS.includes(result.intent) && result.confidence >= SHOULD_SAVE_CONFIDENCE) action = 'SHOULD_SAVE';
  else if ((result.intent === 'RECALL_INFO' && result.confidence >= SHOULD_SEARCH_CONFIDENCE) || (phrases.recallRequest && result.intent !== 'QUESTION' && result.intent !== 'GREETING')) action = 'SHOULD_SEARCH';

  if (explicit) reasons.unshift(`Explicit save request${phrases.matched.length ? `: "${phrases.matched[0]}"` : ''}`);
  else if (phrases.saveNegated) reasons.push('Save words present but negated or part of a question/instruction');
  reasons.push(`Intent ${result.intent} (${result.confidence.toFixed(2)})`);
  if (phrases.importanceMarker) reasons.push(`Importance marker (level ${phrases.importanceLevel})`);
  if (entities.length) reasons.push(`Entities: ${entityStrings(entities).join(', ')}`);
  if (duplicate) reasons.push(`Similar to memory ${duplicate.id} (${duplicate.similarity.toFixed(2)})`);

  return {
    should_save: action === 'MUST_SAVE' || action === 'SHOULD_SAVE',
    action_recommendation: action,
    intent: result.intent,
    confidence: result.confidence,
    intent_probs: result.probs,
    explicit_save: explicit,
    urgency: result.urgency?.label ?? 'normal',
    suggested_entities: entityStrings(entities),
    entities,
    suggested_tags: tags,
    suggested_strength: strength,
    ...(duplicate ? { duplicate_of: duplicate } : {}),
    reasoning: reasons.join('; '),
    backend: nlp.backend,
  };
}
