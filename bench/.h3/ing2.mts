import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { generateMbox } from '../_scale-gen';
import { openDatabase } from '../../electron/core/kernel/db/open';
import { stateMigrations } from '../../electron/core/kernel/db/index';
import { MailStore } from '../../electron/core/domains/mail/store';
import { splitMboxFile } from '../../electron/core/domains/mail/importers';
import { parseRaw, type ParsedMessage } from '../../electron/core/domains/mail/parse';
const N = Number(process.env.N ?? 20000);
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'h3ing-'));
const mbox = path.join(tmp, 'm.mbox');
generateMbox(mbox, N);
const parsed: ParsedMessage[] = [];
for (const it of splitMboxFile(mbox)) parsed.push(await parseRaw(it.raw, { now: Date.now }));
parsed.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
for (const variant of (process.env.V ?? 'base').split(',')) {
  const db = openDatabase(path.join(tmp, `state-${variant}.db`), { migrations: stateMigrations });
  if (variant.includes('cache')) db.pragma('cache_size = -65536');
  if (variant.includes('ckpt')) db.pragma('wal_autocheckpoint = 8192');
  const W = variant.includes('w2000') ? 2000 : 500;
  const store = new MailStore(db, Date.now);
  const times = new Map<string, number>();
  if (variant.includes('stat')) {
    const orig = (store as unknown as { st(sql: string): any }).st.bind(store);
    (store as unknown as { st(sql: string): any }).st = (sql: string) => {
      const s = orig(sql);
      return new Proxy(s, { get(t, k) { const v = t[k]; if (typeof v !== 'function') return v; return (...a: unknown[]) => { const x = performance.now(); const r = v.apply(t, a); times.set(sql.slice(0, 70), (times.get(sql.slice(0, 70)) ?? 0) + performance.now() - x); return r; }; } });
    };
  }
  const ib = store.createInbox({ address: 'me@acme.example', id: 'me' });
  let tIns = 0, tCommit = 0;
  const t = performance.now();
  for (let i = 0; i < parsed.length; i += W) {
    const a = performance.now();
    db.exec('BEGIN');
    for (const m of parsed.slice(i, i + W)) store.insert(ib, m, 'x');
    const b = performance.now();
    db.exec('COMMIT');
    tIns += b - a; tCommit += performance.now() - b;
  }
  const ms = performance.now() - t;
  console.log(variant, JSON.stringify({ perMsgUs: Math.round(ms * 1000 / N), insUs: Math.round(tIns * 1000 / N), commitUs: Math.round(tCommit * 1000 / N) }));
  for (const [k, v] of [...times].sort((a, b) => b[1] - a[1])) console.log('   ', Math.round(v * 1000 / N), 'us', k.replace(/\s+/g, ' '));
  db.close();
}
fs.rmSync(tmp, { recursive: true, force: true });
