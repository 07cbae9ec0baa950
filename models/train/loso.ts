/**
 * Leave-one-set-out over the independently written sets (tests/fixtures/blind): for each weighting
 * (rows per independent line: the literal line plus augmented variants, or the literal line
 * repeated as a control), train on the generator + every independent set but one and evaluate on
 * the one left out, through the runtime (OnnxNlp), exactly as `npm run train` would train.
 * Weighting 0 (generator only) is trained once and evaluated on every set.
 *
 *   node --import tsx models/train/loso.ts [--model intent|ner|both] [--grid 0,4,8,12,24] [--literal 4] [--write] [--dump FILE] [--from-log FILE …]
 *
 * --write stores the chosen weights and the whole table in models/train/independent-weights.json
 * (read by train.ts). Choice: intent by the mean over sets of LOSO intent accuracy + explicit-save
 * recall − FP rate; NER by the mean LOSO F1 plus the mean of the weakest type's F1; ties go to
 * fewer rows. Deterministic (seeded); slow (one training per weighting and set).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { ENTITY_TYPES } from '../../electron/core/domains/nlp/contract';
import { OnnxNlp } from '../../electron/core/domains/nlp/onnx';
import { readIntentTsv } from './generate-intent';
import { readAnnotated } from './generate-ner';
import { trainIntent, trainNer } from './pipeline';
import { intentCard, nerCard, writeCard } from './model-cards';
import { independentSets, independentTraining, readWeights, WEIGHTS_FILE, type IndependentSet, type Weighting } from './independent';
import { evaluateIntent, evaluateNer } from './evaluate';
import { detectPhrases } from '../../electron/core/domains/nlp/phrases';

/** One left-out message as the save decision saw it (--dump): for the structure of the misses and the head threshold. */
export interface SaveRecord {
  set: string;
  weighting: string;
  text: string;
  gold: boolean;
  head: number;
  intent: string;
  strong: boolean;
  weak: boolean;
  negated: boolean;
}
const dumped: SaveRecord[] = [];

const SEED = Number(process.env.MAILROOM_TRAIN_SEED ?? 20251123);
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const modelsDir = path.join(root, 'models');
const corporaDir = path.join(modelsDir, 'corpora');
const arg = (name: string, dflt: string) => {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : dflt;
};
const quiet = () => undefined;
const r3 = (x: number) => Math.round(x * 1000) / 1000;

interface IntentFigures {
  accuracy: number;
  save_recall: number;
  save_fp: number;
  head_recall: number;
  head_fp: number;
}
interface NerFigures {
  f1: number;
  per_type: Record<string, number>;
}

const label = (w: Weighting) => (w.copies === 0 ? 'generator only' : `${w.copies} rows/line${w.literal ? ' (literal repeats)' : ' (1 literal + variants)'}`);

async function loadFrom(dir: string): Promise<OnnxNlp> {
  return OnnxNlp.load({ intent: path.join(dir, 'intent.onnx'), ner: path.join(dir, 'ner.onnx') });
}

/** A scratch folder holding one freshly trained model beside the shipped other one. */
function scratch(): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'mailroom-loso-'));
  for (const f of ['intent.onnx', 'intent.json', 'ner.onnx', 'ner.json']) fs.copyFileSync(path.join(modelsDir, f), path.join(dir, f));
  return dir;
}

