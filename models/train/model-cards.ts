/**
 * The model cards written beside the ONNX files (what the runtime reads: heads, temperatures,
 * features, transitions; and how the model was made). Metrics are filled in by train.ts after
 * evaluating through the runtime.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { INTENTS } from '../../electron/core/domains/nlp/contract';
import { FEATURE_VERSION } from '../../electron/core/domains/nlp/features';
import type { ModelCard } from '../../electron/core/domains/nlp/cards';
import { CONFIG, URGENCY, type IntentRun, type NerRun } from './pipeline';

const sha256 = (b: Buffer) => crypto.createHash('sha256').update(b).digest('hex');

/** What the independently written training lines were, for the cards. */
export interface IndependentNote {
  sets: string[];
  description: string;
}

export function intentCard(run: IntentRun, seed: number, independent: IndependentNote): ModelCard {
  const ci = CONFIG.intent;
  const byName = Object.fromEntries(run.heads.map((h) => [h.name, h]));
  return {
    name: 'intent',
    version: '7.0.0',
    task: "Message intent (the seed's seven classes) with calibrated probabilities, plus an explicit-save head and an urgency head.",
    file: 'intent.onnx',
    sha256: sha256(run.onnx),
    bytes: run.onnx.length,
    inputs: [{ name: 'features', type: 'int64', shape: ['batch', 'k'], description: 'Hashed feature indices per message (0 = padding), from intentFeatureNames + hashFeatures.' }],
    outputs: [
      { name: 'logits', type: 'float32', shape: ['batch', run.model.classes], description: 'Raw scores: 7 intents, 2 explicit-save, 3 urgency.' },
      ...run.heads.map((h) => ({ name: h.output, type: 'float32', shape: ['batch', h.size] as Array<string | number>, description: `Softmax of the ${h.name} head at temperature ${h.temperature}.` })),
    ],
    labels: [...INTENTS],
    heads: {
      intent: { output: byName.intent.output, labels: [...INTENTS], temperature: byName.intent.temperature },
      explicit_save: { output: byName.explicit_save.output, labels: ['no', 'yes'], temperature: byName.explicit_save.temperature },
      urgency: { output: byName.urgency.output, labels: URGENCY, temperature: byName.urgency.temperature },
    },
    features: {
      version: FEATURE_VERSION,
      buckets: ci.buckets,
      featurizer: 'electron/core/domains/nlp/features.ts#intentFeatureNames',
      description: 'Lowercased word uni/bi/trigrams with sentence markers, char 3–5-grams inside words, first words, punctuation and length cues, phrase-detector cues; FNV-1a hashed.',
    },
    training: {
      command: 'npm run train',
      seed,
      algorithm: `multi-head softmax regression, AdaGrad lr ${ci.lr}, L2 ${ci.l2}, ${ci.epochs} epochs; temperature per head fitted on a ${ci.devFraction * 100}% dev split of the generated text`,
      epochs: ci.epochs,
      examples: {
        train: run.train.length,
        dev: run.dev.length,
        handwritten: run.handwritten,
        independent: run.independent,
        explicit_save_positive: run.train.filter((e) => e.explicitSave).length,
        hard_negatives: run.train.filter((e) => e.tags.includes('hardneg')).length,
      },
      corpus: `models/corpora/intent: templates.txt + slots.txt + augment.txt expanded by models/train/generate-intent.ts (save-request grammar, chat/dictation/e-mail registers in save-grammar.ts), slot words partly from @faker-js/faker vocabularies (models/train/lexicon.ts); plus the independently written sets ${independent.sets.join(', ')} (${independent.description}); dev sets eval.tsv, dev/intent.tsv and dev3/intent.tsv written by hand`,
    },
    metrics: {},
  };
}

export function nerCard(run: NerRun, seed: number, independent: IndependentNote): ModelCard {
  const cn = CONFIG.ner;
  return {
    name: 'ner',
    version: '7.0.0',
    task: 'Named entities PERSON, ORG, PRODUCT, GPE, DATE, TIME as character spans with scores.',
    file: 'ner.onnx',
    sha256: sha256(run.onnx),
    bytes: run.onnx.length,
    inputs: [{ name: 'features', type: 'int64', shape: ['tokens', 'k'], description: 'Hashed feature indices per token (0 = padding), from tokenize + nerFeatureNames + hashFeatures.' }],
    outputs: [{ name: 'log_probs', type: 'float32', shape: ['tokens', run.labels.length], description: 'Per-token log-probabilities over the BIO labels.' }],
    labels: run.labels,
    features: {
      version: FEATURE_VERSION,
      buckets: cn.buckets,
      featurizer: 'electron/core/domains/nlp/features.ts#nerFeatureNames',
      description:
        'Token, raw form, shape, prefixes/suffixes 1–4, number classes, casing of the message, gazetteer flags (names, titles, org suffixes, products, places, months, weekdays, date/time words, multi-word phrases; generated lexicon.ts first names, surnames, towns, countries), message casing (cased/uncased/ALL CAPS) and a ±2 window of words, shapes and flags; FNV-1a hashed.',
    },
    decoding: "Viterbi over log_probs plus label-bigram log-probabilities from the training corpus (transitions/start below), constrained so I-X only follows B-X/I-X; span score = geometric mean of the chosen labels' probabilities.",
    transitions: run.transitions,
    start: run.start,
    training: {
      command: 'npm run train',
      seed,
      algorithm: `token-level softmax regression, AdaGrad lr ${cn.lr}, L2 ${cn.l2}, ${cn.epochs} epochs`,
      epochs: cn.epochs,
      examples: { sentences: run.sentences, independent: run.independent, tokens: run.tokens, entities: run.entities },
      corpus: `models/corpora/ner: templates.txt + pools.txt expanded by models/train/generate-ner.ts (dates/times composed in code), names/towns/airlines partly from @faker-js/faker locale tables (models/train/lexicon.ts); plus the independently written sets ${independent.sets.join(', ')} (${independent.description}); dev sets eval.txt, dev/ner.txt and dev3/ner.txt written by hand`,
    },
    metrics: {},
  };
}

export const writeCard = (dir: string, card: ModelCard) => fs.writeFileSync(path.join(dir, `${card.name}.json`), JSON.stringify(card, null, 2) + '\n');

/** Writes both models and their cards into `dir` (the shipped folder, or a scratch folder for LOSO). */
export function writeModels(dir: string, intent: { run: IntentRun; card: ModelCard }, ner: { run: NerRun; card: ModelCard }): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(path.join(dir, 'intent.onnx'), intent.run.onnx);
  fs.writeFileSync(path.join(dir, 'ner.onnx'), ner.run.onnx);
  writeCard(dir, intent.card);
  writeCard(dir, ner.card);
}
