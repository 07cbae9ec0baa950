import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { InboxView as MailInboxView, MailTestResult } from '../../../shared/contract/mail';
import { startTestOwner, waitFor, type TestOwner } from '../../helpers/owner';
import { DOVECOT, startDovecot } from './dovecot';

async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  const port = (srv.address() as net.AddressInfo).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

describe.skipIf(!DOVECOT)('mail accounts against a real Dovecot', () => {
  let dovecot: Awaited<ReturnType<typeof startDovecot>>;
  let owner: TestOwner;
  beforeAll(async () => {
    dovecot = await startDovecot('bob', 'right-pass-42');
    owner = await startTestOwner();
    await owner.api('POST', '/api/mail/inboxes', { id: 'bob', address: 'bob@acme.test' });
  });
  afterAll(async () => {
    await owner?.close();
    await dovecot?.stop();
  });

  const imap = (extra: Record<string, unknown> = {}) => ({ host: '127.0.0.1', port: dovecot.port, secure: false, user: 'bob', mailbox: 'INBOX', ...extra });
  const test = async (body: unknown) => (await owner.api<MailTestResult>('POST', '/api/mail/accounts/test', body)).body;
  const inbox = async () => (await owner.api<MailInboxView>('GET', '/api/mail/inboxes/bob')).body;

  it('Test connection says in words what is wrong, and saves nothing', async () => {
    const wrong = await test({ kind: 'imap', settings: imap({ password: 'nope' }) });
    expect(wrong).toMatchObject({ ok: false, code: 'auth_failed' });
    expect(wrong.message).toMatch(/refused the password/);
    expect(wrong.message).not.toContain('nope');

    const right = await test({ kind: 'imap', settings: imap({ password: 'right-pass-42' }) });
    expect(right).toMatchObject({ ok: true });
    expect(right.message).toMatch(/Logged in to 127.0.0.1 as bob; INBOX has 0 messages/);

    const port = await closedPort();
    const refused = await test({ kind: 'imap', settings: imap({ port, password: 'x' }) });
    expect(refused).toMatchObject({ ok: false, code: 'unreachable' });
    expect(refused.message).toContain(`Could not reach 127.0.0.1:${port}`);

    const tls = await test({ kind: 'imap', settings: imap({ secure: true, password: 'x' }) });
    expect(tls).toMatchObject({ ok: false, code: 'tls_failed' });

    const smtp = await test({ kind: 'smtp', settings: { host: '127.0.0.1', port, secure: false } });
    expect(smtp).toMatchObject({ ok: false, code: 'unreachable' });

    expect((await inbox()).imap).toBeNull();
  });

  it('a wrong password shows the error in words and waits longer each time; fixing it syncs and resets', async () => {
    const set = await owner.api('PATCH', '/api/mail/inboxes/bob', { imap: imap({ password: 'wrong-pass' }) });
    expect(set.status).toBe(200);
    const first = await waitFor(inbox, (ib) => ib.sync?.status === 'error' && ib.sync.failures === 1, 20_000, 'first failure');
    expect(first.sync!.error).toMatch(/refused the password/);
    expect(first.sync!.error_code).toBe('auth_failed');
    expect(first.sync!.retry_in_ms).toBe(5_000);
    // The second attempt waits twice as long (it used to retry at the same pace forever).
    const second = await waitFor(inbox, (ib) => ib.sync?.failures === 2, 30_000, 'second failure');
    expect(second.sync!.retry_in_ms).toBe(10_000);

    // Test with the stored password (none typed) still fails; the right one passes.
    expect((await test({ kind: 'imap', inbox_id: 'bob', settings: imap() })).code).toBe('auth_failed');

    // Editing the account resets the wait and syncs.
    await owner.api('PATCH', '/api/mail/inboxes/bob', { imap: imap({ password: 'right-pass-42' }) });
    const ok = await waitFor(inbox, (ib) => ib.sync?.status === 'idle', 20_000, 'sync after the fix');
    expect(ok.sync!.failures).toBeUndefined();
    expect(ok.sync!.error).toBeUndefined();
    expect((await test({ kind: 'imap', inbox_id: 'bob', settings: imap() })).ok).toBe(true);
  }, 60_000);

  it('sending without an SMTP account says where to add one', async () => {
    const eml = 'From: Carol <carol@remote.example>\r\nTo: bob@acme.test\r\nSubject: Hello\r\nMessage-ID: <acct-1@remote.example>\r\nDate: Mon, 03 Mar 2025 10:00:00 +0000\r\n\r\nHi Bob.\r\n';
    const r = await fetch(`${owner.url}/api/mail/import?inbox=bob&filename=a.eml`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: eml });
    expect(r.status).toBe(200);
    const threads = (await owner.api<Array<{ id: string }>>('GET', '/api/mail/inboxes/bob/threads')).body;
    const sent = await owner.api<{ code: string; message: string }>('POST', `/api/mail/threads/${threads[0].id}/reply`, { body_or_draft_id: 'Thanks!', idempotency_key: 'k1' });
    expect(sent.status).toBe(409);
    expect(sent.body.code).toBe('smtp_not_configured');
    expect(sent.body.message).toContain('Settings → Mail accounts');
  });
});
