import { afterEach, describe, expect, it } from 'vitest';
import { callTool, tempDir, waitFor } from '../../helpers/owner';
import { stdioClient } from '../../helpers/cli';
import { pidAlive, readLock } from '../../../electron/core/host/lock';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';

interface Info {
  owner_pid: number;
  data_dir: string;
  vault: string;
}

describe('mailroom mcp over stdio', () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c().catch(() => undefined);
  });

  async function open(dataDir: string, vault: string): Promise<{ client: Client; pid: number }> {
    const { client, transport } = await stdioClient(dataDir, { vault });
    cleanups.push(() => client.close());
    return { client, pid: transport.pid! };
  }

  it('becomes the owner when none runs, and serves the same tools as HTTP', async () => {
    const dataDir = tempDir();
    const vault = tempDir();
    const { client, pid } = await open(dataDir, vault);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('mailroom_info');
    const info = await callTool<Info>(client, 'mailroom_info');
    expect(info.owner_pid).toBe(pid);
    expect(info.data_dir).toBe(dataDir);
    expect(info.vault).toBe(vault);
    expect(readLock(dataDir)?.pid).toBe(pid);
  });

  it('forwards to a running owner; when the owner is killed, the other bridge takes over without its client noticing', async () => {
    const dataDir = tempDir();
    const vault = tempDir();
    const first = await open(dataDir, vault);
    expect((await callTool<Info>(first.client, 'mailroom_info')).owner_pid).toBe(first.pid);
    const second = await open(dataDir, vault);
    // Both answer, from the one owner.
    expect((await callTool<Info>(second.client, 'mailroom_info')).owner_pid).toBe(first.pid);

    process.kill(first.pid, 'SIGKILL');
    await waitFor(() => pidAlive(first.pid), (alive) => !alive, 5_000, 'the owner to die');

    // The same client session keeps working: its bridge became the owner.
    const after = await callTool<Info>(second.client, 'mailroom_info');
    expect(after.owner_pid).toBe(second.pid);
    expect((await second.client.listTools()).tools.length).toBeGreaterThan(0);
  });

  it('keeps stdout clean: only JSON-RPC, even while the core logs', async () => {
    const dataDir = tempDir();
    const { client } = await open(dataDir, tempDir());
    // Any non-JSON byte on stdout would make the SDK client fail to parse and this call reject.
    for (let i = 0; i < 5; i++) await callTool(client, 'mailroom_info');
  });
});
