/**
 * Where the owner's RSS goes during a mail import (in process, no owner start): imports a
 * generated mbox into a fresh state DB and prints, every few windows, process.memoryUsage()
 * (rss, heapUsed, heapTotal, external, arrayBuffers), the malloc'd part of RSS (the brk heap
 * and anonymous mappings that are not V8's, from /proc/self/smaps), and the mail DB's cache_size
 * and mmap_size. `node --expose-gc --import tsx bench/_mail-import-mem.ts [messages] [every]`;
 * run it with and without MALLOC_ARENA_MAX=2 in the environment to compare.
 * Env: INLINE=1 parses on this thread; WINDOW=n stores n messages a window.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import v8 from 'node:v8';
import { generateMbox } from './_scale-gen';
import { openDatabase } from '../electron/core/kernel/db/open';
import { stateMigrations } from '../electron/core/kernel/db';
import { MailStore } from '../electron/core/domains/mail/store';
import { splitMboxFile } from '../electron/core/domains/mail/importers';
import { ingest } from '../electron/core/domains/mail/ingest';

const N = Number(process.argv[2] ?? 20_000);
const every = Number(process.argv[3] ?? 10);
const dir = path.join(os.tmpdir(), `mailroom-import-probe-${N}`);
const mbox = path.join(dir, 'mail.mbox');
if (!fs.existsSync(mbox)) {
  fs.mkdirSync(dir, { recursive: true });
  generateMbox(mbox, N);
}
const mb = (b: number) => (b / 1024 / 1024).toFixed(0);

/** RSS by kind from smaps: the brk heap, anonymous mappings, files (kB → bytes). */
function smaps(): { brk: number; anon: number; file: number } {
  const out = { brk: 0, anon: 0, file: 0 };
  let kind: 'brk' | 'anon' | 'file' = 'anon';
  for (const line of fs.readFileSync('/proc/self/smaps', 'utf8').split('\n')) {
    const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \d+\s*(.*)$/.exec(line);
    if (head) {
      const name = head[1] ?? '';
      kind = name === '[heap]' ? 'brk' : name === '' || name.startsWith('[anon') ? 'anon' : 'file';
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) out[kind] += Number(rss[1]) * 1024;
  }
  return out;
}

const dbDir = fs.mkdtempSync(path.join(dir, 'mem-'));
const db = openDatabase(path.join(dbDir, 'state.db'), { migrations: stateMigrations });
const store = new MailStore(db, Date.now);
db.prepare("INSERT INTO mail_inboxes (id, address, created_at) VALUES ('me', 'me@acme.example', 'now')").run();
const inbox = store.inbox('me');
console.log(`cache_size ${db.pragma('cache_size', { simple: true })}, mmap_size ${db.pragma('mmap_size', { simple: true })}, MALLOC_ARENA_MAX=${process.env.MALLOC_ARENA_MAX ?? '(unset)'}, load ${os.loadavg()[0]!.toFixed(1)}`);
(globalThis as { gc?: () => void }).gc?.();
const line = (label: string) => {
  const u = process.memoryUsage();
  const s = smaps();
  const v8Physical = v8.getHeapSpaceStatistics().reduce((a, sp) => a + sp.physical_space_size, 0);
  console.log(
    `${label.padEnd(14)} rss ${mb(u.rss)}  heapUsed ${mb(u.heapUsed)}  heapTotal ${mb(u.heapTotal)}  external ${mb(u.external)}  arrayBuffers ${mb(u.arrayBuffers)}  | brk ${mb(s.brk)}  anon ${mb(s.anon)} (main V8 ${mb(v8Physical)})  file ${mb(s.file)}`,
  );
  return u.rss;
};
const rss0 = line('start');
let peak = rss0;
let windows = 0;
const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 50);
const t = performance.now();
const rep = await ingest(store, inbox, splitMboxFile(mbox), {
  now: Date.now,
  batch: Number(process.env.WINDOW ?? 500),
  parseThread: process.env.INLINE !== '1',
  onProgress: (p) => {
    if (p.phase === 'store' && ++windows % every === 0) line(`${p.done}`);
  },
});
const ms = performance.now() - t;
clearInterval(timer);
line('end');
(globalThis as { gc?: () => void }).gc?.();
line('after gc');
console.log(`${rep.imported} msgs in ${(ms / 1000).toFixed(2)} s = ${((rep.imported / ms) * 1000).toFixed(0)} msg/s, peak rss ${mb(peak)} MB (+${mb(peak - rss0)}), load ${os.loadavg()[0]!.toFixed(1)}`);
db.close();
fs.rmSync(dbDir, { recursive: true, force: true });
