/** Model cards: the JSON beside each ONNX file that says how to feed it and how good it is. */
import fs from 'node:fs';
import path from 'node:path';

import { ModelCardSchema, type ModelCard } from '../../../../shared/contract/nlp';

export { HeadSchema, ModelCardSchema, type ModelCard } from '../../../../shared/contract/nlp';

export function readCard(file: string): ModelCard {
  return ModelCardSchema.parse(JSON.parse(fs.readFileSync(file, 'utf8')));
}

/** The shipped models folder: `<appRoot>/models`. */
export const modelsDir = (appRoot: string) => path.join(appRoot, 'models');
