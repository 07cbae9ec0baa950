import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { generateMbox } from '../../../bench/_scale-gen';
import { startTestOwner, tempDir, type TestOwner } from '../../helpers/owner';

type Page = { threads: Array<{ id: string; updated_at: string; messages: number; unread: number }>; next_cursor: string | null };

/** The Mail page's thread list pages through any number of threads (server paging for the virtualized list). */
describe('thread pages for the Mail page', () => {
  let owner: TestOwner | undefined;
  afterAll(async () => owner?.close());

  it('pages every thread exactly once, most recent activity first, with counts, and refuses a forged cursor', async () => {
    owner = await startTestOwner();
    expect((await owner.api('POST', '/api/mail/inboxes', { address: 'me@acme.example', id: 'me' })).status).toBe(200);
    const file = path.join(tempDir('mailroom-mbox-'), 'mail.mbox');
    const gen = generateMbox(file, 600);
    const r = await fetch(`${owner.url}/api/mail/import?inbox=me&filename=mail.mbox`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: fs.readFileSync(file) });
    expect(r.status).toBe(200);
    const all = (await owner.api<Array<{ id: string; messages: number; unread: number }>>('GET', '/api/mail/inboxes/me/threads?status=&limit=500')).body;
    const seen: Page['threads'] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const res: { status: number; body: Page } = await owner.api<Page>('GET', `/api/mail/inboxes/me/threads/page?limit=50${cursor ? `&cursor=${cursor}` : ''}`);
      expect(res.status).toBe(200);
      expect(res.body.threads.length).toBeLessThanOrEqual(50);
      seen.push(...res.body.threads);
      cursor = res.body.next_cursor;
      pages++;
    } while (cursor);
    expect(seen.length).toBe(gen.threads);
    expect(new Set(seen.map((t) => t.id)).size).toBe(gen.threads);
    expect(pages).toBe(Math.ceil(gen.threads / 50));
    for (let i = 1; i < seen.length; i++) expect(seen[i - 1].updated_at >= seen[i].updated_at).toBe(true);
    // Same counts as the whole-list route gives for the threads it returns.
    const byId = new Map(seen.map((t) => [t.id, t]));
    for (const t of all) expect({ messages: byId.get(t.id)!.messages, unread: byId.get(t.id)!.unread }).toEqual({ messages: t.messages, unread: t.unread });
    expect(seen.reduce((a, t) => a + t.messages, 0)).toBe(600);
    const bad = await owner.api<{ code: string }>('GET', '/api/mail/inboxes/me/threads/page?cursor=not-a-cursor');
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_cursor');
  }, 90_000);
});
