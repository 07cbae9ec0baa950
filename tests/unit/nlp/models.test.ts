import path from 'node:path';
import fs from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { OnnxNlp } from '../../../electron/core/domains/nlp/onnx';
import { readCard } from '../../../electron/core/domains/nlp/cards';
import { evaluateAll } from '../../../models/train/evaluate';
import { REPO_ROOT } from '../../helpers/owner';

const models = path.join(REPO_ROOT, 'models');
let nlp: OnnxNlp;
let results: Awaited<ReturnType<typeof evaluateAll>>;

beforeAll(async () => {
  nlp = await OnnxNlp.load({ intent: path.join(models, 'intent.onnx'), ner: path.join(models, 'ner.onnx') });
  results = await evaluateAll(nlp, path.join(models, 'corpora'));
});
afterAll(() => nlp.dispose());

type Metrics = Record<string, unknown>;
const at = (o: unknown, ...keys: string[]): number => keys.reduce<unknown>((v, k) => (v as Metrics)[k], o) as number;

describe('shipped models', () => {
  it('load with cards whose hashes match the files', () => {
    for (const name of ['intent', 'ner']) {
      const card = readCard(path.join(models, `${name}.json`));
      const bytes = fs.readFileSync(path.join(models, card.file));
      expect(bytes.length).toBe(card.bytes);
    }
    expect(nlp.cards.map((c) => c.name)).toEqual(['intent', 'ner']);
  });

  it("reproduce the intent card's held-out metrics within 0.01", () => {
    const card = readCard(path.join(models, 'intent.json')).metrics;
    for (const keys of [['intent', 'accuracy'], ['intent', 'macro_f1'], ['explicit_save', 'recall'], ['explicit_save', 'hard_negative_fp_rate'], ['intent_baseline', 'accuracy'], ['explicit_save_baseline', 'recall'], ['urgency', 'accuracy']]) {
      expect(Math.abs(at(results.intent, ...keys) - at(card, ...keys)), keys.join('.')).toBeLessThanOrEqual(0.01);
    }
  });

  it("reproduce the NER card's held-out metrics within 0.01, per type and overall", () => {
    const card = readCard(path.join(models, 'ner.json')).metrics;
    expect(Math.abs(results.ner.overall.f1 - at(card, 'overall', 'f1'))).toBeLessThanOrEqual(0.01);
    for (const t of ['PERSON', 'ORG', 'PRODUCT', 'GPE', 'DATE', 'TIME'] as const) {
      expect(Math.abs(results.ner.per_type[t].f1 - at(card, 'per_type', t, 'f1')), t).toBeLessThanOrEqual(0.01);
    }
  });

  it('beat their baselines on the same held-out sentences', () => {
    expect(results.intent.intent.accuracy).toBeGreaterThan(results.intent.intent_baseline.accuracy);
    expect(results.intent.explicit_save.recall).toBeGreaterThan(results.intent.explicit_save_baseline.recall);
    const base = results.ner.baseline as { overall?: { f1: number } };
    if (base.overall) expect(results.ner.overall.f1).toBeGreaterThan(base.overall.f1);
  });
});
