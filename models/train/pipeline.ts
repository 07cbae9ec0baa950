/**
 * The two training runs behind `npm run train`, as functions so the leave-one-set-out script
 * (loso.ts) trains exactly what train.ts ships: generator corpus + independently written lines
 * (already augmented, see independent.ts) → sparse softmax → ONNX bytes.
 */
import { INTENTS, ENTITY_TYPES } from '../../electron/core/domains/nlp/contract';
import { FEATURE_VERSION, bioLabels, hashFeatures, intentFeatureNames, nerFeatureNames } from '../../electron/core/domains/nlp/features';
import { tokenize } from '../../electron/core/domains/nlp/tokenize';
import { mulberry32 } from './prng';
import { generateIntentCorpus, type IntentExample } from './generate-intent';
import { generateNerCorpus, toBio, type NerExample } from './generate-ner';
import { fitTemperature, trainSoftmax, type Head, type LinearModel, type SparseExample } from './softmax';
import { intentGraph, nerGraph, type HeadExport } from './export';

export const CONFIG = {
  intent: { buckets: 1 << 16, perIntent: 2000, epochs: 12, lr: 0.15, l2: 1e-6, devFraction: 0.1, handwrittenRepeat: 4 },
  ner: { buckets: 1 << 17, sentences: 24000, epochs: 8, lr: 0.1, l2: 1e-6 },
};
export const URGENCY = ['low', 'normal', 'high'];

function intentExamples(data: readonly IntentExample[], buckets: number): SparseExample[] {
  return data.map((e) => ({
    features: Int32Array.from(hashFeatures(intentFeatureNames(e.text), { buckets, version: FEATURE_VERSION })),
    targets: [INTENTS.indexOf(e.intent), e.explicitSave ? 1 : 0, URGENCY.indexOf(e.urgency)],
  }));
}

export interface IntentRun {
  onnx: Buffer;
  model: LinearModel;
  heads: HeadExport[];
  train: IntentExample[];
  dev: IntentExample[];
  handwritten: number;
  independent: number;
}

/**
 * Intent + explicit-save + urgency heads. `independent` rows (independently written lines and
 * their augmented variants) join the training side only: the dev split that fits the
 * temperatures stays generated text, as before.
 */
export function trainIntent(corporaDir: string, seed: number, independent: readonly IntentExample[], log: (m: string) => void): IntentRun {
  const rng = mulberry32(seed);
  const ci = CONFIG.intent;
  const corpus = generateIntentCorpus(corporaDir, rng, ci.perIntent);
  const generated = rng.shuffle(corpus.filter((e) => !e.tags.includes('handwritten')));
  const handwrittenLines = corpus.filter((e) => e.tags.includes('handwritten'));
  const nDev = Math.round(generated.length * ci.devFraction);
  const dev = generated.slice(0, nDev);
  // Hand-written lines are few but the most realistic: they count several times.
  const train = rng.shuffle([...generated.slice(nDev), ...Array.from({ length: ci.handwrittenRepeat }, () => handwrittenLines).flat(), ...independent]);
  log(`intent: ${train.length} train (${independent.length} from independent sets), ${dev.length} dev examples`);
  const heads: Head[] = [
    { name: 'intent', offset: 0, size: INTENTS.length, weight: 1 },
    { name: 'explicit_save', offset: INTENTS.length, size: 2, weight: 1 },
    { name: 'urgency', offset: INTENTS.length + 2, size: 3, weight: 0.5 },
  ];
  const trainX = intentExamples(train, ci.buckets);
  const devX = intentExamples(dev, ci.buckets);
  const model = trainSoftmax(trainX, { buckets: ci.buckets, heads, epochs: ci.epochs, lr: ci.lr, l2: ci.l2, rng, log: (m) => log(`intent ${m}`) });
  const outputs: Record<string, string> = { intent: 'intent_probs', explicit_save: 'explicit_save_probs', urgency: 'urgency_probs' };
  const headExports: HeadExport[] = heads.map((h, i) => ({ ...h, output: outputs[h.name], temperature: fitTemperature(model, devX, h, i) }));
  log(`intent temperatures ${headExports.map((h) => `${h.name}=${h.temperature}`).join(' ')}`);
  const onnx = intentGraph(model, headExports, 'Mailroom intent classifier with explicit-save and urgency heads (sparse linear, hashed features).');
  return { onnx, model, heads: headExports, train, dev, handwritten: handwrittenLines.length, independent: independent.length };
}

export interface NerRun {
  onnx: Buffer;
  model: LinearModel;
  labels: string[];
  transitions: number[][];
  start: number[];
  sentences: number;
  tokens: number;
  entities: number;
  independent: number;
}

/** Token BIO tagger; `independent` sentences are appended to the generated ones (they also count in the label bigrams). */
export function trainNer(corporaDir: string, seed: number, independent: readonly NerExample[], log: (m: string) => void): NerRun {
  const cn = CONFIG.ner;
  const labels = bioLabels(ENTITY_TYPES);
  // Its own stream, so a change to the intent corpus does not reshuffle the NER corpus.
  const nerRng = mulberry32(seed + 1);
  const corpus = [...generateNerCorpus(corporaDir, nerRng, cn.sentences), ...independent];
  const X: SparseExample[] = [];
  const L = labels.length;
  const transCounts = labels.map(() => new Array<number>(L).fill(1)); // add-one smoothing
  const startCounts = new Array<number>(L).fill(1);
  for (const ex of corpus) {
    const toks = tokenize(ex.text);
    const bio = toBio(toks, ex.spans);
    bio.forEach((l, i) => (i === 0 ? startCounts[labels.indexOf(l)]++ : transCounts[labels.indexOf(bio[i - 1])][labels.indexOf(l)]++));
    nerFeatureNames(toks).forEach((f, i) => X.push({ features: Int32Array.from(hashFeatures(f, { buckets: cn.buckets, version: FEATURE_VERSION })), targets: [labels.indexOf(bio[i])] }));
  }
  log(`ner: ${corpus.length} sentences (${independent.length} from independent sets), ${X.length} tokens`);
  const model = trainSoftmax(X, { buckets: cn.buckets, heads: [{ name: 'bio', offset: 0, size: labels.length, weight: 1 }], epochs: cn.epochs, lr: cn.lr, l2: cn.l2, rng: nerRng, log: (m) => log(`ner ${m}`) });
  const logNorm = (row: number[]) => {
    const total = row.reduce((a, b) => a + b, 0);
    return row.map((c) => Math.round(Math.log(c / total) * 1e4) / 1e4);
  };
  const onnx = nerGraph(model, 'Mailroom NER: per-token BIO log-probabilities (sparse linear, hashed features); decode with constrained Viterbi.');
  return {
    onnx,
    model,
    labels,
    transitions: transCounts.map(logNorm),
    start: logNorm(startCounts),
    sentences: corpus.length,
    tokens: X.length,
    entities: corpus.reduce((n, e) => n + e.spans.length, 0),
    independent: independent.length,
  };
}
