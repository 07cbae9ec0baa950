/**
 * In-process A/B of the mail import (no process start): imports the same generated mbox into a
 * fresh state DB per run and prints msg/s, the owner's RSS before/peak/growth, and the DB size.
 * `node --import tsx bench/_mail-import-probe.ts [messages] [variants…]`; a variant is the
 * number of state migrations to apply (8 = today's schema; a new schema's migration number
 * once it exists — the contentless mail FTS was measured as 9 and left out), optionally `:window` (messages per stored window, default 500), optionally `:inline` (no parse thread). It prints the main thread's idle time (waiting for the parse thread). Runs alternate A B A B… so the load affects both alike.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateMbox } from './_scale-gen';
import { openDatabase, migrate } from '../electron/core/kernel/db/open';
import { stateMigrations } from '../electron/core/kernel/db';
import { MailStore } from '../electron/core/domains/mail/store';
import { splitMboxFile } from '../electron/core/domains/mail/importers';
import { ingest } from '../electron/core/domains/mail/ingest';

const N = Number(process.argv[2] ?? 10_000);
const variants = process.argv.slice(3).length ? process.argv.slice(3) : ['8', '8:inline'];
const rounds = Number(process.env.ROUNDS ?? 2);
const dir = path.join(os.tmpdir(), `mailroom-import-probe-${N}`);
const mbox = path.join(dir, 'mail.mbox');
if (!fs.existsSync(mbox)) {
  fs.mkdirSync(dir, { recursive: true });
  generateMbox(mbox, N);
}
const load = () => os.loadavg()[0]!.toFixed(1);
const mb = (b: number) => (b / 1024 / 1024).toFixed(0);

for (let r = 0; r < rounds; r++) {
  for (const variant of variants) {
    const [v = 9, batch = 500] = variant.split(':').map(Number);
    const parseThread = !variant.includes(':inline');
    const dbDir = fs.mkdtempSync(path.join(dir, `db-${v}-`));
    const db = openDatabase(path.join(dbDir, 'state.db'));
    migrate(db, stateMigrations.slice(0, v));
    const store = new MailStore(db, Date.now);
    db.prepare("INSERT INTO mail_inboxes (id, address, created_at) VALUES ('me', 'me@acme.example', 'now')").run();
    const inbox = store.inbox('me');
    (globalThis as { gc?: () => void }).gc?.();
    const rss0 = process.memoryUsage().rss;
    let peak = rss0;
    let heapPeak = 0;
    const timer = setInterval(() => {
      const u = process.memoryUsage();
      peak = Math.max(peak, u.rss);
      heapPeak = Math.max(heapPeak, u.heapTotal);
    }, 50);
    const l0 = load();
    const elu0 = performance.eventLoopUtilization();
    const t = performance.now();
    const rep = await ingest(store, inbox, splitMboxFile(mbox), { now: Date.now, batch, parseThread });
    const ms = performance.now() - t;
    const elu = performance.eventLoopUtilization(elu0);
    clearInterval(timer);
    peak = Math.max(peak, process.memoryUsage().rss);
    db.pragma('wal_checkpoint(TRUNCATE)');
    const size = fs.statSync(path.join(dbDir, 'state.db')).size;
    console.log(
      `migrations ${v}, window ${batch}${parseThread ? '' : ', inline parse'}: ${rep.imported} msgs in ${(ms / 1000).toFixed(2)} s = ${((rep.imported / ms) * 1000).toFixed(0)} msg/s  main thread idle ${(elu.idle / 1000).toFixed(1)} s  rss ${mb(rss0)} → peak ${mb(peak)} (+${mb(peak - rss0)}) MB  heap total peak ${mb(heapPeak)} MB  db ${mb(size)} MB  load ${l0}→${load()}`,
    );
    db.close();
    fs.rmSync(dbDir, { recursive: true, force: true });
  }
}
