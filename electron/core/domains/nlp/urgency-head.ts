/**
 * The mail urgency head: a small text classifier (low / medium / high) over a message's own words
 * (subject + the latest text, quotes and signature cut), hashed word and character n-grams as the
 * intent model reads them, trained on independently written labelled mail (`models/train/urgency-head.ts`)
 * and shipped as `models/urgency.onnx` with its card `models/urgency.json`. It is one piece of
 * evidence for mail urgency, never the decision: its probabilities enter the urgency signals.
 */
import fs from 'node:fs';
import path from 'node:path';
import * as ort from 'onnxruntime-node';
import { readCard, type ModelCard } from './cards';
import { hashFeatures, intentFeatureNames } from './features';
import { disableOrtTelemetry } from './onnx';
import { present } from '../../kernel/errors';

export const HEAD_LEVELS = ['low', 'medium', 'high'] as const;
export type HeadLevel = (typeof HEAD_LEVELS)[number];
export type HeadProbs = Record<HeadLevel, number>;

/** A line that only signs off ("Thanks,", "Best regards", "— Sam"), or the "-- " signature delimiter. */
const SIGN_OFF = /^\s*(?:--\s*|—\s*\S.*|(?:many\s+|kind\s+|best\s+|warm\s+)?(?:thanks|thank you|cheers|regards|best|best wishes|kind regards|warm regards|all the best|sincerely|yours|ta|love|x+)\s*[,!.]?\s*)$/i;

/**
 * What the head reads: the subject and the latest text with its signature cut (from a sign-off or
 * "-- " line in the last third of the text onwards), at most 1,500 characters.
 */
export function urgencyHeadText(subject: string, latest: string): string {
  const lines = latest.replace(/[’‘]/g, "'").split('\n');
  let end = lines.length;
  for (let i = Math.floor(lines.length / 3); i < lines.length; i++) {
    if (i > 0 && SIGN_OFF.test(lines[i] ?? '')) {
      end = i;
      break;
    }
  }
  return `${subject.replace(/[’‘]/g, "'")}\n${lines.slice(0, end).join('\n')}`.trim().slice(0, 1500);
}

/** The head's feature names: the intent model's featurizer over the head's text. */
export const urgencyHeadFeatures = (text: string): string[] => intentFeatureNames(text);

export interface UrgencyHead {
  readonly card: ModelCard;
  /** Probabilities of low / medium / high for a text built by `urgencyHeadText`. */
  probs(text: string): Promise<HeadProbs>;
  dispose(): Promise<void>;
}

/** Loads `urgency.onnx` with its card beside it; throws when either is missing or does not fit. */
export async function loadUrgencyHead(onnxPath: string): Promise<UrgencyHead> {
  disableOrtTelemetry();
  const card = readCard(path.join(path.dirname(onnxPath), `${path.basename(onnxPath, '.onnx')}.json`));
  const head = card.heads?.urgency;
  if (!head || head.labels.join() !== HEAD_LEVELS.join()) throw new Error(`${onnxPath}: card's urgency labels are not ${HEAD_LEVELS.join(',')}`);
  const session = await ort.InferenceSession.create(fs.readFileSync(onnxPath), { intraOpNumThreads: 1, interOpNumThreads: 1, executionMode: 'sequential', graphOptimizationLevel: 'all' });
  return {
    card,
    async probs(text: string): Promise<HeadProbs> {
      const rows = hashFeatures(urgencyHeadFeatures(text), card.features);
      const data = BigInt64Array.from((rows.length ? rows : [0]).map((v) => BigInt(v)));
      const out = await session.run({ features: new ort.Tensor('int64', data, [1, data.length]) });
      const p = present(out[head.output], `the ${head.output} output of the urgency head`).data as Float32Array;
      const r = (x: number | undefined) => Math.round((x ?? NaN) * 10000) / 10000;
      return { low: r(p[0]), medium: r(p[1]), high: r(p[2]) };
    },
    dispose: () => session.release(),
  };
}
