/**
 * What the state migrations after 8 cost at start on a big existing mail DB (written for
 * migration 009, the contentless mail search index, measured and then left out: see
 * docs/scale.md "Mail import"; with no migration after 8 it times a plain open): builds a
 * state DB at migration 8 with N generated messages once (kept in the temp dir), then, per run,
 * copies it and opens the copy the way the owner does at start (openDatabase with every state
 * migration) in a fresh process, printing the migration's wall time, CPU time, the process's peak
 * RSS (VmHWM) and the DB size before/after.
 * `node --import tsx bench/_mail-migration-cost.ts [messages] [runs]`
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { generateMbox } from './_scale-gen';
import { openDatabase, migrate } from '../electron/core/kernel/db/open';
import { stateMigrations } from '../electron/core/kernel/db';
import { MailStore } from '../electron/core/domains/mail/store';
import { splitMboxFile } from '../electron/core/domains/mail/importers';
import { ingest } from '../electron/core/domains/mail/ingest';

const mb = (b: number) => (b / 1024 / 1024).toFixed(0);
const hwm = () => Number(/VmHWM:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;
const rss = () => Number(/VmRSS:\s+(\d+) kB/.exec(fs.readFileSync('/proc/self/status', 'utf8'))?.[1] ?? 0) * 1024;

if (process.argv[2] === '--migrate') {
  // Child: open the copy as the owner does, measure.
  const file = process.argv[3]!;
  const before = rss();
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const db = openDatabase(file, { migrations: stateMigrations });
  const ms = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  const v = db.pragma('user_version', { simple: true });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  console.log(JSON.stringify({ ms, cpuMs: (cpu.user + cpu.system) / 1000, rssBefore: before, hwm: hwm(), version: v, size: fs.statSync(file).size }));
  process.exit(0);
}

const N = Number(process.argv[2] ?? 100_000);
const runs = Number(process.argv[3] ?? 2);
const dir = path.join(os.tmpdir(), `mailroom-import-probe-${N}`);
const mbox = path.join(dir, 'mail.mbox');
const base = path.join(dir, 'state-v8.db');
if (!fs.existsSync(mbox)) {
  fs.mkdirSync(dir, { recursive: true });
  generateMbox(mbox, N);
}
if (!fs.existsSync(base)) {
  const tmp = base + '.building';
  fs.rmSync(tmp, { force: true });
  const db = openDatabase(tmp);
  migrate(db, stateMigrations.slice(0, 8));
  const store = new MailStore(db, Date.now);
  db.prepare("INSERT INTO mail_inboxes (id, address, created_at) VALUES ('me', 'me@acme.example', 'now')").run();
  const t = performance.now();
  const rep = await ingest(store, store.inbox('me'), splitMboxFile(mbox), { now: Date.now });
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  fs.renameSync(tmp, base);
  for (const s of ['-wal', '-shm']) fs.rmSync(tmp + s, { force: true });
  console.log(`built ${base}: ${rep.imported} messages at migration 8 in ${((performance.now() - t) / 1000).toFixed(1)} s`);
}
const self = fileURLToPath(import.meta.url);
for (let r = 0; r < runs; r++) {
  const copy = path.join(dir, `state-migrate-${r}.db`);
  fs.copyFileSync(base, copy);
  const load = os.loadavg()[0]!.toFixed(1);
  const out = JSON.parse(execFileSync(process.execPath, ['--import', 'tsx', self, '--migrate', copy], { encoding: 'utf8' }).trim().split('\n').pop()!) as {
    ms: number;
    cpuMs: number;
    rssBefore: number;
    hwm: number;
    version: number;
    size: number;
  };
  console.log(
    `${N} messages: migration 8 → ${out.version} in ${(out.ms / 1000).toFixed(1)} s (CPU ${(out.cpuMs / 1000).toFixed(1)} s), process RSS ${mb(out.rssBefore)} MB before, peak ${mb(out.hwm)} MB; DB ${mb(fs.statSync(base).size)} → ${mb(out.size)} MB; load ${load}→${os.loadavg()[0]!.toFixed(1)}`,
  );
  for (const s of ['', '-wal', '-shm']) fs.rmSync(copy + s, { force: true });
}
