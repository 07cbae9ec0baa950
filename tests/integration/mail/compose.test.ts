import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOwner, type TestOwner } from '../../helpers/owner';
import { startSmtp } from './support';
import type { HistoryDetail, HistoryListReply } from '../../../shared/contract/history';

const eml = (o: { id: string; from: string; subject: string; body: string; date: string; attach?: boolean }) =>
  Buffer.from(
    [
      `From: ${o.from}`,
      'To: support@acme.test',
      `Subject: ${o.subject}`,
      `Message-ID: <${o.id}@example.com>`,
      `Date: ${o.date}`,
      'MIME-Version: 1.0',
      ...(o.attach
        ? ['Content-Type: multipart/mixed; boundary="b1"', '', '--b1', 'Content-Type: text/plain', '', o.body, '--b1', 'Content-Type: application/pdf; name="invoice.pdf"', 'Content-Disposition: attachment; filename="invoice.pdf"', 'Content-Transfer-Encoding: base64', '', 'JVBERi0xLjQK', '--b1--']
        : ['Content-Type: text/plain; charset=utf-8', '', o.body]),
      '',
    ].join('\r\n'),
  );

async function upload(o: TestOwner, inbox: string, filename: string, body: Buffer) {
  const r = await fetch(`${o.url}/api/mail/import?inbox=${inbox}&filename=${encodeURIComponent(filename)}`, { method: 'POST', headers: { authorization: `Bearer ${o.token}` }, body });
  return (await r.json()) as { imported: number; thread_ids: string[]; message_ids: string[] };
}

type Thread = { id: string; subject: string; labels: string[]; triage?: { intent: string; urgency: string } | null };

