import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, callToolError, startTestOwner, REPO_ROOT, type TestOwner } from '../../helpers/owner';
import { sharedContracts, startSmtp } from './support';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

const FIXTURE = path.join(REPO_ROOT, 'tests/fixtures/mail/labelled.mbox');
const contracts = sharedContracts();
let owner: TestOwner;
let mcp: Client;
let smtp: Awaited<ReturnType<typeof startSmtp>>;

beforeAll(async () => {
  smtp = await startSmtp();
  owner = await startTestOwner();
  mcp = await owner.mcp();
  const created = await owner.api('POST', '/api/mail/inboxes', { id: 'support', address: 'support@acme.test', name: 'Acme Support', labels: ['work'] });
  expect(created.status).toBe(200);
  const r = await fetch(`${owner.url}/api/mail/import?inbox=support&filename=labelled.mbox`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: fs.readFileSync(FIXTURE) });
  const report = (await r.json()) as { imported: number; failed: unknown[] };
  expect(r.status).toBe(200);
  expect(report.imported).toBe(44);
  const p = await owner.api('PATCH', '/api/mail/inboxes/support', { smtp: { host: '127.0.0.1', port: smtp.port, secure: false } });
  expect(p.status).toBe(200);
});
afterAll(async () => {
  await owner?.close();
  await smtp?.close();
});

async function allThreads(args: Record<string, unknown>) {
  const out: Array<{ id: string }> = [];
  let cursor: string | undefined;
  for (let i = 0; i < 100; i++) {
    const page = await callTool<{ threads: Array<{ id: string }>; next_cursor?: string }>(mcp, 'list_threads', { ...args, ...(cursor ? { cursor } : {}) });
    contracts.assert('tools/list_threads.output', page);
    out.push(...page.threads);
    if (!page.next_cursor) break;
    cursor = page.next_cursor;
  }
  return out;
}

