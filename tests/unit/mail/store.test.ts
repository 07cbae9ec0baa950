import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { readSource, splitMbox } from '../../../electron/core/domains/mail/importers';
import { normalizeSubject, sanitizeMailHtml } from '../../../electron/core/domains/mail/parse';
import { mailServiceForTest } from './helpers';

const eml = (id: string, subject: string, extra = '', body = 'Hello.') =>
  `From: Zoe <zoe@example.org>\r\nTo: me@acme.example\r\nSubject: ${subject}\r\nMessage-ID: <${id}@example.org>\r\nDate: Tue, 04 Mar 2025 10:00:00 +0000\r\n${extra}\r\n${body}\r\n`;

const open: Array<{ close(): Promise<void> }> = [];
afterEach(async () => {
  await Promise.all(open.splice(0).map((o) => o.close()));
});

describe('importers', () => {
  it('splits an mbox and undoes >From quoting without touching the MIME', () => {
    const mbox = Buffer.from(`From zoe@example.org Tue Mar  4 10:00:00 2025\n${eml('a', 'One', '', 'line\n>From the start')}\nFrom zoe@example.org Tue Mar  4 11:00:00 2025\n${eml('b', 'Two')}`);
    const items = [...splitMbox(mbox)];
    expect(items).toHaveLength(2);
    expect(items[0].raw.toString()).toContain('\nFrom the start');
    expect(items[1].raw.toString()).toContain('Subject: Two');
  });

  it('refuses a file that is neither mbox nor message, with a message that says what to do', () => {
    expect(() => [...splitMbox(Buffer.from('hello'))]).toThrow(/not an mbox file.*\.eml files or a Maildir/);
  });

  it('reads a Maildir with seen flags from file names', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'maildir-'));
    for (const sub of ['cur', 'new', 'tmp']) fs.mkdirSync(path.join(dir, sub));
    fs.writeFileSync(path.join(dir, 'cur', '1.host:2,S'), eml('m1', 'Seen'));
    fs.writeFileSync(path.join(dir, 'new', '2.host'), eml('m2', 'New'));
    const items = [...readSource(dir)];
    expect(items.map((i) => [i.source.split('/')[0], i.seen])).toEqual([
      ['maildir:new', false],
      ['maildir:cur', true],
    ]);
  });
});

describe('parsing helpers', () => {
  it('normalises reply/forward prefixes in several languages and list tags', () => {
    expect(normalizeSubject('Re: AW: [team] Fwd:  Budget  Q3')).toBe('budget q3');
    expect(normalizeSubject('SV: Möte')).toBe('möte');
  });
  it('drops remote images and remote CSS and says so', () => {
    const r = sanitizeMailHtml('<p style="background:url(https://x.example/a.png)">hi</p><img src="https://x.example/p.gif"><img src="data:image/png;base64,AAAA">');
    expect(r.remote).toBe(true);
    expect(r.html).not.toMatch(/https:\/\/x\.example/);
    expect(r.html).toContain('data:image/png');
  });
});