describe('mail: triage on arrival, compose and forward through the outbox', () => {
  let owner: TestOwner;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  beforeAll(async () => {
    owner = await startTestOwner();
    smtp = await startSmtp();
    await owner.api('POST', '/api/mail/inboxes', { id: 'support', address: 'support@acme.test', name: 'Acme Support' });
  });
  afterAll(async () => {
    await owner?.close();
    await smtp?.close();
  });

  it('triages new messages when they are imported: the thread list carries intent and urgency without pressing Triage', async () => {
    const r = await upload(owner, 'support', 'refund.eml', eml({ id: 'r1', from: 'Dana <dana@client.test>', subject: 'Refund request: charged twice', body: 'Hi, I was charged twice for my order. Please refund the duplicate charge urgently, this is unacceptable.', date: 'Mon, 2 Nov 2026 09:00:00 +0000' }));
    expect(r.imported).toBe(1);
    const threads = (await owner.api<Thread[]>('GET', '/api/mail/inboxes/support/threads')).body;
    const t = threads.find((x) => x.subject.startsWith('Refund'))!;
    expect(t.triage?.intent).toBeTruthy();
    expect(t.triage?.urgency).toMatch(/low|medium|high/);
    const msg = (await owner.api<{ messages: Array<{ triage?: unknown }> }>('GET', `/api/mail/threads/${t.id}`)).body;
    expect(JSON.stringify(msg)).toContain(t.triage!.intent);
  });

  it('search snippets come from each hit\'s own message', async () => {
    await upload(owner, 'support', 'overdue.eml', eml({ id: 'od1', from: 'billing@vendor.test', subject: 'FINAL NOTICE: invoice 1990 overdue', body: 'Invoice 1990 is overdue. Please pay by Friday.', date: 'Mon, 2 Nov 2026 11:00:00 +0000' }));
    await upload(owner, 'support', 'feb.eml', eml({ id: 'feb1', from: 'billing@vendor.test', subject: 'Invoice 2041 for February', body: 'Please find our invoice for February services attached.', date: 'Mon, 2 Nov 2026 12:00:00 +0000' }));
    const r = (await owner.api<{ results: Array<{ subject: string; snippet: string }> }>('GET', '/api/mail/search?inbox=support&q=invoice')).body.results;
    expect(r.length).toBeGreaterThanOrEqual(2);
    expect(r.find((h) => h.subject.startsWith('FINAL NOTICE'))?.snippet).toContain('1990');
    expect(r.find((h) => h.subject.startsWith('Invoice 2041'))?.snippet).toContain('2041');
  });

  it('refuses to compose without SMTP settings, then sends a new message once, whatever the retries', async () => {
    const body = { to: ['ops@partner.test'], subject: 'Status update', body: 'All systems nominal.', idempotency_key: 'compose-1' };
    const noSmtp = await owner.api<{ code: string; message: string }>('POST', '/api/mail/inboxes/support/send', body);
    expect(noSmtp.status).toBe(409);
    expect(noSmtp.body.code).toBe('smtp_not_configured');

    await owner.api('PATCH', '/api/mail/inboxes/support', { smtp: { host: '127.0.0.1', port: smtp.port, secure: false } });
    const bad = await owner.api<{ code: string; message: string }>('POST', '/api/mail/inboxes/support/send', { ...body, to: ['not an address'] });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/Not an email address/);

    const first = await owner.api<{ status: string; thread_id: string | null }>('POST', '/api/mail/inboxes/support/send', body);
    expect(first.status).toBe(200);
    expect(first.body.status).toBe('sent');
    const again = await owner.api<{ status: string }>('POST', '/api/mail/inboxes/support/send', body);
    expect(again.body.status).toBe('sent');
    await smtp.waitFor(1);
    expect(smtp.received).toHaveLength(1);
    const got = smtp.received[0];
    expect(got.envelope.to).toEqual(['ops@partner.test']);
    expect(got.parsed.from?.text).toContain('support@acme.test');
    expect(got.parsed.subject).toBe('Status update');
    // The sent message is a thread of its own in the inbox.
    expect(first.body.thread_id).toBeTruthy();
    const thread = (await owner.api<{ thread: { subject: string } }>('GET', `/api/mail/threads/${first.body.thread_id}`)).body;
    expect(thread.thread.subject).toBe('Status update');
    // History lists the sent message once; its detail names sender, recipients and subject.
    const sentEntries = (await owner.api<HistoryListReply>('GET', '/api/history')).body.entries.filter((e) => e.kind === 'sent');
    expect(sentEntries).toHaveLength(1);
    const detail = await owner.api<HistoryDetail>('GET', `/api/history/entry?id=${encodeURIComponent(sentEntries[0]!.id)}`);
    expect(Object.fromEntries(detail.body.facts)).toMatchObject({ From: expect.stringContaining('support@acme.test'), To: 'ops@partner.test', Subject: 'Status update' });

    const conflict = await owner.api<{ code: string }>('POST', '/api/mail/inboxes/support/send', { ...body, body: 'Something else' });
    expect(conflict.status).toBe(409);
    expect(conflict.body.code).toBe('idempotency_conflict');
  });

  it('forwards a message with its text quoted, its attachment along, in the same thread', async () => {
    const r = await upload(owner, 'support', 'invoice.eml', eml({ id: 'inv1', from: 'billing@vendor.test', subject: 'Invoice 42', body: 'Please find invoice 42 attached.', date: 'Tue, 3 Nov 2026 10:00:00 +0000', attach: true }));
    const messageId = r.message_ids[0];
    const before = smtp.received.length;
    const f = await owner.api<{ status: string; thread_id: string }>('POST', `/api/mail/messages/${messageId}/forward`, { to: ['accounting@acme.test'], body: 'FYI, please pay this.', idempotency_key: 'fwd-1' });
    expect(f.status).toBe(200);
    expect(f.body.status).toBe('sent');
    await smtp.waitFor(before + 1);
    const got = smtp.received[before];
    expect(got.parsed.subject).toBe('Fwd: Invoice 42');
    expect(got.parsed.text).toContain('FYI, please pay this.');
    expect(got.parsed.text).toContain('---------- Forwarded message ----------');
    expect(got.parsed.text).toContain('Please find invoice 42 attached.');
    expect(got.parsed.inReplyTo).toBe('<inv1@example.com>');
    // The original rides along as message/rfc822; a reader sees its invoice.pdf.
    expect(got.parsed.attachments.map((a) => a.filename)).toContain('invoice.pdf');
    expect(f.body.thread_id).toBe(r.thread_ids[0]);
  });
});
