import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateMbox } from '../_scale-gen';
import { openDatabase } from '../../electron/core/kernel/db/open';
import { stateMigrations } from '../../electron/core/kernel/db/index';
import { MailStore } from '../../electron/core/domains/mail/store';
import { ingest } from '../../electron/core/domains/mail/ingest';
import { splitMboxFile } from '../../electron/core/domains/mail/importers';
import { parseRaw } from '../../electron/core/domains/mail/parse';
import { searchMessages } from '../../electron/core/domains/mail/search';
const N = Number(process.env.N ?? 20000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'h3imp-'));
const mbox = path.join(tmp, 'm.mbox');
const mb = generateMbox(mbox, N);
// split + parse only
let t = performance.now();
let n = 0;
for (const it of splitMboxFile(mbox)) { n++; }
const splitMs = performance.now() - t;
t = performance.now();
for (const it of splitMboxFile(mbox)) { await parseRaw(it.raw, { now: Date.now }); }
const parseMs = performance.now() - t;
const db = openDatabase(path.join(tmp, 'state.db'), { migrations: stateMigrations });
const store = new MailStore(db, Date.now);
const ib = store.createInbox({ address: 'me@acme.example', id: 'me' });
const rss0 = process.memoryUsage().rss;
let peak = rss0;
const iv = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
t = performance.now();
const rep = await ingest(store, ib, splitMboxFile(mbox), { now: Date.now });
const ingMs = performance.now() - t;
clearInterval(iv);
console.log(JSON.stringify({ n, splitRate: Math.round(n / splitMs * 1000), parseRate: Math.round(n / parseMs * 1000), ingestRate: Math.round(rep.imported / ingMs * 1000), imported: rep.imported, threads: rep.thread_ids.length, expected: mb.threads, peakMB: Math.round(peak / 1e6), rss0MB: Math.round(rss0 / 1e6) }));
const mw = mb.vocab.words;
const cls: Record<string, (i: number) => string> = { rare: (i) => mw[3000 + ((i * 37) % 8000)], mid: (i) => mw[200 + ((i * 13) % 800)], frequent: (i) => mw[(i * 7) % 30] };
for (const [c, q] of Object.entries(cls)) {
  const xs: number[] = [];
  for (let i = 0; i < 65; i++) { const t0 = performance.now(); searchMessages(db, { inboxId: 'me', query: q(i), topK: 10 }); if (i >= 5) xs.push(performance.now() - t0); }
  xs.sort((a, b) => a - b);
  console.log(c, 'p95', xs[Math.floor(xs.length * 0.95)].toFixed(2), 'p50', xs[30].toFixed(2));
}
fs.rmSync(tmp, { recursive: true, force: true });
