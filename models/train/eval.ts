/**
 * `npm run eval:models`: metrics of the shipped models beside baselines measured on the same
 * sentences in this run. `--errors` lists every miss.
 *
 *   npm run eval:models                                   # in-sample dev sets (eval + dev)
 *   npm run eval:models -- --intent PATH.tsv --ner PATH.txt [--errors] [--models DIR]
 *
 * Files given on the command line use the formats of models/corpora/intent/eval.tsv and
 * models/corpora/ner/eval.txt; either flag may be given alone.
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTITY_TYPES, INTENTS } from '../../electron/core/domains/nlp/contract';
import { OnnxNlp } from '../../electron/core/domains/nlp/onnx';
import { evaluateIntent, evaluateNer, devFiles, evalFiles } from './evaluate';
import { readIntentTsv } from './generate-intent';
import { readAnnotated } from './generate-ner';
import type { Prf } from './metrics';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const f = (x: number | undefined) => (x === undefined ? '   -  ' : x.toFixed(3).padStart(6));

function argValues(flag: string): string[] {
  const out: string[] = [];
  process.argv.forEach((a, i) => {
    if (a === flag && process.argv[i + 1]) out.push(path.resolve(process.argv[i + 1]));
    else if (a.startsWith(`${flag}=`)) out.push(path.resolve(a.slice(flag.length + 1)));
  });
  return out;
}

async function main(): Promise<void> {
  const showErrors = process.argv.includes('--errors');
  const corpora = path.join(root, 'models', 'corpora');
  let intentPaths = argValues('--intent');
  let nerPaths = argValues('--ner');
  if (intentPaths.length === 0 && nerPaths.length === 0) {
    intentPaths = [evalFiles(corpora).intent, devFiles(corpora).intent];
    nerPaths = [evalFiles(corpora).ner, devFiles(corpora).ner];
  }
  // --models DIR: evaluate another pair of models (intent.onnx, ner.onnx and their cards), e.g. an older version.
  const modelsDir = argValues('--models')[0] ?? path.join(root, 'models');
  const nlp = await OnnxNlp.load({ intent: path.join(modelsDir, 'intent.onnx'), ner: path.join(modelsDir, 'ner.onnx') });
  const out: string[] = [];
  const rel = (p: string) => path.relative(process.cwd(), p) || p;
  for (const file of intentPaths) {
    const i = await evaluateIntent(nlp, readIntentTsv(file));
    out.push(`Intent — ${i.examples} messages (${rel(file)})`);
    out.push(`  ${'metric'.padEnd(34)} ${'model'.padStart(6)} ${'baseline'.padStart(9)}   goal`);
    out.push(`  ${'accuracy'.padEnd(34)} ${f(i.intent.accuracy)} ${f(i.intent_baseline.accuracy)}     ≥ 0.90`);
    out.push(`  ${'macro-F1'.padEnd(34)} ${f(i.intent.macro_f1)} ${f(i.intent_baseline.macro_f1)}`);
    out.push(`  ${'expected calibration error'.padEnd(34)} ${f(i.intent_ece)}`);
    for (const l of INTENTS) out.push(`  ${`  F1 ${l}`.padEnd(34)} ${f(i.intent.per_class[l].f1)} ${f(i.intent_baseline.per_class[l].f1)}`);
    out.push(`  baseline: ${i.intent_baseline.name}`);
    out.push('');
    const s = i.explicit_save;
    const so = i.explicit_save_model_only;
    const sb = i.explicit_save_baseline;
    out.push(`Explicit save requests — ${s.support} positives, ${s.negatives} negatives (${s.hard_negatives} tagged hardneg)`);
    out.push(`  ${'metric'.padEnd(34)} ${'ours'.padStart(6)} ${'model'.padStart(6)} ${'seed regex'.padStart(10)}   goal`);
    out.push(`  ${'recall'.padEnd(34)} ${f(s.recall)} ${f(so.recall)} ${f(sb.recall).padStart(10)}     ≥ 0.98`);
    out.push(`  ${'precision'.padEnd(34)} ${f(s.precision)} ${f(so.precision)} ${f(sb.precision).padStart(10)}`);
    out.push(`  ${'false-positive rate, all negatives'.padEnd(34)} ${f(s.fp_rate)} ${f(so.fp_rate)} ${f(sb.fp_rate).padStart(10)}     ≤ 0.02`);
    out.push(`  ${'false-positive rate, hard negatives'.padEnd(34)} ${f(s.hard_negative_fp_rate)} ${f(so.hard_negative_fp_rate)} ${f(sb.hard_negative_fp_rate).padStart(10)}`);
    out.push(`  ours = model head combined with the phrase detector (activation.ts); model = head alone`);
    out.push('');
    out.push(`Urgency — accuracy ${f(i.urgency.accuracy)} (keyword baseline ${f(i.urgency_baseline.accuracy)}), macro-F1 ${f(i.urgency.macro_f1)} (baseline ${f(i.urgency_baseline.macro_f1)})`);
    out.push('');
    if (showErrors) {
      out.push('Intent errors:', ...i.errors.map((e) => `  ${e}`));
      out.push('Explicit-save misses:', ...s.missed.map((e) => `  ${e}`), 'Explicit-save false alarms:', ...s.false_alarms.map((e) => `  ${e}`), '');
    }
  }
  for (const file of nerPaths) {
    const n = await evaluateNer(nlp, readAnnotated(file));
    out.push(`NER — ${n.sentences} sentences, ${n.entities} entities (${rel(file)}), exact span match`);
    out.push(`  ${'type'.padEnd(10)} ${'P'.padStart(6)} ${'R'.padStart(6)} ${'F1'.padStart(6)} ${'support'.padStart(8)} | ${'compromise F1'.padStart(13)} ${'heuristic F1'.padStart(12)}   goal F1 ≥ 0.80 overall, ≥ 0.70 per type`);
    const row = (name: string, p: Prf, b: Prf | undefined, h: Prf | undefined) =>
      out.push(`  ${name.padEnd(10)} ${f(p.precision)} ${f(p.recall)} ${f(p.f1)} ${String(p.support).padStart(8)} | ${f(b?.f1).padStart(13)} ${f(h?.f1).padStart(12)}`);
    const base = 'per_type' in n.baseline ? n.baseline : undefined;
    for (const t of ENTITY_TYPES) row(t, n.per_type[t], base?.per_type[t], n.heuristic.per_type[t]);
    row('overall', n.overall, base?.overall, n.heuristic.overall);
    out.push(`  baseline: ${n.baseline.name}`);
    out.push('');
    if (showErrors) out.push('NER errors:', ...n.errors.map((e) => `  ${e}`), '');
  }
  await nlp.dispose();
  process.stdout.write(out.join('\n') + '\n');
}

main().catch((e: unknown) => {
  process.stderr.write(`eval:models: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