async function intentLoso(sets: IndependentSet[], w: Weighting): Promise<Record<string, IntentFigures>> {
  const out: Record<string, IntentFigures> = {};
  const targets = sets.filter((s) => s.intent);
  // Generator only: one model for every set.
  const runs = w.copies === 0 ? [{ leaveOut: undefined as string | undefined, evalOn: targets }] : targets.map((s) => ({ leaveOut: s.name, evalOn: [s] }));
  for (const r of runs) {
    const indep = independentTraining(sets, { intent: w, ner: { copies: 0 } }, SEED, corporaDir, r.leaveOut);
    const run = trainIntent(corporaDir, SEED, indep.intent, quiet);
    const dir = scratch();
    fs.writeFileSync(path.join(dir, 'intent.onnx'), run.onnx);
    writeCard(dir, intentCard(run, SEED, { sets: indep.used, description: label(w) }));
    const nlp = await loadFrom(dir);
    for (const s of r.evalOn) {
      const m = await evaluateIntent(nlp, readIntentTsv(s.intent ?? ''));
      if (process.argv.includes('--dump')) {
        const rows = readIntentTsv(s.intent ?? '');
        const res = await nlp.intentBatch(rows.map((e) => e.text));
        rows.forEach((e, i) => {
          const ph = detectPhrases(e.text);
          dumped.push({ set: s.name, weighting: label(w), text: e.text, gold: e.explicitSave, head: res[i].explicitSave ?? 0, intent: res[i].intent, strong: ph.saveStrong, weak: ph.saveRequest, negated: ph.saveNegated });
        });
      }
      out[s.name] = { accuracy: m.intent.accuracy, save_recall: m.explicit_save.recall, save_fp: m.explicit_save.fp_rate, head_recall: m.explicit_save_model_only.recall, head_fp: m.explicit_save_model_only.fp_rate };
      process.stderr.write(`[loso] intent ${label(w)} → ${s.name}: ${JSON.stringify(out[s.name])}\n`);
    }
    await nlp.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

async function nerLoso(sets: IndependentSet[], w: Weighting): Promise<Record<string, NerFigures>> {
  const out: Record<string, NerFigures> = {};
  const targets = sets.filter((s) => s.ner);
  const runs = w.copies === 0 ? [{ leaveOut: undefined as string | undefined, evalOn: targets }] : targets.map((s) => ({ leaveOut: s.name, evalOn: [s] }));
  for (const r of runs) {
    const indep = independentTraining(sets, { intent: { copies: 0 }, ner: w }, SEED, corporaDir, r.leaveOut);
    const run = trainNer(corporaDir, SEED, indep.ner, quiet);
    const dir = scratch();
    fs.writeFileSync(path.join(dir, 'ner.onnx'), run.onnx);
    writeCard(dir, nerCard(run, SEED, { sets: indep.used, description: label(w) }));
    const nlp = await loadFrom(dir);
    for (const s of r.evalOn) {
      const m = await evaluateNer(nlp, readAnnotated(s.ner ?? ''));
      out[s.name] = { f1: m.overall.f1, per_type: Object.fromEntries(ENTITY_TYPES.map((t) => [t, m.per_type[t].f1])) };
      process.stderr.write(`[loso] ner ${label(w)} → ${s.name}: ${JSON.stringify(out[s.name])}\n`);
    }
    await nlp.dispose();
    fs.rmSync(dir, { recursive: true, force: true });
  }
  return out;
}

/**
 * --from-log FILE (repeatable): the per-set lines earlier runs of this script printed on stderr
 * ("[loso] intent 12 rows/line (1 literal + variants) → models-c: {…}"), so runs made separately
 * (one per model, in parallel, or a later grid) are tabulated and chosen from together. The same
 * weighting in a later file replaces an earlier one.
 */
function fromLogs(files: string[], sets: readonly IndependentSet[]): { intent: Map<string, Record<string, IntentFigures>>; ner: Map<string, Record<string, NerFigures>> } {
  const out = { intent: new Map<string, Record<string, IntentFigures>>(), ner: new Map<string, Record<string, NerFigures>>() };
  for (const f of files) {
    for (const line of fs.readFileSync(f, 'utf8').split('\n')) {
      const m = /^\[loso\] (intent|ner) (.+?) → (\S+): (\{.*\})$/.exec(line);
      if (!m) continue;
      const [, model, wl, set, json] = m;
      if (model === 'intent') out.intent.set(wl, { ...(out.intent.get(wl) ?? {}), [set]: JSON.parse(json) as IntentFigures });
      else out.ner.set(wl, { ...(out.ner.get(wl) ?? {}), [set]: JSON.parse(json) as NerFigures });
    }
  }
  // A weighting not measured on every set cannot be compared: left out.
  const complete = <T>(m: Map<string, Record<string, T>>) => {
    for (const [k, per] of m) {
      if (Object.keys(per).length >= sets.length) continue;
      process.stderr.write(`[loso] ${k}: not every set in the logs, left out\n`);
      m.delete(k);
    }
  };
  complete(out.intent);
  complete(out.ner);
  return out;
}

function weightingOf(l: string): Weighting {
  if (l === 'generator only') return { copies: 0 };
  const m = /^(\d+) rows\/line \((literal repeats|1 literal \+ variants)\)$/.exec(l);
  if (!m) throw new Error(`loso: unknown weighting label "${l}"`);
  return m[2] === 'literal repeats' ? { copies: Number(m[1]), literal: true } : { copies: Number(m[1]) };
}

function argValues(flag: string): string[] {
  return process.argv.flatMap((a, i) => (a === flag && process.argv[i + 1] ? [process.argv[i + 1]] : []));
}

const mean = (xs: number[]) => (xs.length ? xs.reduce((a, b) => a + b, 0) / xs.length : 0);

async function main(): Promise<void> {
  const model = arg('model', 'both');
  const grid = arg('grid', '0,4,8,12,24').split(',').map(Number);
  const literal = arg('literal', '4').split(',').filter(Boolean).map(Number);
  const sets = independentSets(root);
  const weightings: Weighting[] = [...grid.map((copies) => ({ copies })), ...literal.filter((c) => c > 0).map((copies) => ({ copies, literal: true }))];
  const logs = argValues('--from-log');
  if (!logs.length) process.stderr.write(`[loso] sets ${sets.map((s) => s.name).join(', ')}; weightings ${weightings.map(label).join(' | ')}\n`);
  const table: { intent: Array<{ weighting: Weighting; sets: Record<string, IntentFigures>; score: number }>; ner: Array<{ weighting: Weighting; sets: Record<string, NerFigures>; score: number }> } = { intent: [], ner: [] };
  const lines: string[] = [];
  const logged = logs.length ? fromLogs(logs, sets) : undefined;
  const byCopies = (a: Weighting, b: Weighting) => Number(a.literal === true) - Number(b.literal === true) || a.copies - b.copies;
  const intentRuns: Array<{ w: Weighting; per: () => Promise<Record<string, IntentFigures>> }> = logged
    ? [...logged.intent].map(([l, per]) => ({ w: weightingOf(l), per: async () => per })).sort((a, b) => byCopies(a.w, b.w))
    : weightings.map((w) => ({ w, per: () => intentLoso(sets, w) }));
  const nerRuns: Array<{ w: Weighting; per: () => Promise<Record<string, NerFigures>> }> = logged
    ? [...logged.ner].map(([l, per]) => ({ w: weightingOf(l), per: async () => per })).sort((a, b) => byCopies(a.w, b.w))
    : weightings.map((w) => ({ w, per: () => nerLoso(sets, w) }));
  if (model === 'intent' || model === 'both') {
    for (const { w, per: run } of intentRuns) {
      const per = await run();
      const v = Object.values(per);
      const score = mean(v.map((x) => x.accuracy)) + mean(v.map((x) => x.save_recall)) - mean(v.map((x) => x.save_fp));
      table.intent.push({ weighting: w, sets: Object.fromEntries(Object.entries(per).map(([k, x]) => [k, { accuracy: r3(x.accuracy), save_recall: r3(x.save_recall), save_fp: r3(x.save_fp), head_recall: r3(x.head_recall), head_fp: r3(x.head_fp) }])), score: r3(score) });
      lines.push(`intent ${label(w).padEnd(36)} ${Object.entries(per).map(([k, x]) => `${k}: acc ${x.accuracy.toFixed(3)} save ${x.save_recall.toFixed(3)}/${x.save_fp.toFixed(3)} head ${x.head_recall.toFixed(3)}`).join(' | ')} | mean acc ${mean(v.map((x) => x.accuracy)).toFixed(3)} save ${mean(v.map((x) => x.save_recall)).toFixed(3)}`);
    }
  }
  if (model === 'ner' || model === 'both') {
    for (const { w, per: run } of nerRuns) {
      const per = await run();
      const v = Object.values(per);
      const score = mean(v.map((x) => x.f1)) + mean(v.map((x) => Math.min(...Object.values(x.per_type))));
      table.ner.push({ weighting: w, sets: Object.fromEntries(Object.entries(per).map(([k, x]) => [k, { f1: r3(x.f1), per_type: Object.fromEntries(Object.entries(x.per_type).map(([t, f]) => [t, r3(f)])) }])), score: r3(score) });
      lines.push(`ner    ${label(w).padEnd(36)} ${Object.entries(per).map(([k, x]) => `${k}: F1 ${x.f1.toFixed(3)} (${Object.entries(x.per_type).map(([t, f]) => `${t[0]}${t[1]} ${f.toFixed(2)}`).join(' ')})`).join(' | ')} | mean ${mean(v.map((x) => x.f1)).toFixed(3)}`);
    }
  }
  process.stdout.write(lines.join('\n') + '\n');
  if (process.argv.includes('--dump')) fs.writeFileSync(arg('dump', 'loso-save.json'), JSON.stringify(dumped, null, 1));
  if (process.argv.includes('--write')) {
    const prev = readWeights();
    const prevTable = fs.existsSync(WEIGHTS_FILE) ? ((JSON.parse(fs.readFileSync(WEIGHTS_FILE, 'utf8')) as { loso?: typeof table }).loso ?? { intent: [], ner: [] }) : { intent: [], ner: [] };
    // A run of one model keeps the other model's choice and table.
    if (table.intent.length === 0) table.intent = prevTable.intent;
    if (table.ner.length === 0) table.ner = prevTable.ner;
    const best = <T extends { weighting: Weighting; score: number }>(rows: T[]) => [...rows].sort((a, b) => b.score - a.score || a.weighting.copies - b.weighting.copies)[0]?.weighting;
    const out = {
      comment: 'Rows per independently written line in training (1 literal + copies-1 variants; see models/train/independent.ts), chosen by leave-one-set-out: node --import tsx models/train/loso.ts --write. The table lists each left-out set\'s figures for each weighting.',
      seed: SEED,
      sets: sets.map((s) => s.name),
      intent: best(table.intent) ?? prev.intent,
      ner: best(table.ner) ?? prev.ner,
      criterion: { intent: 'mean over left-out sets of intent accuracy + explicit-save recall − FP rate', ner: 'mean over left-out sets of overall F1 + weakest type F1' },
      loso: table,
    };
    fs.writeFileSync(WEIGHTS_FILE, JSON.stringify(out, null, 2) + '\n');
    process.stderr.write(`[loso] wrote ${path.relative(root, WEIGHTS_FILE)}: intent ${label(out.intent)}, ner ${label(out.ner)}\n`);
  }
}

main().catch((e: unknown) => {
  process.stderr.write(`${e instanceof Error ? (e.stack ?? e.message) : String(e)}\n`);
  process.exit(1);
});
