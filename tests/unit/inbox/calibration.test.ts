import { describe, expect, it } from 'vitest';
import { accuracy, calibration, evaluateFiling, highConfidence } from '../../../bench/_vault-eval';

describe('filing on the labelled vault (tests/fixtures/vault-eval)', () => {
  it('beats the ADR sketch, and suggestions with confidence ≥ 0.8 are right at least 90% of the time', async () => {
    const r = await evaluateFiling();
    expect(r.notes).toBeGreaterThanOrEqual(150);
    expect(r.ours.length).toBeGreaterThanOrEqual(40);
    expect(accuracy(r.ours)).toBeGreaterThan(accuracy(r.baseline));
    const hi = highConfidence(r.ours);
    expect(hi.n).toBeGreaterThanOrEqual(10);
    expect(hi.accuracy).toBeGreaterThanOrEqual(0.9);
    // Confidence means something: the top bucket is at least as right as the bottom one.
    const table = calibration(r.ours).filter((b) => b.n > 0);
    expect(table[table.length - 1].accuracy).toBeGreaterThanOrEqual(table[0].accuracy);
  }, 30_000);
});
