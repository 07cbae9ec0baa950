import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { callTool, callToolError, startTestOwner, REPO_ROOT, waitFor, type TestOwner } from '../../helpers/owner';
import { startSmtp } from './support';

const CHILD = path.join(REPO_ROOT, 'tests/integration/mail/outbox-child.ts');
const children: ChildProcess[] = [];
afterAll(() => children.forEach((c) => c.exitCode === null && c.kill('SIGKILL')));

function runChild(args: string[], until: RegExp): Promise<ChildProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', CHILD, ...args], { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`child did not print ${until}: ${out} ${err}`)), 30_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (until.test(out)) {
        clearTimeout(timer);
        resolve(child);
      }
    });
    child.stderr!.on('data', (d: Buffer) => (err += d.toString()));
    child.on('exit', (code) => code !== null && code !== 0 && reject(new Error(`child exited ${code}: ${err}`)));
  });
}

const killed = (c: ChildProcess) => new Promise<void>((r) => (c.exitCode !== null || c.signalCode ? r() : (c.once('exit', () => r()), c.kill('SIGKILL'))));

describe('send_reply across kill -9', () => {
  it('delivers each idempotency key exactly once when the process dies between queueing and the SMTP reply', async () => {
    let release: () => void = () => {};
    let holdNext = false;
    const smtp = await startSmtp({ hold: () => (holdNext ? new Promise<void>((r) => (release = r)) : Promise.resolve()) });
    let owner: TestOwner = await startTestOwner();
    const { dataDir, vaultDir } = owner;
    await owner.api('POST', '/api/mail/inboxes', { id: 'support', address: 'support@acme.test' });
    await fetch(`${owner.url}/api/mail/import?inbox=support&filename=f.mbox`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: fs.readFileSync(path.join(REPO_ROOT, 'tests/fixtures/mail/labelled.mbox')) });
    await owner.api('PATCH', '/api/mail/inboxes/support', { smtp: { host: '127.0.0.1', port: smtp.port, secure: false } });
    const mcp = await owner.mcp();
    const hit = await callTool<{ results: Array<{ thread_id: string }> }>(mcp, 'search_inbox', { inbox_id: 'support', query: 'Dinner Saturday' });
    const threadId = hit.results[0].thread_id;
    await owner.close();

    // 1. Killed right after the outbox row is committed, before any SMTP traffic.
    const c1 = await runChild([dataDir, vaultDir, 'queue', threadId, 'key-queued', 'Queued then killed.'], /QUEUED/);
    await killed(c1);
    expect(smtp.received).toHaveLength(0);

    // 2. Killed after the server has the message but before it answered 250.
    holdNext = true;
    const c2 = await runChild([dataDir, vaultDir, 'send', threadId, 'key-mid-smtp', 'Killed mid SMTP.'], /SENDING/);
    await smtp.waitFor(1);
    await killed(c2);
    holdNext = false;
    release();
    expect(smtp.received).toHaveLength(1);

    // Restart: the queued row is sent once; the row cut off mid-SMTP is never resent.
    owner = await startTestOwner({ dataDir, vaultDir });
    await smtp.waitFor(2);
    const outbox = await waitFor(
      async () => (await owner.api<Array<{ idempotency_key: string; status: string }>>('GET', '/api/mail/outbox')).body,
      (rows) => rows.find((r) => r.idempotency_key === 'key-queued')?.status === 'sent',
    );
    expect(outbox.find((r) => r.idempotency_key === 'key-mid-smtp')?.status).toBe('uncertain');

    const mcp2 = await owner.mcp();
    const again = await callTool<{ status: string }>(mcp2, 'send_reply', { thread_id: threadId, body_or_draft_id: 'Queued then killed.', idempotency_key: 'key-queued' });
    expect(again.status).toBe('sent');
    const uncertain = await callToolError(mcp2, 'send_reply', { thread_id: threadId, body_or_draft_id: 'Killed mid SMTP.', idempotency_key: 'key-mid-smtp' });
    expect(uncertain.code).toBe('delivery_uncertain');

    const perKey = new Map<string, number>();
    for (const r of smtp.received) perKey.set(r.parsed.text!.trim(), (perKey.get(r.parsed.text!.trim()) ?? 0) + 1);
    expect(Object.fromEntries(perKey)).toEqual({ 'Killed mid SMTP.': 1, 'Queued then killed.': 1 });
    expect(new Set(smtp.received.map((r) => r.parsed.messageId)).size).toBe(2);
    await owner.close();
    await smtp.close();
  }, 90_000);
});
