/**
 * Filing figures on named labelled sets (default: the blind dev sets), with the learning curve;
 * `--verbose` lists every item, `--misses` only the wrong ones.
 * Run: npx tsx bench/_blind-study.ts [set-dir …] [--verbose|--misses] [--without-rules] [--hand]
 * (`--hand`: the hand weights instead of models/filing-weights.json)
 */
import path from 'node:path';
import { accuracy, evaluateSet, highConfidence, BLIND_SETS } from './_vault-eval';

const pct = (x: number) => (Number.isNaN(x) ? '  -  ' : `${(x * 100).toFixed(1)}%`);
const args = process.argv.slice(2);
const dirs = args.filter((a) => !a.startsWith('--'));
const verbose = args.includes('--verbose');
const misses = args.includes('--misses');
for (const dir of dirs.length ? dirs.map((d) => path.resolve(d)) : BLIND_SETS) {
  const t0 = Date.now();
  const ev = await evaluateSet(dir, { curve: [0, 5, 10, 20], withoutRules: args.includes('--without-rules'), ...(args.includes('--hand') ? { weights: null } : {}) });
  const hi = highConfidence(ev.ours);
  const curve = ev.curve.map((c) => `${c.corrections}:${pct(c.accuracy)}(${c.rest})`).join(' ');
  console.log(`${path.basename(dir).padEnd(12)} n=${ev.ours.length} ours ${pct(accuracy(ev.ours))} sketch ${pct(accuracy(ev.baseline))} | ≥0.8: ${pct(hi.accuracy)} of ${hi.n} | online ${pct(ev.online)} | curve ${curve} | ${Date.now() - t0} ms`);
  if (verbose || misses) for (const j of ev.ours) if (verbose || !j.correct) console.log(`   ${j.correct ? 'ok ' : 'BAD'} ${j.confidence.toFixed(2)} ${j.path} gold=${j.gold} got=${j.action} ${j.destination ?? ''}`);
}
