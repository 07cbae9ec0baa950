import fs from 'node:fs';
import path from 'node:path';
import { ImapFlow } from 'imapflow';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, startTestOwner, waitFor, type TestOwner } from '../../helpers/owner';
import { DOVECOT, startDovecot } from './dovecot';

if (!DOVECOT) process.stderr.write('\n[mail imap] SKIPPED: dovecot is not installed. Install it with: apt-get install -y dovecot-imapd\n');

const msg = (n: number, extra = '') =>
  `From: Sender ${n} <sender${n}@remote.example>\r\nTo: alice@acme.test\r\nSubject: IMAP message ${n}\r\nMessage-ID: <imap-${n}@remote.example>\r\nDate: Mon, 0${n} Mar 2025 10:00:00 +0000\r\n${extra}\r\nBody of message ${n}.\r\n`;

describe.skipIf(!DOVECOT)('IMAP sync against a real Dovecot', () => {
  let dovecot: Awaited<ReturnType<typeof startDovecot>>;
  let owner: TestOwner;
  let writer: ImapFlow;

  beforeAll(async () => {
    dovecot = await startDovecot('alice', 's3cret-imap-pass');
    writer = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: dovecot.user, pass: dovecot.password }, logger: false });
    await writer.connect();
    await writer.append('INBOX', msg(1), ['\\Seen']);
    await writer.append('INBOX', msg(2, 'In-Reply-To: <imap-1@remote.example>\r\nReferences: <imap-1@remote.example>\r\n'));
    owner = await startTestOwner();
  });
  afterAll(async () => {
    await writer?.logout().catch(() => {});
    await owner?.close();
    await dovecot?.stop();
  });

  const threads = async () => (await owner.api<Array<{ id: string; subject: string; messages: number; unread: number; triage: { intent: string; urgency: string } | null }>>('GET', '/api/mail/inboxes/alice/threads')).body;

  it('fetches existing mail, then imports a message that arrives while connected (IDLE)', async () => {
    const s0 = Date.now();
    await owner.api('POST', '/api/mail/inboxes', { id: 'alice', address: 'alice@acme.test' });
    const set = await owner.api('PATCH', '/api/mail/inboxes/alice', { imap: { host: '127.0.0.1', port: dovecot.port, secure: false, user: 'alice', password: 's3cret-imap-pass', mailbox: 'INBOX' } });
    expect(set.status).toBe(200);
    const first = await waitFor(threads, (t) => t.length === 1 && t[0].messages === 2, 15_000, 'initial IMAP sync');
    process.stderr.write(`[imap] initial sync ${Date.now() - s0} ms\n`);
    expect(first[0]).toMatchObject({ subject: 'IMAP message 1', unread: 1 });

    // A new message lands on the server while Mailroom is connected and idling.
    const t0 = Date.now();
    process.stderr.write(`[imap] initial sync done\n`);
    await writer.append('INBOX', msg(3));
    const after = await waitFor(threads, (t) => t.length === 2, 15_000, 'message pushed over IDLE');
    process.stderr.write(`[imap] pushed message imported in ${Date.now() - t0} ms\n`);
    expect(after.map((t) => t.subject).sort()).toEqual(['IMAP message 1', 'IMAP message 3']);
    // Triaged on arrival over IMAP too: intent and urgency without anyone pressing Triage.
    const triaged = await waitFor(threads, (t) => t.length === 2 && t.every((x) => !!x.triage), 15_000, 'triage on arrival');
    for (const t of triaged) expect(t.triage!.urgency).toMatch(/^(low|medium|high)$/);

    const mcp = await owner.mcp();
    const hits = await callTool<{ results: Array<{ snippet: string }> }>(mcp, 'search_inbox', { inbox_id: 'alice', query: 'Body of message 3' });
    expect(hits.results).toHaveLength(1);

    const inbox = (await owner.api<{ imap: Record<string, unknown>; sync: { status: string; last_uid: number } }>('GET', '/api/mail/inboxes/alice')).body;
    expect(inbox.imap).not.toHaveProperty('password');
    expect(inbox.sync.last_uid).toBe(3);
  });

  it('keeps the IMAP password out of the state DB in clear text', () => {
    const db = fs.readFileSync(path.join(owner.dataDir, 'state.db'));
    const wal = fs.existsSync(path.join(owner.dataDir, 'state.db-wal')) ? fs.readFileSync(path.join(owner.dataDir, 'state.db-wal')) : Buffer.alloc(0);
    expect(db.includes('s3cret-imap-pass')).toBe(false);
    expect(wal.includes('s3cret-imap-pass')).toBe(false);
  });

  it('does not import twice after a restart (resumes from the last UID)', async () => {
    const { dataDir, vaultDir } = owner;
    await owner.close();
    await writer.append('INBOX', msg(4));
    owner = await startTestOwner({ dataDir, vaultDir });
    const t = await waitFor(threads, (x) => x.length === 3, 15_000, 'sync after restart');
    expect(t.reduce((n, x) => n + x.messages, 0)).toBe(4);
  });
});
