/**
 * The mail urgency head (models/urgency.onnx, built by `npm run train:urgency`; not shipped: it did
 * not raise the blind LOSO mean): a text classifier over the message's own words whose
 * probabilities enter the urgency signals as "text model says …". It loads through onnxruntime like
 * the other models, is trained deterministically, never overrides a clear case, and when its file
 * is missing the signals alone decide.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNlp, loadUrgencyHead, urgencyHeadText, type NlpDomain, type UrgencyHead } from '../../../electron/core/domains/nlp';
import { textHeadSignals, urgencyOf, type UrgencyVerdict } from '../../../electron/core/domains/mail/urgency';
import { HAND_MODEL, LEVELS, SHIPPED_MODEL, parseUrgencyModel, type UrgencyModel } from '../../../electron/core/domains/mail/urgency-model';
import { resolveConfig } from '../../../electron/core/host/config';
import { createCoreContext } from '../../../electron/core/host/context';
import { silentLogger, type CoreContext } from '../../../electron/core/kernel';
import { HEAD_CONFIG, headOnnx, headProbs, readMailSet, readUrgencyCorpus, trainHead, type HeadExample } from '../../../models/train/urgency-head';
import { REPO_ROOT, tempDir } from '../../helpers/owner';
import { acknowledgedOutage, mailServiceForTest, newsletterMessage } from './helpers';

const SCRATCH = fs.mkdtempSync(path.join(os.tmpdir(), 'urgency-head-test-'));
const MODEL = path.join(SCRATCH, 'urgency.onnx');

/** Writes a trained head with its card into `dir`, as train-urgency.ts does. */
function writeHead(dir: string, examples: HeadExample[], seed: number): Buffer {
  const bytes = headOnnx(trainHead(examples, seed));
  fs.writeFileSync(path.join(dir, 'urgency.onnx'), bytes);
  const card = {
    name: 'urgency', version: 'test', task: 'mail urgency', file: 'urgency.onnx', sha256: crypto.createHash('sha256').update(bytes).digest('hex'), bytes: bytes.length,
    inputs: [], outputs: [], labels: ['low', 'medium', 'high'], heads: { urgency: { output: 'urgency_probs', labels: ['low', 'medium', 'high'], temperature: HEAD_CONFIG.temperature } },
    features: { version: 3, buckets: HEAD_CONFIG.buckets, featurizer: 'urgencyHeadFeatures', description: '' },
    training: { command: 'test', seed, algorithm: '', epochs: HEAD_CONFIG.epochs, examples: { train: examples.length }, corpus: '' }, metrics: {},
  };
  fs.writeFileSync(path.join(dir, 'urgency.json'), JSON.stringify(card));
  return bytes;
}
const WEIGHTS = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'electron/core/domains/mail/urgency-weights.json'), 'utf8')) as Record<string, unknown>;
const learned = parseUrgencyModel({ ...WEIGHTS, enabled: true });

const acknowledged = acknowledgedOutage;
const newsletter = newsletterMessage;

function ctxWith(models?: Record<string, string>): CoreContext {
  const dataDir = tempDir();
  if (models) fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ models }));
  const config = resolveConfig({ dataDir, vault: tempDir(), env: {}, appRoot: REPO_ROOT });
  return createCoreContext(config, { broadcast() {} }, { log: silentLogger(), platform: { kind: 'headless', notify() {}, setBadge() {}, badges: () => ({}), secrets: { encrypt: (s) => s, decrypt: (s) => s } } }).ctx;
}

let head: UrgencyHead;
let corpus: HeadExample[];
beforeAll(async () => {
  // The head as train-urgency.ts trains it, on part of its corpus: the urgency-a emails and one mailbox.
  corpus = [...readUrgencyCorpus(path.join(REPO_ROOT, 'models/corpora/urgency-a/messages.jsonl')), ...(await readMailSet(path.join(REPO_ROOT, 'tests/fixtures/mail-dev'), 'mail-dev'))];
  writeHead(SCRATCH, corpus, 20261124);
  head = await loadUrgencyHead(MODEL);
});
afterAll(() => head.dispose());

