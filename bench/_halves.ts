/**
 * A labelled set split in two halves by sorted gold key (1-based): odd-numbered items are the study
 * half (their misses are listed), even-numbered ones the check half (only counted).
 * Run: npx tsx bench/_halves.ts <set-dir>
 */
import path from 'node:path';
import { evaluateSet } from './_vault-eval';

const dir = path.resolve(process.argv[2] ?? '');
const ev = await evaluateSet(dir, { curve: [0, 5, 10, 20] });
const keys = ev.ours.map((j) => j.path).sort();
const odd = new Set(keys.filter((_, i) => i % 2 === 0));
const study = ev.ours.filter((j) => odd.has(j.path));
const check = ev.ours.filter((j) => !odd.has(j.path));
const pct = (xs: typeof study) => `${xs.filter((x) => x.correct).length}/${xs.length} (${((100 * xs.filter((x) => x.correct).length) / xs.length).toFixed(1)}%)`;
console.log(`${path.basename(dir)} all ${pct(ev.ours)} | study (odd) ${pct(study)} | check (even) ${pct(check)} | online ${(ev.online * 100).toFixed(1)}% | curve ${ev.curve.map((c) => `${c.corrections}:${(c.accuracy * 100).toFixed(1)}%(${c.rest})`).join(' ')}`);
for (const j of study) if (!j.correct) console.log(`   BAD ${j.confidence.toFixed(2)} ${j.path} gold=${j.gold} got=${j.action} ${j.destination ?? ''}`);
