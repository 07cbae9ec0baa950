import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { LoggingMessageNotificationSchema, type LoggingMessageNotification } from '@modelcontextprotocol/sdk/types.js';
import { stdioClient } from '../../helpers/cli';
import { callTool, startTestOwner, tempDir, waitFor, type TestOwner } from '../../helpers/owner';

type Msg = LoggingMessageNotification['params'];

/** Collects a client's log notifications; `next` resolves with the first (already seen or later) that matches. */
function logTap(client: Client) {
  const seen: Msg[] = [];
  const waiters: Array<{ match: (m: Msg) => boolean; resolve: (m: Msg) => void }> = [];
  client.setNotificationHandler(LoggingMessageNotificationSchema, (n) => {
    seen.push(n.params);
    for (const w of [...waiters]) {
      if (w.match(n.params)) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(n.params);
      }
    }
  });
  return {
    seen,
    next(match: (m: Msg) => boolean, timeoutMs = 10_000): Promise<Msg> {
      const hit = seen.find(match);
      if (hit) return Promise.resolve(hit);
      return new Promise((resolve, reject) => {
        const t = setTimeout(() => reject(new Error(`no matching log notification within ${timeoutMs} ms; seen: ${JSON.stringify(seen)}`)), timeoutMs);
        waiters.push({ match, resolve: (m) => (clearTimeout(t), resolve(m)) });
      });
    },
  };
}

/**
 * Log notifications that belong to no request travel on the session's standalone SSE stream,
 * which the client opens after initializing: resolves once a warning probe came through it.
 */
async function streamOpen(tap: ReturnType<typeof logTap>, owner: TestOwner): Promise<void> {
  const log = owner.core.log.child('probe');
  await waitFor(
    () => {
      log.warn('stream probe');
      return tap.seen.some((x) => (x.data as Record<string, unknown>).message === 'stream probe');
    },
    (ok) => ok,
    10_000,
    'the log notification stream',
  );
}

const text = (r: { messages: Array<{ content: { type: string; text?: string } }> }) => r.messages.map((m) => (m.content.type === 'text' ? m.content.text : '')).join('\n');
const dataOf = (m: Msg) => m.data as Record<string, unknown>;

