/**
 * Filing figures on the in-sample labelled sets, printed as one table: strict top-1 (ours, ADR
 * sketch, keyword baseline), keep-rate, accuracy at confidence ≥ 0.8 and the learning curve.
 * Run: npx tsx bench/_filing-report.ts [--verbose]
 */
import path from 'node:path';
import { accuracy, calibration, evaluateSet, type Judged, highConfidence, FIXTURE, DEV_SET, DEV2_SET, DEV3_SET, DEV4_SET, DEV5_SET } from './_vault-eval';

const pct = (x: number) => (Number.isNaN(x) ? '  -  ' : `${(x * 100).toFixed(1)}%`);
const verbose = process.argv.includes('--verbose');
const withoutRules = process.argv.includes('--without-rules');
const pooled: Judged[] = [];
for (const dir of [FIXTURE, DEV_SET, DEV2_SET, DEV3_SET, DEV4_SET, DEV5_SET]) {
  const ev = await evaluateSet(dir, { curve: [0, 5, 10, 20], withoutRules });
  pooled.push(...ev.ours);
  const hi = highConfidence(ev.ours);
  const curve = ev.curve.map((c) => `${c.corrections}:${pct(c.accuracy)}(${c.rest})`).join(' ');
  console.log(
    `${path.basename(dir).padEnd(10)} n=${ev.ours.length} ours ${pct(accuracy(ev.ours))} sketch ${pct(accuracy(ev.baseline))} keyword ${pct(accuracy(ev.keyword))} | ≥0.8: ${pct(hi.accuracy)} of ${hi.n} | online ${pct(ev.online)} | curve ${curve}`,
  );
  if (verbose) for (const j of ev.ours) console.log(`   ${j.correct ? 'ok ' : 'BAD'} ${j.confidence.toFixed(2)} ${j.path} gold=${j.gold} got=${j.action} ${j.destination ?? ''}`);
}
console.log('pooled reliability: ' + calibration(pooled).map((b) => `${b.bucket} ${b.correct}/${b.n}`).join(' | '));
