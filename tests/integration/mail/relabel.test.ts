import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestOwner, REPO_ROOT, type TestOwner } from '../../helpers/owner';

const DEV = path.join(REPO_ROOT, 'tests/fixtures/mail-dev');
let owner: TestOwner;

beforeAll(async () => {
  owner = await startTestOwner({ vaultFiles: { '_brain_config/mail/taxonomies/priya.yaml': fs.readFileSync(path.join(DEV, 'taxonomy.yaml'), 'utf8') } });
  await owner.api('POST', '/api/mail/inboxes', { id: 'p', address: 'priya@fernhill.example' });
  const r = await fetch(`${owner.url}/api/mail/import?inbox=p&filename=mailbox.mbox`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: fs.readFileSync(path.join(DEV, 'mailbox.mbox')) });
  expect(r.status).toBe(200);
});
afterAll(async () => owner?.close());

describe('relabel on the Mail page (REST)', () => {
  it('lists a map taxonomy\'s intents, stores a correction on the message and the thread labels, and rejects unknown intents', async () => {
    const tax = await owner.api<{ intents: Array<{ id: string }>; precedence: string[] }>('GET', '/api/mail/taxonomies/priya');
    expect(tax.body.intents.map((i) => i.id)).toContain('colleague_request');
    expect(tax.body.precedence[0]).toBe('ops_incident');

    const hits = await owner.api<{ results: Array<{ message_id: string; thread_id: string }> }>('GET', '/api/mail/search?inbox=p&q=quarterly%20report');
    const { message_id, thread_id } = hits.body.results[0];
    const tri = await owner.api<{ intent: string }>('POST', `/api/mail/messages/${message_id}/triage`, { taxonomy_id: 'priya' });
    expect(tri.status).toBe(200);
    const re = await owner.api<Record<string, unknown>>('POST', `/api/mail/messages/${message_id}/relabel`, { intent: 'household', urgency: 'high' });
    expect(re.status).toBe(200);
    expect(re.body).toMatchObject({ intent: 'household', urgency: 'high', relabelled: 1, taxonomy_id: 'priya' });
    const view = await owner.api<{ thread: { labels: string[] }; messages: Array<{ id: string; triage: Record<string, unknown> }> }>('GET', `/api/mail/threads/${thread_id}`);
    expect(view.body.thread.labels).toContain('household');
    expect(view.body.thread.labels).not.toContain(tri.body.intent === 'household' ? '—' : tri.body.intent);
    expect(view.body.messages.find((m) => m.id === message_id)!.triage).toMatchObject({ intent: 'household', relabelled: 1 });

    const bad = await owner.api<{ code: string }>('POST', `/api/mail/messages/${message_id}/relabel`, { intent: 'nope' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_argument');
    const bad2 = await owner.api<{ code: string }>('POST', `/api/mail/messages/${message_id}/relabel`, { urgency: 'extreme' });
    expect(bad2.status).toBe(400);
  });
});
