/**
 * `npm run train` (last step): rebuilds models/urgency.onnx and its card models/urgency.json, the
 * mail urgency head, from independently written labelled mail (urgency-head.ts). Deterministic:
 * the same corpus gives the same bytes. Loads what it wrote through the runtime (urgency-head.ts
 * in the nlp domain) and checks it agrees with the trained weights before writing the card.
 *
 * Usage: node --import tsx models/train/train-urgency.ts [--check]
 *   --check: writes nothing; exits 1 when the committed model differs from what training produces.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FEATURE_VERSION } from '../../electron/core/domains/nlp/features';
import { HEAD_LEVELS, loadUrgencyHead } from '../../electron/core/domains/nlp/urgency-head';
import type { ModelCard } from '../../electron/core/domains/nlp/cards';
import { HEAD_CONFIG, URGENCY_SEED, headCorpus, headOnnx, headProbs, trainHead } from './urgency-head';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const modelsDir = path.join(root, 'models');
const log = (msg: string) => process.stderr.write(`[train urgency] ${msg}\n`);

async function main(): Promise<void> {
  const t0 = Date.now();
  const corpus = await headCorpus(root);
  const sets = [...new Set(corpus.map((e) => e.set.replace(/^(urgency-[a-z0-9]+)\/.*$/, '$1')))];
  const count = (l: string) => corpus.filter((e) => e.urgency === l).length;
  log(`${corpus.length} labelled messages (${HEAD_LEVELS.map((l) => `${count(l)} ${l}`).join(', ')}) from ${sets.join(', ')}`);
  const model = trainHead(corpus, URGENCY_SEED);
  const onnx = headOnnx(model);
  const c = HEAD_CONFIG;
  const card: ModelCard = {
    name: 'urgency',
    version: '1.0.0',
    task: "Mail urgency (low / medium / high) from a message's own words: one piece of evidence for the mail urgency signals (urgency.ts), never the decision.",
    file: 'urgency.onnx',
    sha256: crypto.createHash('sha256').update(onnx).digest('hex'),
    bytes: onnx.length,
    inputs: [{ name: 'features', type: 'int64', shape: ['batch', 'k'], description: 'Hashed feature indices per message (0 = padding), from urgencyHeadText + intentFeatureNames + hashFeatures.' }],
    outputs: [
      { name: 'logits', type: 'float32', shape: ['batch', 3], description: 'Raw scores: low, medium, high.' },
      { name: 'urgency_probs', type: 'float32', shape: ['batch', 3], description: `Softmax at temperature ${c.temperature}.` },
    ],
    labels: [...HEAD_LEVELS],
    heads: { urgency: { output: 'urgency_probs', labels: [...HEAD_LEVELS], temperature: c.temperature } },
    features: {
      version: FEATURE_VERSION,
      buckets: c.buckets,
      featurizer: 'electron/core/domains/nlp/urgency-head.ts#urgencyHeadFeatures',
      description: "The subject and the latest text (quoted replies cut by latestText, the signature cut from a sign-off line), read by the intent featurizer: word uni/bi/trigrams, char 3–5-grams inside words, first words, punctuation and length cues; FNV-1a hashed.",
    },
    training: {
      command: 'npm run train (models/train/train-urgency.ts)',
      seed: URGENCY_SEED,
      algorithm: `softmax regression, AdaGrad lr ${c.lr}, L2 ${c.l2}, ${c.epochs} epochs; fixed temperature ${c.temperature}`,
      epochs: c.epochs,
      examples: { train: corpus.length, low: count('low'), medium: count('medium'), high: count('high') },
      corpus: `independently written labelled mail: ${sets.filter((s) => s.startsWith('urgency-')).map((s) => `models/corpora/${s}`).join(', ')} (8 personas each, labelled by their own prose definitions) and every labelled inbound message of ${sets.filter((s) => !s.startsWith('urgency-')).join(', ')} (tests/fixtures; never held-out)`,
    },
    metrics: { kind: 'see models/README.md: leave-one-mailbox-out figures from bench/_urgency-train.ts (the head is retrained without the mailbox scored)' },
  };
  const cardText = `${JSON.stringify(card, null, 2)}\n`;

  // Load what was written through the runtime and compare with the trained weights.
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'urgency-head-'));
  fs.writeFileSync(path.join(scratch, 'urgency.onnx'), onnx);
  fs.writeFileSync(path.join(scratch, 'urgency.json'), cardText);
  const head = await loadUrgencyHead(path.join(scratch, 'urgency.onnx'));
  let worst = 0;
  for (const e of corpus.slice(0, 50)) {
    const a = await head.probs(e.text);
    const b = headProbs(model, e.text);
    for (const l of HEAD_LEVELS) worst = Math.max(worst, Math.abs(a[l] - b[l]));
  }
  await head.dispose();
  fs.rmSync(scratch, { recursive: true, force: true });
  if (worst > 1e-3) throw new Error(`the ONNX head disagrees with the trained weights by ${worst}`);
  log(`ONNX and trained weights agree within ${worst.toExponential(1)}; ${onnx.length} bytes`);

  if (process.argv.includes('--check')) {
    const same = fs.existsSync(path.join(modelsDir, 'urgency.onnx')) && fs.readFileSync(path.join(modelsDir, 'urgency.onnx')).equals(onnx) && fs.readFileSync(path.join(modelsDir, 'urgency.json'), 'utf8') === cardText;
    log(same ? 'the committed head is what training produces' : 'the committed head differs from what training produces');
    if (!same) process.exitCode = 1;
  } else {
    fs.writeFileSync(path.join(modelsDir, 'urgency.onnx'), onnx);
    fs.writeFileSync(path.join(modelsDir, 'urgency.json'), cardText);
    log(`wrote models/urgency.onnx and models/urgency.json in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