describe('a trained urgency head', () => {
  it('loads with its card (bytes and sha256 match the file) and answers the same probabilities every time', async () => {
    const bytes = fs.readFileSync(MODEL);
    expect(head.card.bytes).toBe(bytes.length);
    expect(head.card.sha256).toBe(crypto.createHash('sha256').update(bytes).digest('hex'));
    expect(head.card.labels).toEqual(['low', 'medium', 'high']);
    const text = urgencyHeadText(acknowledged.subject, acknowledged.body);
    const a = await head.probs(text);
    expect(await head.probs(text)).toEqual(a);
    for (const l of LEVELS) expect(Number.isFinite(a[l])).toBe(true);
    expect(a.low + a.medium + a.high).toBeCloseTo(1, 3);
  });

  it('reads the message, not its signature: a sign-off and what follows are cut', () => {
    const t = urgencyHeadText('Boiler', 'The boiler is leaking onto the floor.\nCan someone come today?\n\nThanks,\nSam\nFacilities | 0123 456');
    expect(t).toContain('leaking');
    expect(t).not.toContain('Facilities');
  });

  it('with the head in place, production down (acknowledged, unresolved) stays high and a newsletter low, under the shipped, hand and learned weights', async () => {
    const urgentHead = await head.probs(urgencyHeadText(acknowledged.subject, acknowledged.body));
    const newsHead = await head.probs(urgencyHeadText(newsletter.subject, newsletter.body));
    // and under weights that trust the head three times more than a definition's fit
    const trusting: UrgencyModel = { name: 'learned', weights: { ...(learned?.weights ?? {}), ...Object.fromEntries(LEVELS.map((l) => [`text model@${l}`, { low: 0, medium: 0, high: 0, [l]: 3 }])) } };
    for (const model of [SHIPPED_MODEL, HAND_MODEL, ...(learned ? [learned] : []), trusting]) {
      const urgent = urgencyOf({ ...acknowledged, textHead: urgentHead }, model);
      expect(urgent.urgency).toBe('high');
      expect(urgent.signals.some((s) => s.key === 'text model')).toBe(true);
      expect(urgencyOf({ ...newsletter, textHead: newsHead }, model).urgency).toBe('low');
    }
  });

  it("its signals read as sentences with the head's probability, centred so an undecided head adds nothing", () => {
    expect(textHeadSignals({ low: 0.1, medium: 0.07, high: 0.83 }).map((s) => s.label)).toEqual(['text model says low (0.10)', 'text model says medium (0.07)', 'text model says high (0.83)']);
    expect(textHeadSignals({ low: 1 / 3, medium: 1 / 3, high: 1 / 3 })).toEqual([]);
  });
});

describe('training the head', () => {
  it('is deterministic: the same examples give the same ONNX bytes, and the ONNX graph computes what the trained weights do', async () => {
    expect(corpus.length).toBeGreaterThan(400);
    const a = trainHead(corpus, 20261124);
    expect(headOnnx(a).equals(fs.readFileSync(MODEL))).toBe(true);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'urgency-head-test-'));
    expect(writeHead(dir, corpus, 20261124).equals(fs.readFileSync(MODEL))).toBe(true);
    const h = await loadUrgencyHead(path.join(dir, 'urgency.onnx'));
    for (const e of corpus.slice(0, 5)) {
      const got = await h.probs(e.text);
      const want = headProbs(a, e.text);
      for (const l of LEVELS) expect(got[l]).toBeCloseTo(want[l], 3);
    }
    await h.dispose();
  });
});

const PRODUCTION_DOWN = 'From: Ops <ops@acme.example>\nTo: me@acme.example\nSubject: Production down: checkout failing\nMessage-ID: <p1@t>\nDate: Mon, 04 May 2026 09:00:00 +0000\n\nCheckout returns 500 for every customer. Can you look right away?\n';

describe('with the model file', () => {
  it('the nlp domain loads it and mail triage reads its probabilities as signals', async () => {
    const nlp = await createNlp(ctxWith({ urgency: MODEL }));
    try {
      expect(nlp.info().models.map((m) => m.card.name)).toContain('urgency');
      const seen: UrgencyVerdict[] = [];
      const t = mailServiceForTest({ nlp, urgency: { observe: (v) => seen.push(v) } });
      t.mail.createInbox({ id: 'me', address: 'me@acme.example' });
      const r = await t.mail.importItems('me', [{ raw: Buffer.from(PRODUCTION_DOWN), source: 'p1' }]);
      expect((await t.mail.triageMessage({ message_id: r.message_ids[0]!, taxonomy_id: 'default' })).urgency).toBe('high');
      expect(seen[0]?.signals.filter((s) => s.key === 'text model').map((s) => s.label).join(' ')).toMatch(/^text model says \w+ \(0\.\d\d\)/);
      await t.close();
    } finally {
      await nlp.stop?.();
    }
  });
});

describe('without the model file', () => {
  let nlp: NlpDomain;
  beforeAll(async () => {
    nlp = await createNlp(ctxWith({ urgency: path.join(tempDir(), 'missing.onnx') }));
  });
  afterAll(() => nlp.stop?.());

  it('mail urgency is read from the signals alone: no head, no text-model signal, the same verdict as with no head asked for', async () => {
    expect(await nlp.mailUrgency?.('Production is down')).toBeUndefined();
    expect(nlp.info().models.map((m) => m.card.name)).not.toContain('urgency');
    const verdicts: Array<UrgencyVerdict[]> = [];
    for (const head of [undefined, null]) {
      const seen: UrgencyVerdict[] = [];
      const t = mailServiceForTest({ nlp, urgency: { observe: (v) => seen.push(v), ...(head === null ? { head } : {}) } });
      t.mail.createInbox({ id: 'me', address: 'me@acme.example' });
      const r = await t.mail.importItems('me', [{ raw: Buffer.from(PRODUCTION_DOWN), source: 'p1' }]);
      const got = await t.mail.triageMessage({ message_id: r.message_ids[0]!, taxonomy_id: 'default' });
      expect(got.urgency).toBe('high');
      verdicts.push(seen);
      await t.close();
    }
    const [missing, none] = verdicts;
    expect(missing?.[0]?.signals.some((s) => s.key === 'text model')).toBe(false);
    expect(missing?.[0]?.weights).toEqual(none?.[0]?.weights);
  });
});
