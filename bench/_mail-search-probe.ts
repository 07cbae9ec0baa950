/**
 * search_inbox in process on a big mail DB (no MCP, no process start): the same word classes as
 * bench/scale.ts (rare, mid, frequent) plus two-word queries, 60 queries each after a warm-up
 * pass, p50/p95 per class. Uses the 100,000-message state DB that bench/_mail-migration-cost.ts
 * builds (`state-v8.db` in the probe's temp dir), copied first so the original stays as built.
 * `node --import tsx bench/_mail-search-probe.ts [messages] [rounds]`
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { vocabulary } from './_scale-gen';
import { openDatabase } from '../electron/core/kernel/db/open';
import { stateMigrations } from '../electron/core/kernel/db';
import { searchMessages } from '../electron/core/domains/mail/search';

const N = Number(process.argv[2] ?? 100_000);
const rounds = Number(process.argv[3] ?? 3);
const dir = path.join(os.tmpdir(), `mailroom-import-probe-${N}`);
const base = path.join(dir, 'state-v8.db');
if (!fs.existsSync(base)) throw new Error(`no ${base}: run bench/_mail-migration-cost.ts ${N} first (it builds it)`);
const file = path.join(dir, 'state-search.db');
fs.copyFileSync(base, file);
const db = openDatabase(file, { migrations: stateMigrations });
const words = vocabulary(12_000).words;
const classes: Record<string, (i: number) => string> = {
  rare: (i) => words[3000 + ((i * 37) % 8000)]!,
  mid: (i) => words[200 + ((i * 13) % 800)]!,
  frequent: (i) => words[(i * 7) % 30]!,
  'two words': (i) => `${words[(i * 7) % 30]} ${words[200 + ((i * 13) % 800)]}`,
};
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
for (let r = 0; r < rounds; r++) {
  const out: string[] = [];
  for (const [cls, q] of Object.entries(classes)) {
    for (let i = 0; i < 60; i++) searchMessages(db, { inboxId: 'me', query: q(i), topK: 10 });
    const ms: number[] = [];
    for (let i = 0; i < 60; i++) {
      const t = performance.now();
      searchMessages(db, { inboxId: 'me', query: q(i), topK: 10 });
      ms.push(performance.now() - t);
    }
    out.push(`${cls} p50 ${pct(ms, 50).toFixed(1)} / p95 ${pct(ms, 95).toFixed(1)} ms`);
  }
  console.log(`${N} messages, in process: ${out.join(';  ')}  (load ${os.loadavg()[0]!.toFixed(1)})`);
}
db.close();
for (const s of ['', '-wal', '-shm']) fs.rmSync(file + s, { force: true });