describe('threads', () => {
  it('a thread made by its first message holds what a full recompute gives (people once each whatever the case, a name winning over a bare address), and a reply extends it the same way', async () => {
    const t = mailServiceForTest();
    open.push(t);
    t.mail.createInbox({ id: 'me', address: 'me@acme.example' });
    const first =
      'From: ann@example.org\r\nTo: me@acme.example, Bo <bo@example.org>, ANN Smith <Ann@Example.org>\r\nCc: bo@EXAMPLE.org, Cy <cy@example.org>\r\nSubject: Plans\r\nMessage-ID: <p1@example.org>\r\nDate: Tue, 04 Mar 2025 10:00:00 +0000\r\n\r\nHi.\r\n';
    const reply =
      'From: Dee <dee@example.org>\r\nTo: Ann Smith <ann@example.org>, me@acme.example\r\nSubject: Re: Plans\r\nMessage-ID: <p2@example.org>\r\nIn-Reply-To: <p1@example.org>\r\nDate: Wed, 05 Mar 2025 10:00:00 +0000\r\n\r\nSure.\r\n';
    const row = (id: string) => t.db.prepare('SELECT subject, participants, first_at, updated_at FROM mail_threads WHERE id = ?').get(id);
    const r = await t.mail.importItems('me', [{ raw: Buffer.from(first), source: 'p1' }]);
    const id = r.thread_ids[0];
    const stored = row(id);
    expect(JSON.parse((stored as { participants: string }).participants).map((p: { email: string }) => p.email)).toEqual(['Ann@Example.org', 'me@acme.example', 'bo@example.org', 'cy@example.org']);
    t.mail.store.refreshThread(id);
    expect(row(id)).toEqual(stored);
    await t.mail.importItems('me', [{ raw: Buffer.from(reply), source: 'p2' }]);
    const extended = row(id);
    expect((extended as { updated_at: string }).updated_at).toBe('2025-03-05T10:00:00.000Z');
    t.mail.store.refreshThread(id);
    expect(row(id)).toEqual(extended);
  });

  it('reads a snoozed thread as open once snooze_until has passed, and filters by it', async () => {
    const t = mailServiceForTest();
    open.push(t);
    t.mail.createInbox({ id: 'me', address: 'me@acme.example' });
    const r = await t.mail.importItems('me', [{ raw: Buffer.from(eml('s1', 'Snooze me')), source: 's1' }]);
    const threadId = r.thread_ids[0];
    t.mail.store.setThreadStatus(threadId, 'snoozed', new Date(Date.now() + 3600_000).toISOString());
    expect((t.mail.listThreads({ inbox_id: 'me', status: 'snoozed' }).threads as unknown[]).length).toBe(1);
    expect((t.mail.listThreads({ inbox_id: 'me', status: 'open' }).threads as unknown[]).length).toBe(0);
    t.mail.store.setThreadStatus(threadId, 'snoozed', new Date(Date.now() - 1000).toISOString());
    expect(t.mail.listThreads({ inbox_id: 'me', status: 'open' }).threads).toMatchObject([{ id: threadId, status: 'open' }]);
    expect(() => t.mail.store.setThreadStatus(threadId, 'snoozed')).toThrow(/snooze_until/);
  });

  it('saves a thread to the inbox with the triage folder as a processing hint, and routes by the triage route', async () => {
    const saved: unknown[] = [];
    const routed: unknown[] = [];
    const t = mailServiceForTest({
      inbox: { save: (x) => (saved.push(x), { id: 'note-1' }) },
      router: { routeItem: async (item, opts) => (routed.push({ item, opts }), { ok: true }) },
    });
    open.push(t);
    t.mail.createInbox({ id: 'me', address: 'me@acme.example' });
    const r = await t.mail.importItems('me', [
      { raw: Buffer.from(eml('i1', 'Invoice INV-7 attached', '', 'Please find attached invoice INV-7, total due 120.00 EUR.')), source: 'i1' },
      { raw: Buffer.from(eml('s2', 'App crashes on upload', '', 'The app crashes when I upload a file, can you help?')), source: 's2' },
    ]);
    const [inv, bug] = r.message_ids;
    await t.mail.triageMessage({ message_id: inv, taxonomy_id: 'default' });
    await t.mail.saveToInbox({ message_id: inv });
    expect(saved[0]).toMatchObject({ title: 'Invoice INV-7 attached', processing_hints: { category: 'Finance/Invoices', tags: ['mail', 'billing'] } });
    expect((saved[0] as { content: string }).content).toContain('total due 120.00 EUR');
    await t.mail.triageMessage({ message_id: bug, taxonomy_id: 'default' });
    await t.mail.route(bug, true);
    expect(routed[0]).toMatchObject({ item: { route: 'support-tickets', source: 'mail', title: 'App crashes on upload' }, opts: { dryRun: true } });
  });

  it('says clearly when the inbox is not available for Save to inbox', async () => {
    const t = mailServiceForTest();
    open.push(t);
    t.mail.createInbox({ id: 'me', address: 'me@acme.example' });
    const r = await t.mail.importItems('me', [{ raw: Buffer.from(eml('x1', 'Hi')), source: 'x1' }]);
    await expect(t.mail.saveToInbox({ thread_id: r.thread_ids[0] })).rejects.toMatchObject({ code: 'unavailable' });
  });
});
