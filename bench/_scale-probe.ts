/**
 * In-process probe of the scale figures Mailroom controls (no MCP round trip, no process start):
 * cold catch-up of a generated vault into a fresh index.db, brain_search by word class,
 * folder profiles and inbox_analyze of 100 items. `node --import tsx bench/_scale-probe.ts [notes] [what]`.
 * The generated vault is kept in /tmp/mailroom-probe-<notes> between runs.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateVault, vocabulary } from './_scale-gen';
import { catchUp, listNoteFiles, VaultIndex } from '../electron/core/domains/vault';
import { percentile } from './lib';

const N = Number(process.argv[2] ?? 10_000);
const what = process.argv[3] ?? 'all';
const dir = path.join(os.tmpdir(), `mailroom-probe-${N}`);
if (!fs.existsSync(path.join(dir, 'done'))) {
  fs.rmSync(dir, { recursive: true, force: true });
  generateVault(path.join(dir, 'vault'), N);
  fs.writeFileSync(path.join(dir, 'done'), '');
}
const root = path.join(dir, 'vault');
const words = vocabulary().words;
const load = () => os.loadavg()[0]!.toFixed(1);
const files = listNoteFiles(root);
const readAll = () => {
  const t = performance.now();
  for (const rel of files) fs.readFileSync(path.join(root, rel));
  return performance.now() - t;
};
readAll();
const raw = readAll();
console.log(`notes ${N}  load ${load()}  warm raw read ${raw.toFixed(0)} ms`);

const dbFile = path.join(dir, 'index.db');
let index: VaultIndex;
if (what === 'all' || what === 'index' || !fs.existsSync(dbFile)) {
  for (const f of fs.readdirSync(dir)) if (f.startsWith('index.db')) fs.rmSync(path.join(dir, f));
  const t = performance.now();
  index = new VaultIndex(dbFile);
  const rep = catchUp(index, root);
  const ms = performance.now() - t;
  const t2 = performance.now();
  index.db.exec("INSERT INTO notes_fts(notes_fts) VALUES('optimize')");
  console.log(`cold catch-up ${ms.toFixed(0)} ms (${(ms / raw).toFixed(1)}× raw), optimize ${(performance.now() - t2).toFixed(0)} ms, indexed ${rep.indexed}  load ${load()}`);
} else {
  index = new VaultIndex(dbFile);
  index.root = root;
}

if (what === 'all' || what === 'search') {
  const classes: Record<string, (i: number) => string> = {
    rare: (i) => words[3000 + ((i * 37) % 10_000)]!,
    mid: (i) => words[200 + ((i * 13) % 800)]!,
    frequent: (i) => words[(i * 7) % 30]!,
    'two words': (i) => `${words[50 + (i % 200)]} ${words[300 + ((i * 7) % 2000)]}`,
  };
  for (const [cls, q] of Object.entries(classes)) {
    for (let i = 0; i < 5; i++) index.search(q(i));
    const out: number[] = [];
    for (let i = 0; i < 200; i++) {
      const t = performance.now();
      index.search(q(i));
      out.push(performance.now() - t);
    }
    console.log(`brain search ${cls}: p50 ${percentile(out, 50).toFixed(2)} p95 ${percentile(out, 95).toFixed(2)} ms  load ${load()}`);
  }
}

if (what === 'all' || what === 'analyze') {
  const { analyzeForProbe } = await import('./_scale-probe-analyze');
  await analyzeForProbe(index, root, words, load);
}
index.close();
