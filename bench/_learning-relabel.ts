/**
 * Learning when the person files differently from what the notes suggest: sibling folders of
 * one area are relabelled to one of them (e.g. everything under "🎓 PhD/" goes to its first
 * subfolder), so the plain analysis is wrong on most of them and only review can teach it.
 * Prints the learning curve per set. Run: npx tsx bench/_learning-relabel.ts
 */
import fs from 'node:fs';
import path from 'node:path';
import { evaluateSet, DEV_SET, DEV2_SET, DEV3_SET, DEV4_SET, FIXTURE } from './_vault-eval';

const pct = (x: number) => `${(x * 100).toFixed(1)}%`;
for (const dir of [FIXTURE, DEV_SET, DEV2_SET, DEV3_SET, DEV4_SET]) {
  const gold = JSON.parse(fs.readFileSync(path.join(dir, 'gold.json'), 'utf8')) as Record<string, string>;
  const moves = Object.values(gold).filter((g) => g !== 'keep' && g !== 'delete' && !g.startsWith('merge:'));
  // The area with the most items over two or more subfolders.
  const byArea = new Map<string, Set<string>>();
  for (const g of moves) if (g.includes('/')) byArea.set(g.split('/')[0], (byArea.get(g.split('/')[0]) ?? new Set()).add(g));
  const [area, subs] = [...byArea].filter(([, s]) => s.size >= 2).sort((a, b) => moves.filter((g) => g.startsWith(b[0] + '/')).length - moves.filter((g) => g.startsWith(a[0] + '/')).length)[0] ?? [];
  if (!area) continue;
  const target = [...subs].sort()[0];
  const ev = await evaluateSet(dir, { curve: [0, 2, 4, 6, 8], relabel: (g) => (g.startsWith(area + '/') ? target : g) });
  console.log(`${path.basename(dir).padEnd(10)} ${area}/* → ${target}: online ${pct(ev.online)} | curve ${ev.curve.map((c) => `${c.corrections}:${pct(c.accuracy)}(${c.rest}, no learning ${pct(ev.ours.slice(c.reviewed).filter((x) => x.correct).length / Math.max(1, c.rest))})`).join(' ')}`);
}
