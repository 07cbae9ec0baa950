import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxNlp } from '../../../electron/core/domains/nlp/onnx';
import { viterbi, allowedTransition } from '../../../electron/core/domains/nlp/decode';
import { heuristicNlp, MAX_CHARS } from '../../../electron/core/domains/nlp';
import { REPO_ROOT } from '../../helpers/owner';

let nlp: OnnxNlp;
beforeAll(async () => {
  nlp = await OnnxNlp.load({ intent: path.join(REPO_ROOT, 'models', 'intent.onnx'), ner: path.join(REPO_ROOT, 'models', 'ner.onnx') });
});
afterAll(() => nlp.dispose());

describe('entity decoding', () => {
  it('returns character spans that cut exactly the entity out of the input', async () => {
    const text = 'Lunch with Dr. Amara Singh from Acme Corp in Berlin next Tuesday at 3pm, we use postgres.';
    const spans = await nlp.entities(text);
    for (const s of spans) expect(text.slice(s.start, s.end)).toBe(s.text);
    const byText = Object.fromEntries(spans.map((s) => [s.text, s.type]));
    expect(byText['Amara Singh']).toBe('PERSON');
    expect(byText['Berlin']).toBe('GPE');
    expect(byText['next Tuesday']).toBe('DATE');
    expect(byText['3pm']).toBe('TIME');
    expect(byText['postgres']).toBe('PRODUCT');
    for (const s of spans) expect(s.score).toBeGreaterThan(0);
  });

  it('keeps offsets right around emoji and accents', async () => {
    const text = '🎉🎉 Met Søren Kierkegaard in Copenhagen 🚀';
    const spans = await nlp.entities(text);
    for (const s of spans) expect(text.slice(s.start, s.end)).toBe(s.text);
    expect(spans.map((s) => s.text)).toContain('Copenhagen');
  });

  it('handles empty and emoji-only text without entities', async () => {
    expect(await nlp.entities('')).toEqual([]);
    expect(await nlp.entities('🙂🙂🙂')).toEqual([]);
    const r = await nlp.intent('');
    expect(Object.values(r.probs).reduce((a, b) => a + b, 0)).toBeCloseTo(1, 2);
  });

  it('rejects input over the limit with a too_large error that states the limit, quickly', async () => {
    const big = 'remember this please '.repeat(Math.ceil((MAX_CHARS + 10) / 21));
    const t0 = performance.now();
    await expect(nlp.entities(big)).rejects.toMatchObject({ code: 'too_large' });
    await expect(nlp.intent(big)).rejects.toThrow(String(MAX_CHARS));
    await expect(heuristicNlp.intent(big)).rejects.toMatchObject({ code: 'too_large' });
    expect(performance.now() - t0).toBeLessThan(1000);
  });

  it('reads a message right at the limit', async () => {
    const text = 'Maria works at Acme in Lisbon. '.repeat(400).slice(0, MAX_CHARS);
    const spans = await nlp.entities(text);
    expect(spans.length).toBeGreaterThan(100);
  });

  it('never lets an I- label start an entity', () => {
    const labels = ['O', 'B-PERSON', 'I-PERSON'];
    expect(allowedTransition('O', 'I-PERSON')).toBe(false);
    // The emissions prefer I-PERSON at t=0, which is not allowed.
    const lp = [Math.log(0.1), Math.log(0.2), Math.log(0.7), Math.log(0.1), Math.log(0.2), Math.log(0.7)];
    const path = viterbi(lp, 2, labels);
    expect(labels[path[0]]).not.toBe('I-PERSON');
  });
});
