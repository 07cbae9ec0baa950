/**
 * Per-set mail figures (urgency beside the always-medium, majority and keyword baselines; intent;
 * extraction), for every set with urgency gold or the folders named.
 * Usage: node --import tsx bench/_mail-figures.ts [dir …]
 */
import fs from 'node:fs';
import path from 'node:path';
import { evaluateMailSet, type MailGold } from './_mail-eval';
import { urgencySets } from './_mail-sets';

const named = process.argv.slice(2).filter((a) => !a.startsWith('--'));
const sets = named.length ? named.map((d) => ({ name: d, dir: path.resolve(d), blind: d.includes('blind') })) : urgencySets();
const pct = (x: number) => `${(100 * x).toFixed(1)}%`;
for (const s of sets) {
  const gold = JSON.parse(fs.readFileSync(path.join(s.dir, 'gold.json'), 'utf8')) as MailGold;
  const urg = Object.values(gold.messages).filter((m) => m.urgency);
  const medium = urg.filter((m) => m.urgency === 'medium').length / (urg.length || 1);
  const e = await evaluateMailSet(s.dir, { models: true });
  console.log(`${s.name.padEnd(18)} urgency ${pct(e.urgency)} of ${urg.length} (always-medium ${pct(medium)}, majority ${pct(e.baseline.urgency_majority)}, keyword ${pct(e.baseline.urgency_keyword)}) intent ${pct(e.intent)} extraction ${pct(e.extraction_fields)} of ${e.n.extraction_fields}, valid ${Math.round(e.extraction_valid * e.n.extraction_outputs)}/${e.n.extraction_outputs}, threading ${pct(e.threading)}`);
  if (process.argv.includes('--misses')) console.log(e.misses.filter((m) => m.startsWith('urgency') || m.startsWith('extract')).map((m) => `   ${m}`).join('\n'));
}
