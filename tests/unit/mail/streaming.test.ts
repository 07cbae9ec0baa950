import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { splitMbox, splitMboxFile } from '../../../electron/core/domains/mail/importers';
import { ingest } from '../../../electron/core/domains/mail/ingest';
import { mailServiceForTest } from './helpers';
import { generateMbox } from '../../../bench/_scale-gen';

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

const msg = (o: { id: string; from: string; subject: string; date: string; irt?: string; body?: string }) =>
  `From ${o.from} Tue Mar  4 10:00:00 2025\nFrom: ${o.from}\nTo: me@acme.example\nSubject: ${o.subject}\nMessage-ID: <${o.id}@example.org>\nDate: ${o.date}\n` +
  (o.irt ? `In-Reply-To: <${o.irt}@example.org>\nReferences: <${o.irt}@example.org>\n` : '') +
  `\n${o.body ?? 'Hello.'}\n\n`;

function tmpFile(content: string | Buffer): string {
  const f = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mbox-')), 'mail.mbox');
  fs.writeFileSync(f, content);
  return f;
}

describe('streaming mbox import', () => {
  it('splits a file read in small chunks exactly as the whole buffer (separators across chunk edges, >From quoting, From in text)', () => {
    const parts = Array.from({ length: 40 }, (_, i) =>
      msg({ id: `s${i}`, from: `p${i}@example.org`, subject: `Subject ${i}`, date: 'Tue, 04 Mar 2025 10:00:00 +0000', body: `line ${i}\n>From the start\nsome text\nFrom here on it is body text\n${'x'.repeat(i * 13)}` }),
    );
    const mbox = Buffer.from(parts.join('').replace(/\n/g, (m, at: number) => (at % 3 === 0 ? '\r\n' : m)));
    const file = tmpFile(mbox);
    const whole = [...splitMbox(mbox, 'mail.mbox')];
    expect(whole).toHaveLength(40);
    for (const chunk of [7, 64, 1000, 1 << 20]) {
      const streamed = [...splitMboxFile(file, 'mail.mbox', chunk)];
      expect(streamed.map((x) => x.source)).toEqual(whole.map((x) => x.source));
      expect(streamed.every((x, i) => x.raw.equals(whole[i].raw))).toBe(true);
    }
  });

  it('threads correctly when replies come before their parents, windows apart (header links and subject-only replies)', async () => {
    const t = mailServiceForTest();
    open.push(t);
    const ib = t.mail.createInbox({ id: 'me', address: 'me@acme.example' });
    const file = tmpFile(
      [
        msg({ id: 'r1', from: 'zoe@example.org', subject: 'Re: Kickoff', date: 'Wed, 05 Mar 2025 10:00:00 +0000', irt: 'p1' }),
        msg({ id: 'r2', from: 'sam@example.org', subject: 'Re: Budget for Q3', date: 'Thu, 06 Mar 2025 10:00:00 +0000' }),
        ...Array.from({ length: 6 }, (_, i) => msg({ id: `n${i}`, from: `other${i}@example.org`, subject: `Unrelated ${i}`, date: 'Mon, 03 Mar 2025 10:00:00 +0000' })),
        msg({ id: 'p1', from: 'me@acme.example', subject: 'Kickoff', date: 'Tue, 04 Mar 2025 10:00:00 +0000' }),
        msg({ id: 'p2', from: 'sam@example.org', subject: 'Budget for Q3', date: 'Tue, 04 Mar 2025 09:00:00 +0000' }),
      ].join(''),
    );
    // Windows of 2 messages: each reply is stored several windows before its parent.
    const r = await ingest(t.mail.store, ib, splitMboxFile(file, 'mail.mbox', 64), { now: Date.now, batch: 2 });
    expect(r.imported).toBe(10);
    const threadOf = (id: string) => (t.db.prepare('SELECT thread_id FROM mail_messages WHERE internet_message_id = ?').get(`<${id}@example.org>`) as { thread_id: string }).thread_id;
    expect(threadOf('r1')).toBe(threadOf('p1'));
    expect(threadOf('r2')).toBe(threadOf('p2'));
    expect(threadOf('r1')).not.toBe(threadOf('r2'));
    expect(r.thread_ids).toHaveLength(8);
    const budget = t.mail.store.thread(threadOf('p2'));
    expect(budget.subject).toBe('Budget for Q3');
    expect(budget.first_at).toBe('2025-03-04T09:00:00.000Z');
    // The same file through importPath (what the CLI calls) into another inbox: the same threads.
    const ib2 = t.mail.createInbox({ id: 'me2', address: 'me@acme.example'.replace('me@', 'me2@') });
    const r2 = await t.mail.importPath(ib2.id, file);
    expect(r2.imported).toBe(10);
    expect(r2.thread_ids).toHaveLength(8);
  });

  it('a big import parsed on the parse thread stores what parsing inline stores, and every thread equals a full recompute', { timeout: 180_000 }, async () => {
    // Two stores, the same inbox: one import parsed on the parse thread, one inline.
    const t = mailServiceForTest();
    const u = mailServiceForTest();
    open.push(t, u);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'mbox-')), 'gen.mbox');
    const gen = generateMbox(file, 600);
    const threaded = t.mail.createInbox({ id: 'me', address: 'me@acme.example' });
    const inline = u.mail.createInbox({ id: 'me', address: 'me@acme.example' });
    // Windows of 100: the thread parses window n+1 while window n is stored.
    const a = await ingest(t.mail.store, threaded, splitMboxFile(file), { now: Date.now, batch: 100 });
    const b = await ingest(u.mail.store, inline, splitMboxFile(file), { now: Date.now, batch: 100, parseThread: false });
    expect(a.imported).toBe(600);
    expect({ imported: a.imported, failed: a.failed, threads: a.thread_ids.length }).toEqual({ imported: b.imported, failed: b.failed, threads: b.thread_ids.length });
    expect(a.thread_ids).toHaveLength(gen.threads);
    const messages = (s: typeof t) =>
      s.db.prepare('SELECT id, internet_message_id, subject, text, from_addr, to_addrs, cc_addrs, created_at, seen, html, attachments, raw FROM mail_messages ORDER BY id').all();
    expect(messages(t)).toEqual(messages(u));
    const partition = (s: typeof t) =>
      (s.db.prepare("SELECT group_concat(id, ' ') AS ids FROM (SELECT thread_id, id FROM mail_messages ORDER BY id) GROUP BY thread_id").all() as Array<{ ids: string }>).map((r) => r.ids).sort();
    expect(partition(t)).toEqual(partition(u));
    const threads = () => t.db.prepare('SELECT id, subject, participants, first_at, updated_at FROM mail_threads ORDER BY id').all();
    const stored = threads();
    for (const id of a.thread_ids) t.mail.store.refreshThread(id);
    expect(threads()).toEqual(stored);
  });
});
