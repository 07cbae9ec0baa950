/**
 * The mail urgency head (models/urgency.onnx): a sparse softmax over the message's own words
 * (`urgencyHeadText`: subject + latest text, quotes and signature cut; the intent featurizer's
 * hashed word and character n-grams), trained on independently written labelled mail only:
 * every labelled inbound message of the mailboxes with urgency gold (the same sets
 * bench/_mail-sets.ts lists; never held-out) and the urgency-a corpus (models/corpora/urgency-a).
 * Deterministic: zero init, one seeded shuffle, a fixed order of examples.
 */
import fs from 'node:fs';
import path from 'node:path';
import { FEATURE_VERSION, hashFeatures } from '../../electron/core/domains/nlp/features';
import { HEAD_LEVELS, urgencyHeadFeatures, urgencyHeadText, type HeadLevel, type HeadProbs } from '../../electron/core/domains/nlp/urgency-head';
import { splitMboxFile } from '../../electron/core/domains/mail/importers';
import { parseRaw } from '../../electron/core/domains/mail/parse';
import { latestText } from '../../electron/core/domains/mail/text';
import { mulberry32 } from './prng';
import { logits, softmaxSlice, trainSoftmax, type LinearModel, type SparseExample } from './softmax';
import { intentGraph } from './export';

/** The seed of the shipped head (the epochs' shuffles); the LOSO folds use it too. */
export const URGENCY_SEED = 20261124;
export const HEAD_CONFIG = { buckets: 1 << 15, epochs: 10, lr: 0.003, l2: 1e-5, temperature: 1.5 };

export interface HeadExample {
  /** The set it came from: `urgency-a/<persona>`, `mail (fixture)`, `mail-dev2`, `blind/mail-c`, … */
  set: string;
  text: string;
  urgency: HeadLevel;
  features: Int32Array;
}

const isLevel = (u: unknown): u is HeadLevel => typeof u === 'string' && (HEAD_LEVELS as readonly string[]).includes(u);
const features = (text: string) => Int32Array.from(hashFeatures(urgencyHeadFeatures(text), { buckets: HEAD_CONFIG.buckets, version: FEATURE_VERSION }));
const example = (set: string, subject: string, body: string, urgency: HeadLevel): HeadExample => {
  const text = urgencyHeadText(subject, latestText(body));
  return { set, text, urgency, features: features(text) };
};

/** A labelled-email corpus (urgency-a, urgency-b …): one JSON object a line (persona, subject, body, urgency), set = `<corpus>/<persona>`. */
export function readUrgencyCorpus(file: string, name = path.basename(path.dirname(file))): HeadExample[] {
  if (!fs.existsSync(file)) return [];
  const out: HeadExample[] = [];
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    if (!line.trim()) continue;
    const o = JSON.parse(line) as { persona?: unknown; subject?: unknown; body?: unknown; urgency?: unknown };
    if (!isLevel(o.urgency)) continue;
    out.push(example(`${name}/${String(o.persona ?? '')}`, String(o.subject ?? ''), String(o.body ?? ''), o.urgency));
  }
  return out;
}

/** Every labelled message of one mailbox (`mailbox.mbox` or `labelled.mbox`, gold keyed by Message-ID or X-Fixture). */
export async function readMailSet(dir: string, set: string): Promise<HeadExample[]> {
  const mbox = ['mailbox.mbox', 'labelled.mbox'].map((f) => path.join(dir, f)).find((f) => fs.existsSync(f));
  if (!mbox) return [];
  const gold = JSON.parse(fs.readFileSync(path.join(dir, 'gold.json'), 'utf8')) as { messages?: Record<string, { urgency?: unknown }> };
  const byKey = new Map(Object.entries(gold.messages ?? {}).map(([k, v]) => [k.replace(/^<|>$/g, ''), v.urgency]));
  const out: HeadExample[] = [];
  for (const item of splitMboxFile(mbox)) {
    if (item.invalid) continue;
    const head = item.raw.subarray(0, 16384).toString('utf8').split(/\r?\n\r?\n/)[0] ?? '';
    const fixture = /^X-Fixture:\s*(\S+)/im.exec(head)?.[1];
    const p = await parseRaw(item.raw, { now: () => 0 });
    const u = byKey.get(fixture ?? '') ?? byKey.get((p.internetMessageId ?? '').replace(/^<|>$/g, ''));
    if (isLevel(u)) out.push(example(set, p.subject, p.text, u));
  }
  return out;
}

export interface MailSetRef {
  name: string;
  dir: string;
  blind: boolean;
}

/** The mailboxes with urgency gold, named as bench/_mail-sets.ts names them (held-out sets are never listed). */
export function mailSetRefs(root: string): MailSetRef[] {
  const fx = path.join(root, 'tests', 'fixtures');
  const has = (d: string) => fs.existsSync(path.join(d, 'gold.json')) && (fs.existsSync(path.join(d, 'mailbox.mbox')) || fs.existsSync(path.join(d, 'labelled.mbox')));
  const refs: MailSetRef[] = [{ name: 'mail (fixture)', dir: path.join(fx, 'mail'), blind: false }];
  for (const d of ['mail-dev', 'mail-dev2', 'mail-dev3', 'mail-dev4']) refs.push({ name: d, dir: path.join(fx, d), blind: false });
  const blind = path.join(fx, 'blind');
  if (fs.existsSync(blind)) for (const d of fs.readdirSync(blind).sort()) refs.push({ name: `blind/${d}`, dir: path.join(blind, d), blind: true });
  return refs.filter((r) => fs.statSync(r.dir, { throwIfNoEntry: false })?.isDirectory() && has(r.dir));
}

/** Every training example: the labelled-email corpora (models/corpora/urgency-*, by name), then each mailbox in set order. */
export async function headCorpus(root: string): Promise<HeadExample[]> {
  const corpora = path.join(root, 'models', 'corpora');
  const out: HeadExample[] = [];
  for (const d of fs.readdirSync(corpora).filter((d) => /^urgency-[a-z0-9]+$/.test(d)).sort()) out.push(...readUrgencyCorpus(path.join(corpora, d, 'messages.jsonl')));
  for (const r of mailSetRefs(root)) out.push(...(await readMailSet(r.dir, r.name)));
  return out;
}

/** Trains the head on `examples` (in their given order; the seed drives the epochs' shuffles). */
export function trainHead(examples: readonly HeadExample[], seed: number): LinearModel {
  const c = HEAD_CONFIG;
  const data: SparseExample[] = examples.map((e) => ({ features: e.features, targets: [HEAD_LEVELS.indexOf(e.urgency)] }));
  return trainSoftmax(data, { buckets: c.buckets, heads: [{ name: 'urgency', offset: 0, size: 3, weight: 1 }], epochs: c.epochs, lr: c.lr, l2: c.l2, rng: mulberry32(seed) });
}

/** The head's probabilities for a text, in plain TypeScript (what the ONNX graph computes, in float64). */
export function headProbs(m: LinearModel, text: string): HeadProbs {
  const p = softmaxSlice(logits(m, features(text)), 0, 3, HEAD_CONFIG.temperature);
  return { low: p[0] ?? NaN, medium: p[1] ?? NaN, high: p[2] ?? NaN };
}

/** The ONNX bytes: features → logits → softmax at the fixed temperature (`urgency_probs`). */
export function headOnnx(m: LinearModel): Buffer {
  return intentGraph(m, [{ name: 'urgency', offset: 0, size: 3, weight: 1, output: 'urgency_probs', temperature: HEAD_CONFIG.temperature }], 'Mailroom mail urgency head: low/medium/high from the message\'s own words (sparse linear, hashed features).');
}
