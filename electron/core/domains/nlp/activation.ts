/**
 * How the model's explicit-save head and the phrase detector combine. Shared by
 * analyze_message and the evaluation, so the number in the card is the behaviour users get.
 */
import type { PhraseSignals } from './phrases';

/** The head's probability above which a message counts as an explicit save request. */
export const EXPLICIT_SAVE_THRESHOLD = 0.5;

/** A clause the detector found but could not confirm ("don't forget X") still needs this much from the model. */
export const WEAK_PHRASE_THRESHOLD = 0.2;

export function isExplicitSave(modelProb: number | undefined, phrases: PhraseSignals): boolean {
  const p = modelProb ?? 0;
  if (phrases.saveStrong) return true;
  if (phrases.saveRequest) return p >= WEAK_PHRASE_THRESHOLD;
  // A negated, question-bound or task-scoped save word ("no need to remember this") vetoes the model.
  if (phrases.saveNegated) return false;
  return p >= EXPLICIT_SAVE_THRESHOLD;
}
