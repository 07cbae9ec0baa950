import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { generateMbox } from '../../../bench/_scale-gen';
import { callRoute, routes, urlOf, type CallArgs, type ReplyOf, type Requester, type RouteSpec } from '../../../shared/contract';
import { startTestOwner, tempDir, type TestOwner } from '../../helpers/owner';

const VAULT: Record<string, string> = {
  'projects/atlas.md': '---\ntitle: Atlas\n---\n# Atlas\nThe Atlas project ships in March. Owner: [[people/priya]].\n',
  'people/priya.md': '# Priya\nLeads [[atlas]] and swims on Saturdays.\n',
};

/**
 * A real owner over real HTTP, called the way the renderer and the CLI call it (`callRoute` with
 * the table's routes): every reply must validate against its route's reply schema.
 */
describe('replies match the contract', () => {
  let owner: TestOwner;
  let request: Requester;
  const checked = async <S extends RouteSpec>(spec: S, args: CallArgs<S>): Promise<ReplyOf<S>> => {
    const reply = await callRoute(request, spec, args);
    const r = spec.reply.safeParse(reply);
    expect(r.success ? [] : r.error.issues, `${spec.method} ${spec.path}`).toEqual([]);
    return reply;
  };

  beforeAll(async () => {
    owner = await startTestOwner({ vaultFiles: VAULT });
    request = async (method, p, body) => {
      const r = await fetch(owner.url + p, {
        method,
        headers: { authorization: `Bearer ${owner.token}`, ...(body !== undefined ? { 'content-type': 'application/json' } : {}) },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const data: unknown = await r.json();
      if (!r.ok) throw new Error(`${method} ${p} answered ${r.status}: ${JSON.stringify(data)}`);
      return data;
    };
  });
  afterAll(async () => owner?.close());

  it('core, settings, vault and history', async () => {
    expect((await checked(routes.core.health, {})).ok).toBe(true);
    await checked(routes.core.info, {});
    await checked(routes.core.status, {});
    await checked(routes.core.badges, {});
    await checked(routes.core.connect, {});
    await checked(routes.settings.get, {});
    expect((await checked(routes.vault.tree, {})).total_notes).toBe(2);
    expect((await checked(routes.vault.folders, {})).folders).toEqual(expect.arrayContaining(['people', 'projects']));
    expect((await checked(routes.vault.search, { query: { q: 'atlas', limit: 5 } })).hits.length).toBeGreaterThan(0);
    expect((await checked(routes.vault.notes, { query: { folder: 'people', limit: 10 } })).notes.map((n) => n.path)).toEqual(['people/priya.md']);
    expect((await checked(routes.vault.note, { query: { path: 'projects/atlas.md' } })).backlinks.map((b) => b.path)).toEqual(['people/priya.md']);
    await checked(routes.vault.backlinks, { query: { path: 'projects/atlas.md' } });
    await checked(routes.vault.history, {});
    await checked(routes.vault.reindex, { body: { full: false } });
    const list = await checked(routes.history.list, { query: { limit: 10 } });
    if (list.entries[0]) await checked(routes.history.entry, { query: { id: list.entries[0].id } });
  });

  it('inbox, nlp, memory, sessions and router', async () => {
    await checked(routes.inbox.capture, { body: { text: 'Call Priya about the Atlas launch on Monday.' } });
    expect((await checked(routes.inbox.list, {})).count).toBe(1);
    await checked(routes.inbox.examples, {});
    await checked(routes.inbox.ruleSuggestions, {});
    await checked(routes.inbox.batches, {});
    await checked(routes.nlp.models, {});
    await checked(routes.nlp.analyze, { body: { message: 'Remember that I prefer tea to coffee.' } });
    await checked(routes.memory.analyze, { body: { message: 'Remember that I prefer tea to coffee.' } });
    await checked(routes.memory.save, { body: { content: 'I prefer tea to coffee.' } });
    expect((await checked(routes.memory.search, { query: { q: 'tea', limit: 5 } })).results.length).toBe(1);
    const t = await checked(routes.sessions.create, { body: { name: 'contract', working_dir: tempDir() } });
    await checked(routes.sessions.list, {});
    await checked(routes.sessions.send, { params: { id: t.id }, body: { body: 'hello' } });
    expect(await checked(routes.sessions.messages, { params: { id: t.id }, query: { limit: 10 } })).toHaveLength(1);
    await checked(routes.router.listAdapters, {});
    await checked(routes.router.listRoutes, {});
    await checked(routes.router.status, {});
    await checked(routes.router.distributions, { query: { limit: 5 } });
  });

  it('mail: inboxes, an uploaded mbox, threads, search, outbox, config', async () => {
    await checked(routes.mail.createInbox, { body: { address: 'me@acme.example', id: 'me' } });
    const file = path.join(tempDir('mailroom-mbox-'), 'mail.mbox');
    generateMbox(file, 12);
    const R = routes.mail.importUpload;
    const up = await fetch(owner.url + urlOf(R, { query: { inbox: 'me', filename: 'mail.mbox' } }), { method: R.method, headers: { authorization: `Bearer ${owner.token}` }, body: fs.readFileSync(file) });
    const report: unknown = await up.json();
    expect(R.reply.safeParse(report).success).toBe(true);
    expect((await checked(routes.mail.inboxes, {}))[0].threads).toBeGreaterThan(0);
    await checked(routes.mail.inbox, { params: { id: 'me' } });
    const threads = await checked(routes.mail.threads, { params: { id: 'me' }, query: { limit: 50 } });
    const page = await checked(routes.mail.threadsPage, { params: { id: 'me' }, query: { limit: 2 } });
    expect(page.threads.map((x) => x.id)).toEqual(threads.slice(0, 2).map((x) => x.id));
    const detail = await checked(routes.mail.thread, { params: { id: threads[0].id } });
    await checked(routes.mail.search, { query: { inbox: 'me', q: detail.thread.subject.split(' ')[0] } });
    await checked(routes.mail.threadSeen, { params: { id: threads[0].id } });
    await checked(routes.mail.updateThread, { params: { id: threads[0].id }, body: { labels: ['contract'] } });
    await checked(routes.mail.outbox, { query: { inbox: 'me' } });
    await checked(routes.mail.config, {});
    await checked(routes.mail.taxonomy, { params: { id: 'default' } });
  });

  it('keeps the query errors: wording and code of a bad query', async () => {
    const bad = await owner.api<{ code: string; message: string }>('GET', '/api/mail/inboxes/me/threads?status=gone');
    expect(bad).toMatchObject({ status: 400, body: { code: 'invalid_argument', message: 'status must be open, closed or snoozed.' } });
    const noInbox = await owner.api<{ code: string; message: string }>('GET', '/api/mail/search?q=x');
    expect(noInbox).toMatchObject({ status: 400, body: { code: 'invalid_argument', message: 'Pass ?inbox=ID&q=words.' } });
    const empty = await owner.api<{ code: string; message: string }>('GET', '/api/vault/search?q=%20');
    expect(empty.status).toBe(400);
    expect(empty.body.message).toMatch(/^Invalid search: q: q is empty/);
  });
});
