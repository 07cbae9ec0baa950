/**
 * The store side of a mail import alone: parses a generated mbox once (inline), then stores the
 * parsed messages into a fresh state DB per round, 500 a transaction in date order as ingest does,
 * and prints µs per message (wall and CPU: on a loaded machine read the CPU). Also prints a digest of what was stored (messages, thread
 * partition, thread rows, and a few searches) so two versions of the store can be compared.
 * `node --import tsx bench/_mail-store-probe.ts [messages] [rounds]` (add --cpu-prof to profile);
 * WINDOW=n stores n a transaction, AUTOMERGE=n sets the FTS5 index's automerge first.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateMbox } from './_scale-gen';
import { openDatabase } from '../electron/core/kernel/db/open';
import { stateMigrations } from '../electron/core/kernel/db';
import { MailStore } from '../electron/core/domains/mail/store';
import { splitMboxFile } from '../electron/core/domains/mail/importers';
import { inlineParser } from '../electron/core/domains/mail/parse-pool';
import { searchMessages } from '../electron/core/domains/mail/search';
import type { ParsedMessage } from '../electron/core/domains/mail/parse';

const N = Number(process.argv[2] ?? 10_000);
const rounds = Number(process.argv[3] ?? 3);
const dir = path.join(os.tmpdir(), `mailroom-import-probe-${N}`);
const mbox = path.join(dir, 'mail.mbox');
if (!fs.existsSync(mbox)) {
  fs.mkdirSync(dir, { recursive: true });
  generateMbox(mbox, N);
}
const fixed = Date.parse('2026-01-01T00:00:00Z');
const raws = [...splitMboxFile(mbox)].filter((r) => !r.invalid);
const parsed: ParsedMessage[] = [];
for (let i = 0; i < raws.length; i += 500) {
  for (const o of await inlineParser.parse(raws.slice(i, i + 500), () => fixed)) if (o.ok) parsed.push(o.m);
}
const windows: ParsedMessage[][] = [];
const W = Number(process.env.WINDOW ?? 500);
const automerge = process.env.AUTOMERGE;
for (let i = 0; i < parsed.length; i += W) windows.push(parsed.slice(i, i + W).sort((a, b) => a.createdAt.localeCompare(b.createdAt)));

for (let r = 0; r < rounds; r++) {
  const dbDir = fs.mkdtempSync(path.join(dir, 'store-'));
  const db = openDatabase(path.join(dbDir, 'state.db'), { migrations: stateMigrations });
  const store = new MailStore(db, () => fixed);
  db.prepare("INSERT INTO mail_inboxes (id, address, created_at) VALUES ('me', 'me@acme.example', 'now')").run();
  const inbox = store.inbox('me');
  db.pragma('wal_autocheckpoint = 8192');
  if (automerge) db.exec(`INSERT INTO mail_fts (mail_fts, rank) VALUES ('automerge', ${Number(automerge)})`);
  const load = os.loadavg()[0]!.toFixed(1);
  const cpu0 = process.cpuUsage();
  const t = performance.now();
  const touched = new Set<string>();
  for (const w of windows) db.transaction(() => w.forEach((m, i) => touched.add(store.insert(inbox, m, `mbox#${i}`).thread_id)))();
  db.transaction(() => store.rethreadBySubject(inbox, touched))();
  const ms = performance.now() - t;
  const cpu = process.cpuUsage(cpu0);
  const cpuUs = cpu.user + cpu.system;
  // Thread ids are random; the digest names a thread by its messages.
  const h = crypto.createHash('sha256');
  const rows = (sql: string) => db.prepare(sql).all();
  h.update(JSON.stringify(rows('SELECT id, dedup_key, internet_message_id, in_reply_to, refs, direction, from_addr, to_addrs, cc_addrs, subject, text, html, created_at, seen FROM mail_messages ORDER BY id')));
  h.update(JSON.stringify(rows("SELECT (SELECT group_concat(id, ' ') FROM (SELECT id FROM mail_messages m WHERE m.thread_id = t.id ORDER BY id)) AS ids, subject, norm_subject, participants, first_at, updated_at FROM mail_threads t ORDER BY ids")));
  h.update(JSON.stringify(rows('SELECT inbox_id, ref, message_id FROM mail_refs ORDER BY 1, 2, 3')));
  for (const q of ['the', 'project meeting', 'kyoto', 'budget roadmap', 'tor', 'lomi']) h.update(JSON.stringify(searchMessages(db, { inboxId: 'me', query: q, topK: 10 }).map((x) => [x.message_id, x.score.toFixed(9), x.snippet])));
  const threads = (db.prepare('SELECT count(*) AS n FROM mail_threads').get() as { n: number }).n;
  console.log(`store ${parsed.length} msgs, window ${W}${automerge ? `, automerge ${automerge}` : ''}: ${((ms * 1000) / parsed.length).toFixed(0)} µs/msg wall (${(ms / 1000).toFixed(2)} s), ${(cpuUs / parsed.length).toFixed(0)} µs/msg CPU, ${threads} threads, digest ${h.digest('hex').slice(0, 12)}, load ${load}`);
  db.close();
  fs.rmSync(dbDir, { recursive: true, force: true });
}
