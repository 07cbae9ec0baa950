/**
 * How the model's explicit-save head and the phrase detector combine. Shared by
 * analyze_message and the evaluation, so the number in the card is the behaviour users get.
 */
import type { Intent, IntentResult } from './contract';
import type { PhraseSignals } from './phrases';

/** The head's probability above which a message with no save phrase at all counts as an explicit save request. */
export const EXPLICIT_SAVE_THRESHOLD = 0.8;

/** The same, when the intent head reads the message as a question, a recall request or a greeting (which rarely ask to keep anything). */
export const EXPLICIT_SAVE_THRESHOLD_QUESTION = 0.95;

/**
 * A save clause the detector found but could not confirm ("remember I hate cilantro") is a save
 * unless the model is nearly sure it is not. Negated, question-bound, reminiscing and
 * task-scoped clauses never reach this point: the detector vetoes them.
 */
export const WEAK_PHRASE_THRESHOLD = 0.01;

export function isExplicitSave(modelProb: number | undefined, phrases: PhraseSignals, intent?: Intent): boolean {
  const p = modelProb ?? 0;
  if (phrases.saveStrong) return true;
  if (phrases.saveRequest) return p >= WEAK_PHRASE_THRESHOLD;
  // A negated, question-bound or task-scoped save word ("no need to remember this") vetoes the model.
  if (phrases.saveNegated) return false;
  return p >= (intent === 'QUESTION' || intent === 'GREETING' || intent === 'RECALL_INFO' ? EXPLICIT_SAVE_THRESHOLD_QUESTION : EXPLICIT_SAVE_THRESHOLD);
}

/** Intents that can carry a save request: a statement that asks to be kept keeps its content intent. */
const SAVEABLE: readonly Intent[] = ['SAVE_PREFERENCE', 'SAVE_DECISION', 'SAVE_FACT', 'UPDATE_INFO'];

/**
 * A message that asks the assistant to keep something is, by the label definitions, a preference,
 * decision, fact or correction, never a question, greeting or recall request ("store this
 * preference: no emoji in the emails you draft" is not a question). When the save decision is
 * yes and the intent head says otherwise, the most probable saveable intent is taken.
 */
export function intentGivenSave(result: IntentResult, explicitSave: boolean): IntentResult {
  if (!explicitSave || SAVEABLE.includes(result.intent)) return result;
  let best: Intent = 'SAVE_FACT';
  for (const k of SAVEABLE) if ((result.probs[k] ?? 0) > (result.probs[best] ?? 0)) best = k;
  return { ...result, intent: best, confidence: result.probs[best] ?? 0 };
}