describe('MCP prompts, completion and logging', () => {
  let owner: TestOwner;
  let client: Client;
  let sessionId: string;

  beforeAll(async () => {
    owner = await startTestOwner();
    for (const [id, address] of [['support', 'support@acme.test'], ['sales', 'sales@acme.test'], ['personal', 'me@home.test']]) {
      expect((await owner.api('POST', '/api/mail/inboxes', { id, address })).status).toBe(200);
    }
    sessionId = (await owner.api<{ id: string }>('POST', '/api/sessions', { name: 'refactor', working_dir: tempDir('mailroom-wd-') })).body.id;
    client = await owner.mcp();
  });
  afterAll(async () => {
    await owner?.close();
  });

  it('declares prompts, completions and logging, and lists the four prompts with their arguments', async () => {
    const caps = client.getServerCapabilities();
    expect(caps?.prompts).toBeDefined();
    expect(caps?.completions).toBeDefined();
    expect(caps?.logging).toBeDefined();
    const { prompts } = await client.listPrompts();
    expect(prompts.map((p) => p.name).sort()).toEqual(['file_this', 'review_inbox', 'session_messages', 'triage_mail']);
    for (const p of prompts) expect(p.description).toBeTruthy();
    expect(prompts.find((p) => p.name === 'triage_mail')?.arguments).toEqual([expect.objectContaining({ name: 'inbox_id', required: true })]);
  });

  it('review_inbox asks for approval before inbox_execute', async () => {
    const r = await client.getPrompt({ name: 'review_inbox' });
    const t = text(r);
    expect(t).toContain('inbox_analyze');
    expect(t).toMatch(/Only after I approve, call inbox_execute/);
  });

  it('file_this completes to the notes waiting in inbox/', async () => {
    await callTool(client, 'brain_inbox_save', { content: 'Vet appointment for Rex', title: 'Vet appointment' });
    const c = await waitFor(
      () => client.complete({ ref: { type: 'ref/prompt', name: 'file_this' }, argument: { name: 'item', value: 'inbox/' } }),
      (r) => r.completion.values.some((v) => /vet-appointment/.test(v)),
      10_000,
      'the captured note to be indexed',
    );
    expect(c.completion.values.every((v) => v.startsWith('inbox/'))).toBe(true);
    const byTitle = await client.complete({ ref: { type: 'ref/prompt', name: 'file_this' }, argument: { name: 'item', value: 'appointment' } });
    expect(byTitle.completion.values.some((v) => /vet-appointment/.test(v))).toBe(true);
  });

  it('file_this captures a text, or analyzes a note path', async () => {
    const captured = text(await client.getPrompt({ name: 'file_this', arguments: { item: 'Call the vet about Rex on Tuesday\nbring the vaccination card' } }));
    expect(captured).toContain('brain_inbox_save');
    expect(captured).toContain('bring the vaccination card');
    const byPath = text(await client.getPrompt({ name: 'file_this', arguments: { item: 'inbox/vet.md' } }));
    expect(byPath).toContain('paths: ["inbox/vet.md"]');
    expect(byPath).not.toContain('brain_inbox_save');
    await expect(client.getPrompt({ name: 'file_this', arguments: {} })).rejects.toThrow(/needs the argument 'item'/);
  });

  it('triage_mail completes inbox ids and refuses an unknown inbox with the known ones', async () => {
    const all = await client.complete({ ref: { type: 'ref/prompt', name: 'triage_mail' }, argument: { name: 'inbox_id', value: '' } });
    expect(all.completion.values.sort()).toEqual(['personal', 'sales', 'support']);
    const s = await client.complete({ ref: { type: 'ref/prompt', name: 'triage_mail' }, argument: { name: 'inbox_id', value: 'su' } });
    expect(s.completion.values).toEqual(['support']);
    // By address too: "home" is in me@home.test.
    const byAddress = await client.complete({ ref: { type: 'ref/prompt', name: 'triage_mail' }, argument: { name: 'inbox_id', value: 'home' } });
    expect(byAddress.completion.values).toEqual(['personal']);

    const r = text(await client.getPrompt({ name: 'triage_mail', arguments: { inbox_id: 'sales' } }));
    expect(r).toContain('list_threads with inbox_id "sales"');
    await expect(client.getPrompt({ name: 'triage_mail', arguments: { inbox_id: 'nope' } })).rejects.toThrow(/No mail inbox 'nope'.*Known: .*support/);
  });

  it('session_messages completes session ids; an unknown prompt or argument completes to nothing', async () => {
    const c = await client.complete({ ref: { type: 'ref/prompt', name: 'session_messages' }, argument: { name: 'task_id', value: 'refac' } });
    expect(c.completion.values).toEqual([sessionId]);
    expect(text(await client.getPrompt({ name: 'session_messages', arguments: { task_id: sessionId } }))).toContain(`check_inbox with task_id "${sessionId}"`);
    const none = await client.complete({ ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'x', value: 'a' } });
    expect(none.completion.values).toEqual([]);
    await expect(client.getPrompt({ name: 'nope' })).rejects.toThrow(/Unknown prompt 'nope'/);
  });

  it('sends Mailroom log events at or above the session level, with secrets redacted', async () => {
    const c = await owner.mcp();
    const tap = logTap(c);
    const log = owner.core.log.child('test');
    await streamOpen(tap, owner);
    await c.setLoggingLevel('info');
    // A real Mailroom event: capturing a note logs `saved` at info.
    const saved = await callTool<{ path: string }>(c, 'brain_inbox_save', { content: 'A note for the log test' });
    const m = await tap.next((x) => dataOf(x).message === 'saved' && dataOf(x).path === saved.path);
    expect(m.level).toBe('info');
    expect(m.logger).toMatch(/inbox/);

    // Secrets never reach the client: secret-named fields and tokens inside strings.
    log.warn('secret probe', { token: 'tok-123', url: 'http://127.0.0.1:1/?token=tok-456&x=1', auth: 'Bearer tok-789' });
    const probe = await tap.next((x) => dataOf(x).message === 'secret probe');
    expect(probe.level).toBe('warning');
    expect(JSON.stringify(probe.data)).not.toMatch(/tok-\d/);

    // At 'error', info and warnings stop; the error marker after them arrives alone.
    await c.setLoggingLevel('error');
    await callTool(c, 'brain_inbox_save', { content: 'A second note, not logged to this session' });
    log.warn('filtered warning');
    log.error('error marker');
    await tap.next((x) => dataOf(x).message === 'error marker');
    expect(tap.seen.filter((x) => dataOf(x).message === 'saved')).toHaveLength(1);
    expect(tap.seen.some((x) => dataOf(x).message === 'filtered warning')).toBe(false);
  });

  it('without setLevel a session gets warnings and errors only', async () => {
    const c = await owner.mcp();
    const tap = logTap(c);
    const log = owner.core.log.child('test');
    await streamOpen(tap, owner);
    log.info('quiet info');
    log.warn('default warning');
    await tap.next((x) => dataOf(x).message === 'default warning');
    expect(tap.seen.some((x) => dataOf(x).message === 'quiet info')).toBe(false);
  });

  it('prompts, completion and log notifications work through the stdio server too', async () => {
    const { client: sc } = await stdioClient(owner.dataDir);
    try {
      const tap = logTap(sc);
      expect((await sc.listPrompts()).prompts).toHaveLength(4);
      await streamOpen(tap, owner);
      const c = await sc.complete({ ref: { type: 'ref/prompt', name: 'triage_mail' }, argument: { name: 'inbox_id', value: 'sa' } });
      expect(c.completion.values).toEqual(['sales']);
      await sc.setLoggingLevel('debug');
      owner.core.log.child('test').info('to the stdio client');
      await tap.next((x) => dataOf(x).message === 'to the stdio client');
    } finally {
      await sc.close();
    }
  });
});
