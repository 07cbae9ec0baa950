/**
 * `npm run eval:models`: held-out metrics of the shipped models beside baselines measured on
 * the same sentences in this run. `--errors` lists every miss.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTITY_TYPES, INTENTS } from '../../electron/core/domains/nlp/contract';
import { OnnxNlp } from '../../electron/core/domains/nlp/onnx';
import { evaluateAll } from './evaluate';
import type { Prf } from './metrics';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const f = (x: number | undefined) => (x === undefined ? '   -  ' : x.toFixed(3).padStart(6));

async function main(): Promise<void> {
  const showErrors = process.argv.includes('--errors');
  const nlp = await OnnxNlp.load({ intent: path.join(root, 'models', 'intent.onnx'), ner: path.join(root, 'models', 'ner.onnx') });
  const m = await evaluateAll(nlp, path.join(root, 'models', 'corpora'));
  await nlp.dispose();
  const out: string[] = [];
  const i = m.intent;
  out.push(`Intent — ${i.examples} held-out messages (models/corpora/intent/eval.tsv)`);
  out.push(`  ${'metric'.padEnd(34)} ${'model'.padStart(6)} ${'baseline'.padStart(9)}   goal`);
  out.push(`  ${'accuracy'.padEnd(34)} ${f(i.intent.accuracy)} ${f(i.intent_baseline.accuracy)}     ≥ 0.90`);
  out.push(`  ${'macro-F1'.padEnd(34)} ${f(i.intent.macro_f1)} ${f(i.intent_baseline.macro_f1)}`);
  out.push(`  ${'expected calibration error'.padEnd(34)} ${f(i.intent_ece)}`);
  for (const l of INTENTS) out.push(`  ${`  F1 ${l}`.padEnd(34)} ${f(i.intent.per_class[l].f1)} ${f(i.intent_baseline.per_class[l].f1)}`);
  out.push(`  baseline: ${i.intent_baseline.name}`);
  out.push('');
  out.push(`Explicit save requests — ${i.explicit_save.support} positives, ${i.explicit_save.hard_negatives} hard negatives`);
  out.push(`  ${'metric'.padEnd(34)} ${'ours'.padStart(6)} ${'model'.padStart(6)} ${'seed regex'.padStart(10)}   goal`);
  const s = i.explicit_save;
  const so = i.explicit_save_model_only;
  const sb = i.explicit_save_baseline;
  out.push(`  ${'recall'.padEnd(34)} ${f(s.recall)} ${f(so.recall)} ${f(sb.recall).padStart(10)}     = 1.00`);
  out.push(`  ${'precision'.padEnd(34)} ${f(s.precision)} ${f(so.precision)} ${f(sb.precision).padStart(10)}`);
  out.push(`  ${'false-positive rate, hard negatives'.padEnd(34)} ${f(s.hard_negative_fp_rate)} ${f(so.hard_negative_fp_rate)} ${f(sb.hard_negative_fp_rate).padStart(10)}     ≤ 0.02`);
  out.push(`  ${'false-positive rate, all negatives'.padEnd(34)} ${f(s.fp_rate)} ${f(so.fp_rate)} ${f(sb.fp_rate).padStart(10)}`);
  out.push(`  ours = model head OR phrase detector (negation/question aware); model = head alone`);
  out.push('');
  out.push(`Urgency — accuracy ${f(i.urgency.accuracy)} (keyword baseline ${f(i.urgency_baseline.accuracy)}), macro-F1 ${f(i.urgency.macro_f1)} (baseline ${f(i.urgency_baseline.macro_f1)})`);
  out.push('');
  const n = m.ner;
  out.push(`NER — ${n.sentences} held-out sentences, ${n.entities} entities (models/corpora/ner/eval.txt), exact span match`);
  out.push(`  ${'type'.padEnd(10)} ${'P'.padStart(6)} ${'R'.padStart(6)} ${'F1'.padStart(6)} ${'support'.padStart(8)} | ${'compromise F1'.padStart(13)} ${'heuristic F1'.padStart(12)}   goal F1 ≥ 0.80`);
  const row = (name: string, p: Prf, b: Prf | undefined, h: Prf | undefined) =>
    out.push(`  ${name.padEnd(10)} ${f(p.precision)} ${f(p.recall)} ${f(p.f1)} ${String(p.support).padStart(8)} | ${f(b?.f1).padStart(13)} ${f(h?.f1).padStart(12)}`);
  const base = 'per_type' in n.baseline ? n.baseline : undefined;
  for (const t of ENTITY_TYPES) row(t, n.per_type[t], base?.per_type[t], n.heuristic.per_type[t]);
  row('overall', n.overall, base?.overall, n.heuristic.overall);
  out.push(`  baseline: ${n.baseline.name}`);
  if (showErrors) {
    out.push('', 'Intent errors:', ...i.errors.map((e) => `  ${e}`));
    out.push('', 'Explicit-save misses:', ...s.missed.map((e) => `  ${e}`), 'Explicit-save false alarms (hard negatives):', ...s.false_alarms.map((e) => `  ${e}`));
    out.push('', 'NER errors:', ...n.errors.map((e) => `  ${e}`));
  }
  process.stdout.write(out.join('\n') + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
