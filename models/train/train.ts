/**
 * `npm run train`: rebuilds models/intent.onnx and models/ner.onnx with their cards from the
 * corpora in models/corpora and (v7) the independently written sets in tests/fixtures/blind,
 * augmented and weighted as models/train/independent-weights.json says (chosen by loso.ts).
 * Deterministic: one seed drives corpus generation, the split, the shuffles and the variants;
 * weights start at zero. Metrics come from the dev sets through the same runtime code the app
 * uses (OnnxNlp), so the card is what users get.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { OnnxNlp } from '../../electron/core/domains/nlp/onnx';
import { readIntentTsv } from './generate-intent';
import { readAnnotated } from './generate-ner';
import { trainIntent, trainNer } from './pipeline';
import { intentCard, nerCard, writeCard, writeModels } from './model-cards';
import { independentSets, independentTraining, readWeights } from './independent';
import { dev3Files, devFiles, evaluateAll, evaluateIntent, evaluateNer } from './evaluate';

/** One seed drives everything; MAILROOM_TRAIN_SEED overrides it to measure seed-to-seed variance. */
export const SEED = Number(process.env.MAILROOM_TRAIN_SEED ?? 20251123);
export { CONFIG } from './pipeline';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const modelsDir = path.join(root, 'models');
const corporaDir = path.join(modelsDir, 'corpora');
const log = (msg: string) => process.stderr.write(`[train] ${msg}\n`);

async function main(): Promise<void> {
  const t0 = Date.now();
  const weights = readWeights();
  const sets = independentSets(root);
  const indep = independentTraining(sets, weights, SEED, corporaDir);
  log(`independent sets ${indep.used.join(', ')}: intent ${weights.intent.copies} rows a line (${indep.intent.length}), NER ${weights.ner.copies} rows a sentence (${indep.ner.length})`);
  const describe = (w: { copies: number }, unit: string) => `each ${unit} once as written and ${Math.max(0, w.copies - 1)} times as a deterministic variant (independent.ts), ${w.copies} rows in all, chosen by leave-one-set-out (loso.ts)`;
  const intentRun = trainIntent(corporaDir, SEED, indep.intent, log);
  const nerRun = trainNer(corporaDir, SEED, indep.ner, log);
  const setPaths = indep.used.map((n) => `tests/fixtures/blind${n === 'blind' ? '' : `/${n}`}`);
  const iCard = intentCard(intentRun, SEED, { sets: setPaths, description: describe(weights.intent, 'message') });
  const nCard = nerCard(nerRun, SEED, { sets: setPaths, description: describe(weights.ner, 'sentence') });
  writeModels(modelsDir, { run: intentRun, card: iCard }, { run: nerRun, card: nCard });

  const nlp = await OnnxNlp.load({ intent: path.join(modelsDir, 'intent.onnx'), ner: path.join(modelsDir, 'ner.onnx') });
  const m = await evaluateAll(nlp, corporaDir);
  const devSets = devFiles(corporaDir);
  const d = { intent: await evaluateIntent(nlp, readIntentTsv(devSets.intent)), ner: await evaluateNer(nlp, readAnnotated(devSets.ner)) };
  const d3Sets = dev3Files(corporaDir);
  const d3 = { intent: await evaluateIntent(nlp, readIntentTsv(d3Sets.intent)), ner: await evaluateNer(nlp, readAnnotated(d3Sets.ner)) };
  await nlp.dispose();
  const strip = <T extends { errors: unknown }>(x: T) => {
    const { errors: _e, ...rest } = x;
    return rest;
  };
  const note = 'in-sample: hand-written dev sets written alongside the code by the same engineer, not independent held-out data';
  iCard.metrics = { kind: note, dataset: 'models/corpora/intent/eval.tsv', ...strip(m.intent), dev2: { dataset: 'models/corpora/dev/intent.tsv', ...strip(d.intent) }, dev3: { dataset: 'models/corpora/dev3/intent.tsv', ...strip(d3.intent) } };
  nCard.metrics = { kind: note, dataset: 'models/corpora/ner/eval.txt', ...strip(m.ner), dev2: { dataset: 'models/corpora/dev/ner.txt', ...strip(d.ner) }, dev3: { dataset: 'models/corpora/dev3/ner.txt', ...strip(d3.ner) } };
  writeCard(modelsDir, iCard);
  writeCard(modelsDir, nCard);
  log(`intent accuracy ${m.intent.intent.accuracy} macro-F1 ${m.intent.intent.macro_f1} | explicit-save recall ${m.intent.explicit_save.recall} hard-neg FP ${m.intent.explicit_save.hard_negative_fp_rate} | NER F1 ${m.ner.overall.f1}`);
  log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
