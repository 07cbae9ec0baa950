import { afterEach, describe, expect, it } from 'vitest';
import { type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { callTool, tempDir, waitFor } from '../../helpers/owner';
import { killAndWait, startCli } from '../../helpers/cli';
import { pidAlive } from '../../../electron/core/host/lock';
import type { SessionDto, SessionMessageDto } from '../../../shared/contract/sessions';

const RUNNING = /Mailroom is running at (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([\w-]+)/;

describe('the mailbox survives kill -9 of the owner', () => {
  const children: ChildProcess[] = [];
  const clients: Client[] = [];
  afterEach(async () => {
    await Promise.allSettled(clients.splice(0).map((c) => c.close()));
    for (const c of children.splice(0)) await killAndWait(c, 'SIGKILL');
  });

  async function start(dataDir: string, vault: string) {
    const { child, match } = await startCli(['start', '--headless', '--data-dir', dataDir, '--vault', vault, '--port', '0'], RUNNING);
    children.push(child);
    const [, url, , token] = match;
    const api = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
      const r = await fetch(url + route, {
        method,
        headers: { authorization: `Bearer ${token}`, ...(body ? { 'content-type': 'application/json' } : {}) },
        body: body ? JSON.stringify(body) : undefined,
      });
      if (!r.ok) throw new Error(`${method} ${route}: ${r.status} ${await r.text()}`);
      return (await r.json()) as T;
    };
    const mcp = async (sessionId: string) => {
      const c = new Client({ name: 'restart-test', version: '1' });
      await c.connect(new StreamableHTTPClientTransport(new URL(url + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${token}`, 'x-mailroom-task-id': sessionId } } }));
      clients.push(c);
      return c;
    };
    return { child, api, mcp };
  }

  it('pending messages are all there after the restart, and delivered ones are not delivered again', async () => {
    const dataDir = tempDir();
    const vault = tempDir();
    const first = await start(dataDir, vault);
    const t = await first.api<SessionDto>('POST', '/api/sessions', { name: 'crashy', working_dir: tempDir() });
    for (let i = 0; i < 20; i++) await first.api('POST', `/api/sessions/${t.id}/messages`, { body: `before-${i}` });
    const c1 = await first.mcp(t.id);
    const got1 = await callTool<{ messages: SessionMessageDto[] }>(c1, 'check_inbox');
    expect(got1.messages).toHaveLength(20);
    for (let i = 0; i < 30; i++) await first.api('POST', `/api/sessions/${t.id}/messages`, { body: `pending-${i}`, priority: i % 3 === 0 ? 'high' : 'normal' });

    first.child.kill('SIGKILL');
    await waitFor(() => pidAlive(first.child.pid!), (alive) => !alive, 5_000, 'the owner to die');

    const second = await start(dataDir, vault);
    expect((await second.api<SessionDto>('GET', `/api/sessions/${t.id}`)).pending).toBe(30);
    const c2 = await second.mcp(t.id);
    const got2 = await callTool<{ messages: SessionMessageDto[] }>(c2, 'check_inbox');
    const bodies = got2.messages.map((m) => m.body);
    expect(bodies).toHaveLength(30);
    expect(new Set(bodies).size).toBe(30);
    expect(bodies.every((b) => b.startsWith('pending-'))).toBe(true);
    expect(got2.messages.slice(0, 10).every((m) => m.priority === 'high')).toBe(true);
    expect((await callTool<{ messages: SessionMessageDto[] }>(c2, 'check_inbox')).messages).toEqual([]);
    const timeline = await second.api<SessionMessageDto[]>('GET', `/api/sessions/${t.id}/messages`);
    expect(timeline).toHaveLength(50);
  }, 60_000);
});
