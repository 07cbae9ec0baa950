import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { generateMbox } from '../../../bench/_scale-gen';
import { splitMboxFile } from '../../../electron/core/domains/mail/importers';
import { parseRaw, parseSimple, parseWithMailparser, type ParsedMessage } from '../../../electron/core/domains/mail/parse';
import { ingest } from '../../../electron/core/domains/mail/ingest';
import { mailServiceForTest } from './helpers';

const now = () => Date.parse('2025-03-04T10:00:00Z');
const plain = (m: ParsedMessage) => JSON.parse(JSON.stringify({ ...m, raw: undefined })) as unknown;

/** Every message the fast path takes must come out exactly as mailparser gives it. */
async function agree(raw: Buffer): Promise<boolean> {
  const fast = parseSimple(raw, { now });
  if (!fast) return false;
  expect(plain(fast), raw.toString('utf8').slice(0, 400)).toEqual(plain(await parseWithMailparser(raw, { now })));
  return true;
}

const base = [
  'From: Tomás Ortega <tomas@example.org>',
  'To: Me <me@acme.example>, ana@example.org',
  'Subject: Re: [atlas] budget review',
  'Date: Tue, 04 Mar 2025 09:15:00 +0100',
  'Message-ID: <a1@example.org>',
  'In-Reply-To: <a0@example.org>',
  'References: <z9@example.org> <a0@example.org>',
  'Status: RO',
];

describe('import fast path for plain messages', () => {
  it('parses generated plain mail exactly as mailparser does, and takes most of it', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'fastparse-')), 'mail.mbox');
    generateMbox(file, 1200);
    let fast = 0;
    let total = 0;
    for (const it of splitMboxFile(file)) {
      total++;
      if (await agree(it.raw)) fast++;
    }
    expect(total).toBe(1200);
    expect(fast / total).toBeGreaterThan(0.5);
    for (const it of splitMboxFile(path.resolve('tests/fixtures/mail-dev/mailbox.mbox'))) await agree(it.raw);
  }, 60_000);

  it('takes plain UTF-8 mail with LF or CRLF line ends and gets every field right', async () => {
    for (const eol of ['\n', '\r\n']) {
      const raw = Buffer.from([...base, 'Content-Type: text/plain; charset=utf-8', '', 'Hello Ana,', '', 'the numbers are in.', ''].join(eol));
      expect(await agree(raw)).toBe(true);
      const m = parseSimple(raw, { now })!;
      expect(m).toMatchObject({
        internetMessageId: '<a1@example.org>',
        inReplyTo: '<a0@example.org>',
        references: ['<z9@example.org>', '<a0@example.org>'],
        from: { name: 'Tomás Ortega', email: 'tomas@example.org' },
        to: [{ name: 'Me', email: 'me@acme.example' }, { email: 'ana@example.org' }],
        subject: 'Re: [atlas] budget review',
        normSubject: 'budget review',
        text: 'Hello Ana,\n\nthe numbers are in.',
        createdAt: '2025-03-04T08:15:00.000Z',
        seen: true,
      });
    }
  });

  it('leaves anything MIME-encoded, multipart, non-UTF-8, folded or unusual to mailparser (same result through parseRaw)', async () => {
    const cases: Array<[string, string[], string]> = [
      ['encoded subject', ['Subject: =?UTF-8?B?SGFsbG8=?='], 'x'],
      ['quoted-printable', ['Content-Type: text/plain; charset=utf-8', 'Content-Transfer-Encoding: quoted-printable'], 'caf=C3=A9 =\nok'],
      ['base64', ['Content-Type: text/plain', 'Content-Transfer-Encoding: base64'], 'SGVsbG8gdGhlcmU='],
      ['latin-1', ['Content-Type: text/plain; charset=iso-8859-1'], 'caf\u00e9'],
      ['html', ['Content-Type: text/html; charset=utf-8'], '<p>Hi <img src="https://t.example/x.gif"></p>'],
      ['multipart', ['Content-Type: multipart/mixed; boundary="b"'], '--b\nContent-Type: text/plain\n\nhi\n--b--\n'],
      ['flowed', ['Content-Type: text/plain; charset=utf-8; format=flowed'], 'a soft \nbreak'],
      ['folded subject', ['Subject: a long', ' subject line'], 'x'],
      ['quoted name', ['From: "Ortega, Tomás" <tomas@example.org>'], 'x'],
      ['group', ['To: friends: a@example.org, b@example.org;'], 'x'],
      ['odd date', ['Date: 2025-03-04 09:15'], 'x'],
      ['two From headers', ['From: other@example.org'], 'x'],
      ['attachment', ['Content-Disposition: attachment; filename="a.txt"'], 'x'],
    ];
    for (const [label, extra, body] of cases) {
      const names = new Set(extra.filter((l) => !/^\s/.test(l)).map((l) => l.slice(0, l.indexOf(':')).toLowerCase()));
      const head = label === 'two From headers' ? [...base, ...extra] : [...base.filter((l) => !names.has(l.slice(0, l.indexOf(':')).toLowerCase())), ...extra];
      const raw = Buffer.from([...head, '', body, ''].join('\n'), label === 'latin-1' ? 'latin1' : 'utf8');
      expect(parseSimple(raw, { now }), label).toBeUndefined();
      expect(plain(await parseRaw(raw, { now })), label).toEqual(plain(await parseWithMailparser(raw, { now })));
    }
  });
});

describe('threads kept up to date while importing', () => {
  it('every thread reads exactly as a full recompute from its messages after an import in any order', async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'threads-')), 'mail.mbox');
    generateMbox(file, 900);
    const t = mailServiceForTest();
    try {
      const ib = t.mail.createInbox({ address: 'me@acme.example', id: 'me' });
      // Small windows: replies often land before their parents (recompute) or after (extend).
      await ingest(t.mail.store, ib, splitMboxFile(file), { now: Date.now, batch: 7 });
      const snap = () => t.db.prepare('SELECT id, subject, participants, first_at, updated_at FROM mail_threads ORDER BY id').all();
      const before = snap();
      expect(before.length).toBeGreaterThan(300);
      for (const r of before as Array<{ id: string }>) t.mail.store.refreshThread(r.id);
      expect(snap()).toEqual(before);
    } finally {
      await t.close();
    }
  }, 60_000);
});
