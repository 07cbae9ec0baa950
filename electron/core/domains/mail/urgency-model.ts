/**
 * How much each urgency signal counts. `urgency.ts` reads named signals from a message (each
 * with the level it speaks for, a value and a hand-chosen weight); a model turns them into a
 * score per level: score(level) = Σ weight(signal, level) × value. The hand model gives each
 * signal its hand weight on its own level. A learned model (`urgency-weights.json`, written by
 * `bench/_urgency-train.ts` from the labelled mailboxes by multinomial logistic regression with
 * L2 towards the hand weights) may give a signal weight on any level; a signal the file does not
 * name keeps its hand weight, and a file that is missing, disabled or malformed leaves the hand
 * model in charge.
 */
import shipped from './urgency-weights.json' with { type: 'json' };

export type Urgency = 'low' | 'medium' | 'high';
export const LEVELS: readonly Urgency[] = ['low', 'medium', 'high'];

/** One piece of evidence read from a message. */
export interface UrgencySignal {
  /** Stable name: the model's weights are keyed by `${key}@${level}`. */
  key: string;
  /** The level the signal speaks for (where its hand weight goes). */
  level: Urgency;
  /** How much of it the message has (1 for yes/no signals, a count, a similarity). */
  value: number;
  /** The hand-chosen weight per unit of value. */
  hand: number;
  /** What the explanation shows (the key, with details such as the deadline's words). */
  label: string;
}

export interface UrgencyModel {
  name: 'hand' | 'learned';
  /** Per feature id (`key@level`), the weight on each level per unit of value. */
  weights: Record<string, Record<Urgency, number>>;
}

export const HAND_MODEL: UrgencyModel = { name: 'hand', weights: {} };

export const featureId = (s: Pick<UrgencySignal, 'key' | 'level'>): string => `${s.key}@${s.level}`;

/** The weight a model gives a signal on one level (the hand weight on its own level when the model does not name it). */
export function weightOn(model: UrgencyModel, s: UrgencySignal, level: Urgency): number {
  const w = model.weights[featureId(s)];
  if (w) return w[level];
  return level === s.level ? s.hand : 0;
}

/**
 * The weights file as a model, or undefined when it is disabled or malformed: every feature
 * must have a finite weight for each level.
 */
export function parseUrgencyModel(json: unknown): UrgencyModel | undefined {
  if (!json || typeof json !== 'object') return undefined;
  const o = json as { enabled?: unknown; features?: unknown };
  if (o.enabled !== true || !o.features || typeof o.features !== 'object') return undefined;
  const weights: Record<string, Record<Urgency, number>> = {};
  for (const [id, f] of Object.entries(o.features as Record<string, unknown>)) {
    if (!/^.+@(low|medium|high)$/.test(id) || !f || typeof f !== 'object') return undefined;
    const w = f as Record<string, unknown>;
    const row = { low: w.low, medium: w.medium, high: w.high };
    if (!LEVELS.every((l) => typeof row[l] === 'number' && Number.isFinite(row[l]))) return undefined;
    weights[id] = row as Record<Urgency, number>;
  }
  return Object.keys(weights).length ? { name: 'learned', weights } : undefined;
}

/** The model the app uses: the shipped learned weights when they load, else the hand weights. */
export const SHIPPED_MODEL: UrgencyModel = parseUrgencyModel(shipped) ?? HAND_MODEL;

export interface UrgencyReason {
  signal: string;
  level: Urgency;
  weight: number;
}

/** Scores the signals under a model: per-level totals and every contribution, largest first. */
export function scoreSignals(signals: UrgencySignal[], model: UrgencyModel): { weights: Record<Urgency, number>; reasons: UrgencyReason[] } {
  const weights: Record<Urgency, number> = { low: 0, medium: 0, high: 0 };
  const reasons: UrgencyReason[] = [];
  for (const s of signals) {
    for (const level of LEVELS) {
      const w = weightOn(model, s, level) * s.value;
      if (!w) continue;
      weights[level] += w;
      reasons.push({ signal: s.label, level, weight: Math.round(w * 1000) / 1000 });
    }
  }
  reasons.sort((x, y) => Math.abs(y.weight) - Math.abs(x.weight));
  return { weights, reasons };
}
