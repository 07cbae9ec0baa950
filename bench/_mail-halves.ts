/**
 * Study/check split of a labelled mail set, for tuning without reading the check half:
 * triage items whose gold thread number is odd and extraction records at even index are "study";
 * the rest are "check". Prints per-half scores; misses are printed for the study half only
 * (pass `--check-misses` once tuning is over).
 * Usage: node --import tsx bench/_mail-halves.ts <dir> [--check-misses]
 */
import fs from 'node:fs';
import path from 'node:path';
import { evaluateMailSet, type MailGold } from './_mail-eval';

const dir = process.argv[2] ?? 'tests/fixtures/blind/mail';
const showCheck = process.argv.includes('--check-misses');
const gold = JSON.parse(fs.readFileSync(path.join(dir, 'gold.json'), 'utf8')) as MailGold;
const strip = (id: string) => id.trim().replace(/^<|>$/g, '');
const e = await evaluateMailSet(dir, { models: true });

const threadNo = (mid: string) => Number((gold.messages[mid]?.thread ?? '').replace(/\D/g, ''));
const triageHalf = (mid: string): 'study' | 'check' => (threadNo(mid) % 2 === 1 ? 'study' : 'check');
const exIndex = new Map((gold.extraction ?? []).map((x, i) => [strip(x.message_id), i]));
const exHalf = (mid: string): 'study' | 'check' => ((exIndex.get(strip(mid)) ?? 0) % 2 === 0 ? 'study' : 'check');

const tally = { study: {} as Record<string, [number, number]>, check: {} as Record<string, [number, number]> };
const add = (h: 'study' | 'check', k: string, total: number) => {
  const t = (tally[h][k] ??= [0, 0]);
  t[1] += total;
};
for (const [mid, g] of Object.entries(gold.messages)) {
  for (const k of ['intent', 'urgency', 'sentiment'] as const) if (g[k]) add(triageHalf(mid), k, 1);
}
for (const x of gold.extraction ?? []) {
  add(exHalf(x.message_id), 'fields', Object.keys(x.answer).length);
  add(exHalf(x.message_id), 'valid', 1);
}
const missesBy: Record<'study' | 'check', string[]> = { study: [], check: [] };
for (const m of e.misses) {
  const mt = /^(intent|urgency|sentiment) (\S+):/.exec(m);
  const mx = /^extract (\S+?)(?:\.(\w+))?: /.exec(m);
  if (mt) {
    const h = triageHalf(mt[2]!);
    tally[h][mt[1]!]![0]++;
    missesBy[h].push(m);
  } else if (mx) {
    const invalid = m.includes('invalid output');
    const mid = invalid ? m.slice(8, m.indexOf(': invalid')) : m.slice(8, m.lastIndexOf('.', m.indexOf(': ')));
    const h = exHalf(mid);
    tally[h][invalid ? 'valid' : 'fields']![0]++;
    missesBy[h].push(m);
  } else missesBy.study.push(m);
}
for (const h of ['study', 'check'] as const) {
  const parts = Object.entries(tally[h]).map(([k, [miss, n]]) => `${k} ${n - miss}/${n}`);
  console.log(`${h}: ${parts.join(', ')}`);
}
console.log(`total: intent ${(100 * e.intent).toFixed(1)}% urgency ${(100 * e.urgency).toFixed(1)}% sentiment ${(100 * e.sentiment).toFixed(1)}% extraction ${(100 * e.extraction_fields).toFixed(1)}% of ${e.n.extraction_fields}, valid ${(100 * e.extraction_valid).toFixed(1)}% of ${e.n.extraction_outputs}, threading ${(100 * e.threading).toFixed(1)}%, drafts signed ${(100 * e.drafts_signed).toFixed(0)}% within ${(100 * e.drafts_within_limit).toFixed(0)}%`);
console.log('\nstudy misses:\n' + missesBy.study.join('\n'));
if (showCheck) console.log('\ncheck misses:\n' + missesBy.check.join('\n'));
