/**
 * How the model's explicit-save head and the phrase detector combine. Shared by
 * analyze_message and the evaluation, so the number in the card is the behaviour users get.
 */
import type { PhraseSignals } from './phrases';

/** The head's probability above which a message counts as an explicit save request. */
export const EXPLICIT_SAVE_THRESHOLD = 0.5;

export function isExplicitSave(modelProb: number | undefined, phrases: PhraseSignals): boolean {
  if (phrases.saveRequest) return true;
  // A negated or task-scoped save word ("no need to remember this") vetoes the model.
  if (phrases.saveNegated) return false;
  return (modelProb ?? 0) >= EXPLICIT_SAVE_THRESHOLD;
}
