import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNlp, similarity, type NlpDomain } from '../../../electron/core/domains/nlp';
import { resolveConfig } from '../../../electron/core/host/config';
import { silentLogger, type CoreContext } from '../../../electron/core/kernel';
import { REPO_ROOT, tempDir } from '../../helpers/owner';
import { createCoreContext } from '../../../electron/core/host/context';

function ctxWith(models?: Record<string, string>): CoreContext {
  const dataDir = tempDir();
  if (models) fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ models }));
  const config = resolveConfig({ dataDir, vault: tempDir(), env: {}, appRoot: REPO_ROOT });
  return createCoreContext(config, { broadcast() {} }, { log: silentLogger(), platform: { kind: 'headless', notify() {}, setBadge() {}, badges: () => ({}), secrets: { encrypt: (s) => s, decrypt: (s) => s } } }).ctx;
}

let nlp: NlpDomain;
beforeAll(async () => {
  nlp = await createNlp(ctxWith());
});
afterAll(() => nlp.stop?.());

describe('analyze_message engine', () => {
  it('runs on the shipped ONNX models', () => {
    expect(nlp.backend).toBe('onnx');
    expect(nlp.info().models.map((m) => m.card.name)).toEqual(['intent', 'ner']);
  });

  it('always recommends MUST_SAVE for an explicit save request', async () => {
    for (const m of ['Remember that I prefer TypeScript over JavaScript', 'note: the garage code is 4471', 'for the record, we chose Stripe']) {
      const a = await nlp.analyze(m);
      expect(a.action_recommendation, m).toBe('MUST_SAVE');
      expect(a.should_save).toBe(true);
    }
  });

  it('pre-fills entities, tags and a strength for a preference', async () => {
    const a = await nlp.analyze('I prefer TypeScript over JavaScript for new projects');
    expect(a.intent).toBe('SAVE_PREFERENCE');
    expect(a.action_recommendation).toBe('SHOULD_SAVE');
    expect(a.suggested_entities).toEqual(expect.arrayContaining(['TypeScript', 'JavaScript']));
    expect(a.suggested_tags).toContain('preference');
    expect(a.suggested_strength).toBeGreaterThanOrEqual(1);
    expect(a.suggested_strength).toBeLessThanOrEqual(2);
    expect(Object.values(a.intent_probs).reduce((x, y) => x + y, 0)).toBeCloseTo(1, 2);
  });

  it('recommends a search for a recall question but not for a general question', async () => {
    expect((await nlp.analyze('what did I tell you about the postgres migration?')).action_recommendation).toBe('SHOULD_SEARCH');
    expect((await nlp.analyze('do you remember how recursion works?')).action_recommendation).not.toBe('MUST_SAVE');
  });

  it('reads a bare confirmation against the previous message', async () => {
    const a = await nlp.analyze("yes, let's do that", { context: ['Should we go with SQLite for the desktop app?'] });
    expect(a.intent).toBe('SAVE_DECISION');
  });

  it('answers empty and emoji-only messages with NONE', async () => {
    expect((await nlp.analyze('')).action_recommendation).toBe('NONE');
    expect((await nlp.analyze('🎉🎉')).action_recommendation).toBe('NONE');
  });

  it('falls back to heuristics when the configured model file is missing', async () => {
    const fallback = await createNlp(ctxWith({ intent: '/nonexistent/intent.onnx' }));
    expect(fallback.backend).toBe('heuristic');
    expect(fallback.info().error).toBeTruthy();
    expect((await fallback.analyze('Remember that my passport expires in May')).action_recommendation).toBe('MUST_SAVE');
  });

  it('scores near-identical memories as duplicates and different ones as not', () => {
    expect(similarity('I prefer TypeScript over JavaScript', 'i prefer typescript over javascript!')).toBeGreaterThan(0.85);
    expect(similarity('I prefer TypeScript over JavaScript', 'My dentist is Dr. Patel')).toBeLessThan(0.5);
  });
});
