/**
 * The ONNX backend: two onnxruntime-node sessions (intent with its extra heads, NER) fed by
 * the shared featurizers. Sessions run single-threaded: the graphs are a few gathers and a
 * softmax, and the owner process has other work on two cores.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { INTENTS, ENTITY_TYPES, type EntitySpan, type Intent, type IntentResult, type Nlp } from './contract';
import { readCard, type ModelCard } from './cards';
import { hashFeatures, intentFeatureNames, nerFeatureNames } from './features';
import { tokenize } from './tokenize';
import { spansFromPath, viterbi } from './decode';
import { assertSize } from './limits';
import { present } from '../../kernel/errors';

const URGENCY = ['low', 'normal', 'high'] as const;

export interface LoadedModel {
  card: ModelCard;
  session: ort.InferenceSession;
  path: string;
  loadMs: number;
}

/**
 * onnxruntime ships Microsoft telemetry: on Linux/macOS its first session writes a device id and
 * an event queue under ~/.cache/Microsoft/DeveloperTools/.onnxruntime/ and may upload them.
 * ORT_DISABLE_TELEMETRY=1 (read by the native library when its environment is first created,
 * i.e. at the first InferenceSession.create) turns that off. Forced on: nothing leaves the machine.
 */
export function disableOrtTelemetry(env: NodeJS.ProcessEnv = process.env): void {
  env.ORT_DISABLE_TELEMETRY = '1';
}

async function loadModel(onnxPath: string, cardPath: string): Promise<LoadedModel> {
  disableOrtTelemetry();
  const t0 = performance.now();
  const card = readCard(cardPath);
  const session = await ort.InferenceSession.create(fs.readFileSync(onnxPath), {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  return { card, session, path: onnxPath, loadMs: performance.now() - t0 };
}

/** Pads rows of hashed indices to one width with 0, the all-zero padding row. */
function toTensor(rows: number[][]): ort.Tensor {
  const k = Math.max(1, ...rows.map((r) => r.length));
  const data = new BigInt64Array(rows.length * k);
  rows.forEach((r, i) => r.forEach((v, j) => (data[i * k + j] = BigInt(v))));
  return new ort.Tensor('int64', data, [rows.length, k]);
}

export interface OnnxPaths {
  intent: string;
  ner: string;
}

export class OnnxNlp implements Nlp {
  readonly backend = 'onnx' as const;
  private constructor(
    readonly intentModel: LoadedModel,
    readonly nerModel: LoadedModel,
  ) {}

  /** Loads `<name>.onnx` with its card `<name>.json` beside it. */
  static async load(paths: OnnxPaths): Promise<OnnxNlp> {
    const card = (p: string) => path.join(path.dirname(p), `${path.basename(p, '.onnx')}.json`);
    const [intent, ner] = await Promise.all([loadModel(paths.intent, card(paths.intent)), loadModel(paths.ner, card(paths.ner))]);
    const heads = intent.card.heads ?? {};
    if (!heads.intent || heads.intent.labels.join() !== INTENTS.join()) throw new Error(`${paths.intent}: card's intent labels do not match ${INTENTS.join(',')}`);
    for (const t of ENTITY_TYPES) if (!ner.card.labels.includes(`B-${t}`)) throw new Error(`${paths.ner}: card has no B-${t} label`);
    return new OnnxNlp(intent, ner);
  }

  get cards(): ModelCard[] {
    return [this.intentModel.card, this.nerModel.card];
  }

  async intent(text: string): Promise<IntentResult> {
    return present((await this.intentBatch([text]))[0], 'the intent of the one text asked for');
  }

  /** Batched so evaluation and bulk inbox analysis pay one session call. */
  async intentBatch(texts: readonly string[]): Promise<IntentResult[]> {
    texts.forEach((t) => assertSize(t));
    const { card, session } = this.intentModel;
    const params = card.features;
    const rows = texts.map((t) => hashFeatures(intentFeatureNames(t), params));
    const out = await session.run({ features: toTensor(rows) });
    const heads = card.heads ?? {};
    const read = (head: string, i: number): number[] => {
      const h = heads[head];
      if (!h) return [];
      const data = present(out[h.output], `the ${h.output} output of the intent model`).data as Float32Array;
      const n = h.labels.length;
      return Array.from(data.subarray(i * n, (i + 1) * n));
    };
    return texts.map((_, i) => {
      const p = read('intent', i);
      let best = 0;
      // Numeric reads use `?? NaN`: what a missing head value gave in this arithmetic before.
      for (let j = 1; j < p.length; j++) if ((p[j] ?? NaN) > (p[best] ?? NaN)) best = j;
      const probs = Object.fromEntries(INTENTS.map((k, j) => [k, round(p[j] ?? NaN)])) as Record<Intent, number>;
      const save = read('explicit_save', i);
      const urg = read('urgency', i);
      let u = 1;
      for (let j = 0; j < urg.length; j++) if ((urg[j] ?? NaN) > (urg[u] ?? NaN)) u = j;
      return {
        intent: present(INTENTS[best], `intent label ${best}`),
        confidence: round(p[best] ?? NaN),
        probs,
        explicitSave: save.length ? round(save[1] ?? NaN) : undefined,
        urgency: urg.length
          ? { label: present(URGENCY[u], `urgency label ${u}`), probs: { low: round(urg[0] ?? NaN), normal: round(urg[1] ?? NaN), high: round(urg[2] ?? NaN) } }
          : undefined,
      };
    });
  }

  async entities(text: string): Promise<EntitySpan[]> {
    assertSize(text);
    const tokens = tokenize(text);
    if (tokens.length === 0) return [];
    const { card, session } = this.nerModel;
    const rows = nerFeatureNames(tokens).map((f) => hashFeatures(f, card.features));
    const out = await session.run({ features: toTensor(rows) });
    const logProbs = present(out.log_probs, 'the log_probs output of the NER model').data as Float32Array;
    const path = viterbi(logProbs, tokens.length, card.labels, { matrix: card.transitions, start: card.start });
    return spansFromPath(text, tokens, path, card.labels, logProbs);
  }

  async dispose(): Promise<void> {
    await Promise.all([this.intentModel.session.release(), this.nerModel.session.release()]);
  }
}

const round = (x: number) => Math.round(x * 10000) / 10000;
