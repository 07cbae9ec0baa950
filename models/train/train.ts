/**
 * `npm run train`: rebuilds models/intent.onnx and models/ner.onnx with their cards from the
 * corpora in models/corpora. Deterministic: one seed drives corpus generation, the split, the
 * shuffles; weights start at zero. Metrics come from the held-out sets through the same
 * runtime code the app uses (OnnxNlp), so the card is what users get.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { INTENTS, ENTITY_TYPES } from '../../electron/core/domains/nlp/contract';
import { FEATURE_VERSION, bioLabels, hashFeatures, intentFeatureNames, nerFeatureNames } from '../../electron/core/domains/nlp/features';
import { tokenize } from '../../electron/core/domains/nlp/tokenize';
import { OnnxNlp } from '../../electron/core/domains/nlp/onnx';
import type { ModelCard } from '../../electron/core/domains/nlp/cards';
import { mulberry32 } from './prng';
import { generateIntentCorpus, readIntentTsv, type IntentExample } from './generate-intent';
import { generateNerCorpus, readAnnotated, toBio } from './generate-ner';
import { fitTemperature, trainSoftmax, type Head, type SparseExample } from './softmax';
import { intentGraph, nerGraph, type HeadExport } from './export';
import { dev3Files, devFiles, evaluateAll, evaluateIntent, evaluateNer } from './evaluate';

/** One seed drives everything; MAILROOM_TRAIN_SEED overrides it to measure seed-to-seed variance. */
export const SEED = Number(process.env.MAILROOM_TRAIN_SEED ?? 20251123);
export const CONFIG = {
  intent: { buckets: 1 << 16, perIntent: 2000, epochs: 12, lr: 0.15, l2: 1e-6, devFraction: 0.1, handwrittenRepeat: 4 },
  ner: { buckets: 1 << 17, sentences: 24000, epochs: 8, lr: 0.1, l2: 1e-6 },
};
const URGENCY = ['low', 'normal', 'high'];

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const modelsDir = path.join(root, 'models');
const corporaDir = path.join(modelsDir, 'corpora');
const log = (msg: string) => process.stderr.write(`[train] ${msg}\n`);

function intentExamples(data: readonly IntentExample[], buckets: number): SparseExample[] {
  return data.map((e) => ({
    features: Int32Array.from(hashFeatures(intentFeatureNames(e.text), { buckets, version: FEATURE_VERSION })),
    targets: [INTENTS.indexOf(e.intent), e.explicitSave ? 1 : 0, URGENCY.indexOf(e.urgency)],
  }));
}

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

