/** Model cards: the JSON beside each ONNX file that says how to feed it and how good it is. */
import fs from 'node:fs';
import path from 'node:path';
import { z } from 'zod';

const IoSchema = z.object({ name: z.string(), type: z.string(), shape: z.array(z.union([z.string(), z.number()])), description: z.string() });

export const HeadSchema = z.object({ output: z.string(), labels: z.array(z.string()), temperature: z.number() });

export const ModelCardSchema = z.object({
  name: z.string(),
  version: z.string(),
  task: z.string(),
  file: z.string(),
  sha256: z.string(),
  bytes: z.number(),
  inputs: z.array(IoSchema),
  outputs: z.array(IoSchema),
  labels: z.array(z.string()),
  heads: z.record(z.string(), HeadSchema).optional(),
  features: z.object({ version: z.number(), buckets: z.number(), featurizer: z.string(), description: z.string() }),
  decoding: z.string().optional(),
  /** NER: log P(label_t | label_t-1) from the training corpus, [labels × labels]; row = previous. */
  transitions: z.array(z.array(z.number())).optional(),
  /** NER: log P(label_0), one per label. */
  start: z.array(z.number()).optional(),
  training: z.object({
    command: z.string(),
    seed: z.number(),
    algorithm: z.string(),
    epochs: z.number(),
    examples: z.record(z.string(), z.number()),
    corpus: z.string(),
  }),
  metrics: z.record(z.string(), z.unknown()),
});
export type ModelCard = z.infer<typeof ModelCardSchema>;

export function readCard(file: string): ModelCard {
  return ModelCardSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
}

/** The shipped models folder: `<appRoot>/models`. */
export const modelsDir = (appRoot: string) => path.join(appRoot, 'models');
