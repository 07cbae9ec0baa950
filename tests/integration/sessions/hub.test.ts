import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { HubConnection } from '@microsoft/signalr';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, callToolError, startTestOwner, tempDir, waitForHubEvent, type TestOwner } from '../../helpers/owner';
import { stdioClient } from '../../helpers/cli';
import type { SessionDto, SessionMessageDto } from '../../../shared/contract/sessions';

interface Inbox {
  task_id: string;
  messages: SessionMessageDto[];
  pending: number;
}

describe('session mailbox events over the SignalR hub', () => {
  let owner: TestOwner;
  let hub: HubConnection;
  const stdio: Client[] = [];

  beforeAll(async () => {
    owner = await startTestOwner();
    hub = await owner.hub();
  });
  afterAll(async () => {
    await Promise.allSettled(stdio.map((c) => c.close()));
    await owner?.close();
  });

  async function session(name: string, peer?: string): Promise<SessionDto> {
    const r = await owner.api<SessionDto>('POST', '/api/sessions', { name, working_dir: tempDir('mailroom-wd-'), ...(peer ? { peer } : {}) });
    expect(r.status).toBe(200);
    return r.body;
  }

  const queued = (id: string, n: number) => waitForHubEvent(hub, 'TaskMessageQueued', (t, c) => t === id && c === n);
  const delivered = (id: string, n: number) => waitForHubEvent(hub, 'TaskMessageDelivered', (t, c) => t === id && c === n);

  it('SendTaskMessage from the hub returns the message id and announces the pending count and badge', async () => {
    const t = await session('hub-origin');
    const ev = queued(t.id, 1);
    const badge = waitForHubEvent(hub, 'BadgeChanged', (b) => (b as { key: string; count: number }).key === 'sessions');
    const id = await hub.invoke<number>('SendTaskMessage', t.id, 'from the UI');
    expect(Number.isInteger(id)).toBe(true);
    expect(await ev).toEqual([t.id, 1]);
    expect(((await badge)[0] as { count: number }).count).toBeGreaterThanOrEqual(1);
    // The priority variants: a third argument "high", or an options object.
    const ev2 = queued(t.id, 3);
    await hub.invoke('SendTaskMessage', t.id, 'urgent', 'high');
    await hub.invoke('SendTaskMessage', t.id, 'also urgent', { priority: 'high' });
    await ev2;
    const timeline = (await owner.api<SessionMessageDto[]>('GET', `/api/sessions/${t.id}/messages`)).body;
    expect(timeline.map((m) => [m.id === id ? 'first' : m.body, m.priority, m.sender])).toEqual([
      ['first', 'normal', 'user'],
      ['urgent', 'high', 'user'],
      ['also urgent', 'high', 'user'],
    ]);
  });

  it('hub errors carry the JSON error shape: task_not_found, invalid_argument', async () => {
    const t = await session('errors');
    await expect(hub.invoke('SendTaskMessage', 'no-such-task', 'x')).rejects.toThrow(/"code":"task_not_found"/);
    await expect(hub.invoke('SendTaskMessage', t.id, '')).rejects.toThrow(/"code":"invalid_argument"/);
    await expect(hub.invoke('SendTaskMessage', t.id, 'x'.repeat(64 * 1024 + 10))).rejects.toThrow(/"code":"invalid_argument"/);
  });

  it('check_inbox over MCP (HTTP) defaults to the caller session, delivers high first, and fires TaskMessageDelivered', async () => {
    const t = await session('mcp-http');
    await hub.invoke('SendTaskMessage', t.id, 'normal one');
    await hub.invoke('SendTaskMessage', t.id, 'urgent one', 'high');
    const running = waitForHubEvent(hub, 'TaskUpdated', (task) => (task as SessionDto).id === t.id && (task as SessionDto).status === 'running');
    const ev = delivered(t.id, 0);
    const client = await owner.mcp({ sessionId: t.id });
    const inbox = await callTool<Inbox>(client, 'check_inbox');
    expect(inbox.task_id).toBe(t.id);
    expect(inbox.messages.map((m) => m.body)).toEqual(['urgent one', 'normal one']);
    expect(await ev).toEqual([t.id, 0]);
    expect(((await running)[0] as SessionDto).status).toBe('running');
    expect((await callTool<Inbox>(client, 'check_inbox')).messages).toEqual([]);
    expect(await callTool(client, 'inbox_status')).toEqual({ task_id: t.id, name: 'mcp-http', status: 'running', pending: 0 });
  });

  it('MCP send_to_task and send_to_peer fire TaskMessageQueued, and a session writing to another is a notification', async () => {
    const backend = await session('backend');
    const frontend = await session('frontend', backend.id);
    const fe = await owner.mcp({ sessionId: frontend.id });

    const ev = queued(backend.id, 1);
    const note = waitForHubEvent(hub, 'Notification', (n) => (n as { title: string }).title === 'frontend → backend');
    const sent = await callTool<{ message_id: number; task_id: string; pending: number }>(fe, 'send_to_peer', { body: 'The API is up on :8080', priority: 'high' });
    expect(sent).toMatchObject({ task_id: backend.id, pending: 1 });
    await ev;
    expect(((await note)[0] as { body: string }).body).toContain('The API is up on :8080');

    const ev2 = queued(backend.id, 2);
    await callTool(fe, 'send_to_task', { task_id: backend.id, body: 'second' });
    await ev2;

    const be = await owner.mcp({ sessionId: backend.id });
    const inbox = await callTool<Inbox>(be, 'check_inbox');
    expect(inbox.messages.map((m) => [m.sender, m.priority, m.body])).toEqual([
      [`task:${frontend.id}`, 'high', 'The API is up on :8080'],
      [`task:${frontend.id}`, 'normal', 'second'],
    ]);
  });

  it('MCP errors: unknown task, empty or oversized body, no peer, no session id', async () => {
    const t = await session('mcp-errors');
    const anon = await owner.mcp();
    expect((await callToolError(anon, 'check_inbox', { task_id: 'nope' })).code).toBe('task_not_found');
    expect((await callToolError(anon, 'send_to_task', { task_id: 'nope', body: 'x' })).code).toBe('task_not_found');
    expect((await callToolError(anon, 'send_to_task', { task_id: t.id, body: '' })).code).toBe('invalid_argument');
    expect((await callToolError(anon, 'send_to_task', { task_id: t.id, body: 'y'.repeat(70_000) })).code).toBe('invalid_argument');
    const noSession = await callToolError(anon, 'check_inbox');
    expect(noSession.code).toBe('invalid_argument');
    expect(noSession.message).toContain('MAILROOM_TASK_ID');
    const lonely = await owner.mcp({ sessionId: t.id });
    expect((await callToolError(lonely, 'send_to_peer', { body: 'hello?' })).code).toBe('peer_not_found');
  });

  it('messages sent through REST (the CLI path) announce the same events', async () => {
    const t = await session('rest-origin');
    const ev = queued(t.id, 1);
    const r = await owner.api<{ message_id: number; pending: number }>('POST', `/api/sessions/${t.id}/messages`, { body: 'from the CLI' });
    expect(r.status).toBe(200);
    expect(r.body.pending).toBe(1);
    await ev;
    const bad = await owner.api<{ code: string }>('POST', `/api/sessions/nope/messages`, { body: 'x' });
    expect(bad.status).toBe(404);
    expect(bad.body.code).toBe('task_not_found');
  });

  it('mailroom mcp over stdio carries MAILROOM_TASK_ID: check_inbox defaults to the session and the hub hears it', async () => {
    const t = await session('stdio');
    await hub.invoke('SendTaskMessage', t.id, 'for the stdio session');
    const { client } = await stdioClient(owner.dataDir, { vault: owner.vaultDir, env: { MAILROOM_TASK_ID: t.id } });
    stdio.push(client);
    const ev = delivered(t.id, 0);
    const inbox = await callTool<Inbox>(client, 'check_inbox');
    expect(inbox.messages.map((m) => m.body)).toEqual(['for the stdio session']);
    await ev;
    const ev2 = queued(t.id, 1);
    await callTool(client, 'send_to_task', { task_id: t.id, body: 'note to self' });
    await ev2;
  });

  it('done is a status change the hub announces', async () => {
    const t = await session('finishing');
    const ev = waitForHubEvent(hub, 'TaskUpdated', (task) => (task as SessionDto).id === t.id && (task as SessionDto).status === 'done');
    const r = await owner.api<SessionDto>('POST', `/api/sessions/${t.id}/done`);
    expect(r.body.status).toBe('done');
    await ev;
  });
});
