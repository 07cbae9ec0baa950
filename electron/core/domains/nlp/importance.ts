/**
 * Importance 0–2 (the seed's `strength`): a base by intent, raised by importance markers and by
 * an explicit request to keep it. Rounded to one decimal so the same message always gets the
 * same number.
 */
import type { Intent } from './contract';
import type { PhraseSignals } from './phrases';

const BASE: Partial<Record<Intent, number>> = {
  SAVE_DECISION: 1.3,
  SAVE_PREFERENCE: 1.1,
  SAVE_FACT: 1.0,
  UPDATE_INFO: 1.1,
  RECALL_INFO: 0.5,
  QUESTION: 0.5,
  GREETING: 0.2,
};

export function scoreImportance(intent: Intent, phrases: Pick<PhraseSignals, 'importanceLevel'>, explicitSave: boolean): number {
  let s = BASE[intent] ?? 1.0;
  if (explicitSave) s = Math.max(s, 1.0) + 0.2;
  s += phrases.importanceLevel === 2 ? 0.6 : phrases.importanceLevel === 1 ? 0.3 : 0;
  return Math.round(Math.min(2, Math.max(0, s)) * 10) / 10;
}