async function main(): Promise<void> {
  const t0 = Date.now();
  const rng = mulberry32(SEED);
  const ci = CONFIG.intent;

  // ---- intent + explicit save + urgency
  const corpus = generateIntentCorpus(corporaDir, rng, ci.perIntent);
  const generated = rng.shuffle(corpus.filter((e) => !e.tags.includes('handwritten')));
  const handwrittenLines = corpus.filter((e) => e.tags.includes('handwritten'));
  const nDev = Math.round(generated.length * ci.devFraction);
  const dev = generated.slice(0, nDev);
  // Hand-written lines are few but the most realistic: they count several times.
  const train = rng.shuffle([...generated.slice(nDev), ...Array.from({ length: ci.handwrittenRepeat }, () => handwrittenLines).flat()]);
  log(`intent: ${train.length} train, ${dev.length} dev examples`);
  const heads: Head[] = [
    { name: 'intent', offset: 0, size: INTENTS.length, weight: 1 },
    { name: 'explicit_save', offset: INTENTS.length, size: 2, weight: 1 },
    { name: 'urgency', offset: INTENTS.length + 2, size: 3, weight: 0.5 },
  ];
  const trainX = intentExamples(train, ci.buckets);
  const devX = intentExamples(dev, ci.buckets);
  const intentModel = trainSoftmax(trainX, { buckets: ci.buckets, heads, epochs: ci.epochs, lr: ci.lr, l2: ci.l2, rng, log: (m) => log(`intent ${m}`) });
  const outputs: Record<string, string> = { intent: 'intent_probs', explicit_save: 'explicit_save_probs', urgency: 'urgency_probs' };
  const headExports: HeadExport[] = heads.map((h, i) => ({ ...h, output: outputs[h.name], temperature: fitTemperature(intentModel, devX, h, i) }));
  log(`intent temperatures ${headExports.map((h) => `${h.name}=${h.temperature}`).join(' ')}`);
  const intentOnnx = intentGraph(intentModel, headExports, 'Mailroom intent classifier with explicit-save and urgency heads (sparse linear, hashed features).');

  // ---- NER
  const cn = CONFIG.ner;
  const labels = bioLabels(ENTITY_TYPES);
  // Its own stream, so a change to the intent corpus does not reshuffle the NER corpus.
  const nerRng = mulberry32(SEED + 1);
  const nerCorpus = generateNerCorpus(corporaDir, nerRng, cn.sentences);
  const nerX: SparseExample[] = [];
  const L = labels.length;
  const transCounts = labels.map(() => new Array<number>(L).fill(1)); // add-one smoothing
  const startCounts = new Array<number>(L).fill(1);
  for (const ex of nerCorpus) {
    const toks = tokenize(ex.text);
    const bio = toBio(toks, ex.spans);
    bio.forEach((l, i) => (i === 0 ? startCounts[labels.indexOf(l)]++ : transCounts[labels.indexOf(bio[i - 1])][labels.indexOf(l)]++));
    nerFeatureNames(toks).forEach((f, i) =>
      nerX.push({ features: Int32Array.from(hashFeatures(f, { buckets: cn.buckets, version: FEATURE_VERSION })), targets: [labels.indexOf(bio[i])] }),
    );
  }
  log(`ner: ${nerCorpus.length} sentences, ${nerX.length} tokens`);
  const nerModel = trainSoftmax(nerX, { buckets: cn.buckets, heads: [{ name: 'bio', offset: 0, size: labels.length, weight: 1 }], epochs: cn.epochs, lr: cn.lr, l2: cn.l2, rng: nerRng, log: (m) => log(`ner ${m}`) });
  const logNorm = (row: number[]) => {
    const total = row.reduce((a, b) => a + b, 0);
    return row.map((c) => Math.round(Math.log(c / total) * 1e4) / 1e4);
  };
  const transitions = transCounts.map(logNorm);
  const start = logNorm(startCounts);
  const nerOnnx = nerGraph(nerModel, 'Mailroom NER: per-token BIO log-probabilities (sparse linear, hashed features); decode with constrained Viterbi.');

  // ---- write models + cards, then evaluate through the runtime and complete the cards
  const handwritten = handwrittenLines.length;
  const intentCard: ModelCard = {
    name: 'intent',
    version: '5.0.0',
    task: 'Message intent (the seed\'s seven classes) with calibrated probabilities, plus an explicit-save head and an urgency head.',
    file: 'intent.onnx',
    sha256: sha256(intentOnnx),
    bytes: intentOnnx.length,
    inputs: [{ name: 'features', type: 'int64', shape: ['batch', 'k'], description: 'Hashed feature indices per message (0 = padding), from intentFeatureNames + hashFeatures.' }],
    outputs: [
      { name: 'logits', type: 'float32', shape: ['batch', intentModel.classes], description: 'Raw scores: 7 intents, 2 explicit-save, 3 urgency.' },
      ...headExports.map((h) => ({ name: h.output, type: 'float32', shape: ['batch', h.size] as Array<string | number>, description: `Softmax of the ${h.name} head at temperature ${h.temperature}.` })),
    ],
    labels: [...INTENTS],
    heads: {
      intent: { output: outputs.intent, labels: [...INTENTS], temperature: headExports[0].temperature },
      explicit_save: { output: outputs.explicit_save, labels: ['no', 'yes'], temperature: headExports[1].temperature },
      urgency: { output: outputs.urgency, labels: URGENCY, temperature: headExports[2].temperature },
    },
    features: {
      version: FEATURE_VERSION,
      buckets: ci.buckets,
      featurizer: 'electron/core/domains/nlp/features.ts#intentFeatureNames',
      description: 'Lowercased word uni/bi/trigrams with sentence markers, char 3–5-grams inside words, first words, punctuation and length cues, phrase-detector cues; FNV-1a hashed.',
    },
    training: {
      command: 'npm run train',
      seed: SEED,
      algorithm: `multi-head softmax regression, AdaGrad lr ${ci.lr}, L2 ${ci.l2}, ${ci.epochs} epochs; temperature per head fitted on a ${ci.devFraction * 100}% dev split`,
      epochs: ci.epochs,
      examples: { train: train.length, dev: dev.length, handwritten, explicit_save_positive: train.filter((e) => e.explicitSave).length, hard_negatives: train.filter((e) => e.tags.includes('hardneg')).length },
      corpus: 'models/corpora/intent: templates.txt + slots.txt + augment.txt expanded by models/train/generate-intent.ts (save-request grammar, chat/dictation/e-mail registers in save-grammar.ts), slot words partly from @faker-js/faker vocabularies (models/train/lexicon.ts); dev sets eval.tsv, dev/intent.tsv and dev3/intent.tsv written by hand',
    },
    metrics: {},
  };
  const nerCard: ModelCard = {
    name: 'ner',
    version: '5.0.0',
    task: 'Named entities PERSON, ORG, PRODUCT, GPE, DATE, TIME as character spans with scores.',
    file: 'ner.onnx',
    sha256: sha256(nerOnnx),
    bytes: nerOnnx.length,
    inputs: [{ name: 'features', type: 'int64', shape: ['tokens', 'k'], description: 'Hashed feature indices per token (0 = padding), from tokenize + nerFeatureNames + hashFeatures.' }],
    outputs: [{ name: 'log_probs', type: 'float32', shape: ['tokens', labels.length], description: 'Per-token log-probabilities over the BIO labels.' }],
    labels,
    features: {
      version: FEATURE_VERSION,
      buckets: cn.buckets,
      featurizer: 'electron/core/domains/nlp/features.ts#nerFeatureNames',
      description: 'Token, raw form, shape, prefixes/suffixes 1–4, number classes, casing of the message, gazetteer flags (names, titles, org suffixes, products, places, months, weekdays, date/time words, multi-word phrases; generated lexicon.ts first names, surnames, towns, countries), message casing (cased/uncased/ALL CAPS) and a ±2 window of words, shapes and flags; FNV-1a hashed.',
    },
    decoding: 'Viterbi over log_probs plus label-bigram log-probabilities from the training corpus (transitions/start below), constrained so I-X only follows B-X/I-X; span score = geometric mean of the chosen labels\' probabilities.',
    transitions,
    start,
    training: {
      command: 'npm run train',
      seed: SEED,
      algorithm: `token-level softmax regression, AdaGrad lr ${cn.lr}, L2 ${cn.l2}, ${cn.epochs} epochs`,
      epochs: cn.epochs,
      examples: { sentences: nerCorpus.length, tokens: nerX.length, entities: nerCorpus.reduce((n, e) => n + e.spans.length, 0) },
      corpus: 'models/corpora/ner: templates.txt + pools.txt expanded by models/train/generate-ner.ts (dates/times composed in code), names/towns/airlines partly from @faker-js/faker locale tables (models/train/lexicon.ts); dev sets eval.txt, dev/ner.txt and dev3/ner.txt written by hand',
    },
    metrics: {},
  };
  const writeCard = (card: ModelCard) => fs.writeFileSync(path.join(modelsDir, `${card.name}.json`), JSON.stringify(card, null, 2) + '\n');
  fs.writeFileSync(path.join(modelsDir, 'intent.onnx'), intentOnnx);
  fs.writeFileSync(path.join(modelsDir, 'ner.onnx'), nerOnnx);
  writeCard(intentCard);
  writeCard(nerCard);

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
  intentCard.metrics = { kind: note, dataset: 'models/corpora/intent/eval.tsv', ...strip(m.intent), dev2: { dataset: 'models/corpora/dev/intent.tsv', ...strip(d.intent) }, dev3: { dataset: 'models/corpora/dev3/intent.tsv', ...strip(d3.intent) } };
  nerCard.metrics = { kind: note, dataset: 'models/corpora/ner/eval.txt', ...strip(m.ner), dev2: { dataset: 'models/corpora/dev/ner.txt', ...strip(d.ner) }, dev3: { dataset: 'models/corpora/dev3/ner.txt', ...strip(d3.ner) } };
  writeCard(intentCard);
  writeCard(nerCard);
  log(`intent accuracy ${m.intent.intent.accuracy} macro-F1 ${m.intent.intent.macro_f1} | explicit-save recall ${m.intent.explicit_save.recall} hard-neg FP ${m.intent.explicit_save.hard_negative_fp_rate} | NER F1 ${m.ner.overall.f1}`);
  log(`done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
