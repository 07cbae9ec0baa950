/**
 * Urgency as named signals weighed by a model: the hand weights, or learned weights shipped as
 * JSON (electron/core/domains/mail/urgency-weights.json, written by bench/_urgency-train.ts).
 */
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { urgencyOf, urgencySignals } from '../../../electron/core/domains/mail/urgency';
import { HAND_MODEL, LEVELS, SHIPPED_MODEL, featureId, parseUrgencyModel, scoreSignals, weightOn, type UrgencyModel } from '../../../electron/core/domains/mail/urgency-model';
import { acknowledgedOutage, newsletterMessage, senderFacts, urgencyInput } from './helpers';

const WEIGHTS = path.resolve(__dirname, '../../../electron/core/domains/mail/urgency-weights.json');
const file = JSON.parse(fs.readFileSync(WEIGHTS, 'utf8')) as { enabled: boolean; features: Record<string, Record<string, number>> };
const facts = senderFacts;
const input = urgencyInput;
const acknowledged = acknowledgedOutage;
const newsletter = newsletterMessage;

/** The learned weights as written, whether or not the file is enabled. */
const learned = parseUrgencyModel({ ...file, enabled: true });

describe('the urgency weights file', () => {
  it('loads: every feature is named signal@level with a finite weight on each level, or the file is disabled and the hand weights decide', () => {
    expect(typeof file.enabled).toBe('boolean');
    for (const [id, w] of Object.entries(file.features)) {
      expect(id).toMatch(/^.+@(low|medium|high)$/);
      for (const l of LEVELS) expect(Number.isFinite(w[l])).toBe(true);
      expect(Number.isFinite(w.hand)).toBe(true);
    }
    if (file.enabled) expect(SHIPPED_MODEL.name).toBe('learned');
    else expect(SHIPPED_MODEL).toBe(HAND_MODEL);
    if (Object.keys(file.features).length) expect(learned?.name).toBe('learned');
  });

  it('a clearly urgent message (production down, acknowledged, unresolved) stays high and a newsletter low, under the shipped, hand and learned weights', () => {
    for (const model of [SHIPPED_MODEL, HAND_MODEL, ...(learned ? [learned] : [])]) {
      const urgent = urgencyOf(acknowledged, model);
      expect(urgent.urgency).toBe('high');
      expect(urgent.reasons.filter((r) => r.level === 'high' && r.weight > 0).map((r) => r.signal)).toContain('thread still open');
      expect(urgencyOf(newsletter, model).urgency).toBe('low');
    }
  });

  it('a malformed or disabled file is no model (the hand weights stay in charge)', () => {
    expect(parseUrgencyModel({ enabled: false, features: { 'prior@low': { low: 1, medium: 0, high: 0 } } })).toBeUndefined();
    expect(parseUrgencyModel({ enabled: true, features: { 'prior@low': { low: 1, medium: Number.NaN, high: 0 } } })).toBeUndefined();
    expect(parseUrgencyModel({ enabled: true, features: { 'prior@low': { low: 1, medium: 0 } } })).toBeUndefined();
    expect(parseUrgencyModel({ enabled: true, features: { prior: { low: 1, medium: 0, high: 0 } } })).toBeUndefined();
    expect(parseUrgencyModel('nonsense')).toBeUndefined();
  });
});

describe('urgency signals and models', () => {
  it('the hand model scores each signal by its hand weight on its own level only', () => {
    const signals = urgencySignals(acknowledged);
    const { weights } = scoreSignals(signals, HAND_MODEL);
    for (const l of LEVELS) expect(weights[l]).toBeCloseTo(signals.filter((s) => s.level === l).reduce((a, s) => a + s.hand * s.value, 0), 9);
    // signals read for the learned model only carry no hand weight
    expect(signals.some((s) => s.hand === 0)).toBe(true);
  });

  it('a model moves weight between levels by name; a signal it does not name keeps its hand weight', () => {
    const signals = urgencySignals(newsletter);
    const list = signals.find((s) => s.key === 'mailing list');
    expect(list).toBeDefined();
    // a (deliberately wrong) model that reads list mail as pressing
    const odd: UrgencyModel = { name: 'learned', weights: { [featureId(list!)]: { low: 0, medium: 0, high: 9 } } };
    expect(weightOn(odd, list!, 'high')).toBe(9);
    const other = signals.find((s) => s.key !== 'mailing list' && s.hand !== 0)!;
    expect(weightOn(odd, other, other.level)).toBe(other.hand);
    expect(urgencyOf(newsletter, odd).urgency).toBe('high');
    expect(urgencyOf(newsletter, HAND_MODEL).urgency).toBe('low');
  });

  it('the person\'s definitions are read as signals: how well each level fits, its best clause, and which fits best', () => {
    const receipt = input({ subject: 'Your receipt', body: 'Here is your receipt for the notices subscription. Nothing is needed from you.', facts: facts('vendor') });
    const keys = new Set(urgencySignals(receipt).map((s) => featureId(s)));
    expect(keys.has('definition fits best@low')).toBe(true);
    expect(new Set(urgencySignals(acknowledged).map((s) => featureId(s))).has('definition fits best@high')).toBe(true);
    expect([...keys].filter((k) => k.startsWith('definition clause@')).length).toBeGreaterThan(0);
  });
});
