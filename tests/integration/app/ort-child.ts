/**
 * Child process for the telemetry test: loads the shipped models through Mailroom's nlp code
 * and runs one inference, then prints what it saw.
 */
import path from 'node:path';
import { OnnxNlp } from '../../../electron/core/domains/nlp/onnx';

const models = process.argv[2] ?? '';
const nlp = await OnnxNlp.load({ intent: path.join(models, 'intent.onnx'), ner: path.join(models, 'ner.onnx') });
const r = await nlp.intent('Remember that Priya prefers tea');
const e = await nlp.entities('Remember that Priya prefers tea');
await nlp.dispose();
process.stdout.write(JSON.stringify({ intent: r.intent, entities: e.length }) + '\n');