describe('NeuralMail over MCP (real client, shared schemas)', () => {
  it('lists the seven contract tools with the contract input schemas', async () => {
    const { tools } = await mcp.listTools();
    const names = tools.map((t) => t.name);
    for (const n of ['list_threads', 'get_thread', 'search_inbox', 'triage_message', 'extract_to_schema', 'draft_reply_with_policy', 'send_reply']) expect(names).toContain(n);
    const lt = tools.find((t) => t.name === 'list_threads')!;
    expect((lt.inputSchema.properties as Record<string, { maximum?: number }>).limit.maximum).toBe(200);
    expect(lt.inputSchema.required).toEqual(['inbox_id']);
  });

  it('list_threads pages with an opaque cursor that stays stable while new mail arrives', async () => {
    const before = await allThreads({ inbox_id: 'support', limit: 200 });
    expect(before.length).toBe(20);
    const first = await callTool<{ threads: Array<{ id: string }>; next_cursor?: string }>(mcp, 'list_threads', { inbox_id: 'support', limit: 7 });
    expect(first.threads).toHaveLength(7);
    expect(first.next_cursor).toBeTruthy();
    // New threads arrive between pages.
    const eml = 'From: New Person <new.person@example.org>\r\nTo: support@acme.test\r\nSubject: Brand new topic\r\nMessage-ID: <fresh-1@example.org>\r\nDate: Fri, 21 Mar 2025 10:00:00 +0000\r\n\r\nHello there.\r\n';
    const up = await fetch(`${owner.url}/api/mail/import?inbox=support&filename=new.eml`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: eml });
    expect(((await up.json()) as { imported: number }).imported).toBe(1);
    const seen = [...first.threads];
    let cursor = first.next_cursor;
    while (cursor) {
      const page = await callTool<{ threads: Array<{ id: string }>; next_cursor?: string }>(mcp, 'list_threads', { inbox_id: 'support', limit: 7, cursor });
      seen.push(...page.threads);
      cursor = page.next_cursor;
    }
    const ids = seen.map((t) => t.id);
    expect(new Set(ids).size).toBe(ids.length);
    expect(new Set(ids)).toEqual(new Set(before.map((t) => t.id)));
    const after = await allThreads({ inbox_id: 'support', limit: 50 });
    expect(after.length).toBe(21);
  });

  it('get_thread returns the thread and its messages in the contract shape', async () => {
    const hits = await callTool<{ results: Array<{ thread_id: string; message_id: string; snippet?: string }> }>(mcp, 'search_inbox', { inbox_id: 'support', query: 'production down' });
    contracts.assert('tools/search_inbox.output', hits);
    expect(hits.results.length).toBeGreaterThan(0);
    const r = await callTool<{ thread: { subject: string }; messages: Array<{ internet_message_id?: string; direction: string }> }>(mcp, 'get_thread', { thread_id: hits.results[0].thread_id });
    contracts.assert('tools/get_thread.output', r);
    expect(r.thread.subject).toBe('URGENT: production is down');
    expect(r.messages).toHaveLength(4);
    expect(r.messages.map((m) => m.direction)).toEqual(['inbound', 'outbound', 'inbound', 'inbound']);
    const bare = await callTool(mcp, 'get_thread', { thread_id: hits.results[0].thread_id, include_messages: false });
    expect(bare).not.toHaveProperty('messages');
  });

  it('search_inbox ranks by BM25, filters by time_range and returns snippets', async () => {
    const all = await callTool<{ results: Array<{ score: number; snippet: string; message_id: string }> }>(mcp, 'search_inbox', { inbox_id: 'support', query: 'invoice', top_k: 50 });
    contracts.assert('tools/search_inbox.output', all);
    expect(all.results.length).toBeGreaterThanOrEqual(3);
    const scores = all.results.map((r) => r.score);
    expect([...scores].sort((a, b) => b - a)).toEqual(scores);
    expect(all.results.some((r) => /\[invoice\]/i.test(r.snippet))).toBe(true);
    const march15 = await callTool<{ results: unknown[] }>(mcp, 'search_inbox', { inbox_id: 'support', query: 'invoice', top_k: 50, time_range: { start: '2025-03-15T00:00:00Z', end: '2025-03-16T00:00:00Z' } });
    expect(march15.results).toHaveLength(1);
  });

  it('triage_message and extract_to_schema answer in the contract shape', async () => {
    const hits = await callTool<{ results: Array<{ message_id: string }> }>(mcp, 'search_inbox', { inbox_id: 'support', query: 'INV-1990 overdue' });
    const id = hits.results[0].message_id;
    const t = await callTool<{ urgency: string; intent: string; suggested_route?: string }>(mcp, 'triage_message', { message_id: id, taxonomy_id: 'default' });
    contracts.assert('tools/triage_message.output', t);
    expect(t).toMatchObject({ urgency: 'high', intent: 'billing', suggested_route: 'vault:Finance/Invoices' });
    const x = await callTool<{ data: Record<string, unknown>; missing_fields: string[] }>(mcp, 'extract_to_schema', { message_id: id, schema_id: 'invoice' });
    contracts.assert('tools/extract_to_schema.output', x);
    expect(x.data).toMatchObject({ invoice_number: 'INV-1990', amount: 2400, currency: 'USD', due_date: '2025-03-20' });
    expect(x.missing_fields).toContain('iban');
  });

  it('serves every resource template, listable and readable, in the contract shapes', async () => {
    const { resourceTemplates } = await mcp.listResourceTemplates();
    const uris = resourceTemplates.map((t) => t.uriTemplate);
    expect(uris).toEqual(
      expect.arrayContaining(['email://inboxes/{inbox_id}', 'email://inboxes/{inbox_id}/threads{?status,label,cursor,limit}', 'email://threads/{thread_id}', 'email://messages/{message_id}', 'email://threads/{thread_id}/summary']),
    );
    const { resources } = await mcp.listResources();
    expect(resources.map((r) => r.uri)).toContain('email://inboxes/support');
    const read = async (uri: string) => JSON.parse(((await mcp.readResource({ uri })).contents[0] as { text: string }).text) as Record<string, unknown>;
    const inbox = await read('email://inboxes/support');
    contracts.assert('resources/inbox', inbox);
    expect(inbox).toEqual({ id: 'support', address: 'support@acme.test', labels: ['work'], status: 'active' });
    const list = await read('email://inboxes/support/threads?status=open&limit=5');
    contracts.assert('tools/list_threads.output', list);
    const threadId = (list.threads as Array<{ id: string }>)[0].id;
    const thread = await read(`email://threads/${threadId}`);
    contracts.assert('resources/thread', thread);
    const summary = await read(`email://threads/${threadId}/summary`);
    contracts.assert('resources/thread_summary', summary);
    const full = await callTool<{ messages: Array<{ id: string }> }>(mcp, 'get_thread', { thread_id: threadId });
    const msg = await read(`email://messages/${full.messages[0].id}`);
    contracts.assert('resources/message', msg);
    await expect(mcp.readResource({ uri: 'email://threads/t_nope' })).rejects.toThrow(/No thread 't_nope'/);
  });

  it('answers unknown ids, bad cursors and invalid arguments with the error shape', async () => {
    const cases: Array<[string, Record<string, unknown>, string]> = [
      ['get_thread', { thread_id: 't_missing' }, 'thread_not_found'],
      ['list_threads', { inbox_id: 'nope' }, 'inbox_not_found'],
      ['list_threads', { inbox_id: 'support', cursor: 'garbage!' }, 'invalid_cursor'],
      ['list_threads', { inbox_id: 'support', limit: 500 }, 'invalid_argument'],
      ['list_threads', { inbox_id: 'support', extra: 1 }, 'invalid_argument'],
      ['search_inbox', { inbox_id: 'support' }, 'invalid_argument'],
      ['triage_message', { message_id: 'm_missing', taxonomy_id: 'default' }, 'message_not_found'],
      ['extract_to_schema', { message_id: 'm_missing', schema_id: 'invoice' }, 'message_not_found'],
      ['draft_reply_with_policy', { thread_id: 't_missing', policy_id: 'default', goal: 'x' }, 'thread_not_found'],
      ['send_reply', { thread_id: 't_missing', body_or_draft_id: 'hi', idempotency_key: 'k' }, 'thread_not_found'],
    ];
    for (const [tool, args, code] of cases) {
      const err = await callToolError(mcp, tool, args);
      contracts.assert('errors', err);
      expect(err.code, `${tool} ${JSON.stringify(args)}`).toBe(code);
      expect(err.message.length).toBeGreaterThan(10);
    }
    // A cursor from other filters is refused rather than silently mis-paging.
    const page = await callTool<{ next_cursor?: string }>(mcp, 'list_threads', { inbox_id: 'support', limit: 2 });
    expect((await callToolError(mcp, 'list_threads', { inbox_id: 'support', limit: 2, status: 'closed', cursor: page.next_cursor! })).code).toBe('invalid_cursor');
    const hits = await callTool<{ results: Array<{ message_id: string }> }>(mcp, 'search_inbox', { inbox_id: 'support', query: 'invoice' });
    expect((await callToolError(mcp, 'triage_message', { message_id: hits.results[0].message_id, taxonomy_id: '../../etc' })).code).toBe('invalid_argument');
    expect((await callToolError(mcp, 'triage_message', { message_id: hits.results[0].message_id, taxonomy_id: 'nosuch' })).code).toBe('taxonomy_not_found');
  });

  it('drafts under a policy, refuses to send until a person approves, then sends once per key over SMTP', async () => {
    const hits = await callTool<{ results: Array<{ thread_id: string }> }>(mcp, 'search_inbox', { inbox_id: 'support', query: 'Quote 50 seats' });
    const threadId = hits.results[0].thread_id;
    const d = await callTool<{ draft: string; risk_flags: string[]; needs_human_approval: boolean; cited_message_ids: string[] }>(mcp, 'draft_reply_with_policy', {
      thread_id: threadId,
      policy_id: 'default',
      goal: 'confirm we will send the quote for 50 seats by Friday',
    });
    contracts.assert('tools/draft_reply_with_policy.output', d);
    expect(d.draft).toContain('Best regards');
    expect(d.risk_flags).toEqual(expect.arrayContaining(['external_recipients', 'promises_date']));
    expect(d.needs_human_approval).toBe(true);
    expect(d.cited_message_ids).toHaveLength(1);

    const refused = await callToolError(mcp, 'send_reply', { thread_id: threadId, body_or_draft_id: d.draft, idempotency_key: 'quote-1' });
    contracts.assert('errors', refused);
    expect(refused.code).toBe('approval_required');
    expect(smtp.received).toHaveLength(0);

    const view = await owner.api<{ drafts: Array<{ id: string; body: string }> }>('GET', `/api/mail/threads/${threadId}`);
    const draftId = view.body.drafts[0].id;
    expect((await owner.api('POST', `/api/mail/drafts/${draftId}/approve`)).status).toBe(200);

    const sent = await callTool<{ message_id: string; status: string }>(mcp, 'send_reply', { thread_id: threadId, body_or_draft_id: d.draft, idempotency_key: 'quote-1' });
    contracts.assert('tools/send_reply.output', sent);
    expect(sent.status).toBe('sent');
    await smtp.waitFor(1);
    const again = await callTool<{ message_id: string; status: string }>(mcp, 'send_reply', { thread_id: threadId, body_or_draft_id: d.draft, idempotency_key: 'quote-1' });
    expect(again).toEqual(sent);
    expect(smtp.received).toHaveLength(1);

    const got = smtp.received[0];
    expect(got.envelope.to).toEqual(['carol@wingtip.example']);
    expect(got.parsed.subject).toBe('Re: Quote for 50 seats');
    // The reply answers the latest message of the thread (ord2), referencing the whole chain.
    expect(got.parsed.inReplyTo).toBe('<ord2@fixture.acme.test>');
    expect(got.parsed.references).toEqual(['<ord1@fixture.acme.test>', '<ord2@fixture.acme.test>']);
    expect(got.parsed.text).toContain('Best regards');

    const thread = await callTool<{ messages: Array<{ id: string; direction: string }> }>(mcp, 'get_thread', { thread_id: threadId });
    expect(thread.messages.at(-1)).toMatchObject({ id: sent.message_id, direction: 'outbound' });

    // Reusing a key for different text is a conflict, never a second message.
    const conflict = await callToolError(mcp, 'send_reply', { thread_id: threadId, body_or_draft_id: 'Something else', idempotency_key: 'quote-1' });
    expect(conflict.code).toBe('idempotency_conflict');
    expect(smtp.received).toHaveLength(1);
  });

  it('sends a plain body (no draft) and reports queued when SMTP is unreachable, then never duplicates', async () => {
    const hits = await callTool<{ results: Array<{ thread_id: string }> }>(mcp, 'search_inbox', { inbox_id: 'support', query: 'Dinner Saturday' });
    const threadId = hits.results[0].thread_id;
    const ok = await callTool<{ status: string }>(mcp, 'send_reply', { thread_id: threadId, body_or_draft_id: 'See you Saturday!', idempotency_key: 'dinner-1' });
    expect(ok.status).toBe('sent');
    await smtp.waitFor(2);
    expect(smtp.received[1].parsed.inReplyTo).toBe('<p3@fixture.acme.test>');
  });
});
