import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { callTool, callToolError, startTestOwner, waitForHubEvent, type TestOwner } from '../../helpers/owner';

describe('the owner process', () => {
  let owner: TestOwner;
  beforeAll(async () => {
    owner = await startTestOwner();
  });
  afterAll(async () => owner?.close());

  it('answers /api/health with version, vault and uptime', async () => {
    const r = await owner.api<{ ok: boolean; version: string; vault: string; uptime_s: number }>('GET', '/api/health');
    expect(r.status).toBe(200);
    expect(r.body.ok).toBe(true);
    expect(r.body.vault).toBe(owner.vaultDir);
    expect(r.body.uptime_s).toBeGreaterThanOrEqual(0);
  });

  it('serves mailroom_info over MCP Streamable HTTP with structured content and JSON text', async () => {
    const client = await owner.mcp();
    const tools = await client.listTools();
    const info = tools.tools.find((t) => t.name === 'mailroom_info');
    expect(info?.outputSchema).toBeDefined();
    const r = await client.callTool({ name: 'mailroom_info', arguments: {} });
    const structured = r.structuredContent as { owner_pid: number; data_dir: string; port: number };
    expect(structured.owner_pid).toBe(process.pid);
    expect(structured.data_dir).toBe(owner.dataDir);
    expect(structured.port).toBe(owner.http.port);
    const text = (r.content as Array<{ type: string; text: string }>)[0]?.text ?? '';
    expect(JSON.parse(text)).toEqual(structured);
    expect(await callTool(client, 'mailroom_info')).toEqual(structured);
  });

  it('returns tool errors as isError with the error shape as JSON text, which validating clients accept', async () => {
    const client = await owner.mcp();
    await client.listTools(); // the SDK now validates results against output schemas
    const err = await callToolError(client, 'mailroom_info', { unexpected: { nested: true } });
    expect(err).toMatchObject({ code: 'invalid_argument' });
    expect(err.message).toMatch(/unexpected/);
  });

  it('lets the official SignalR client invoke Ping and receive broadcasts', async () => {
    const hub = await owner.hub();
    const pong = (await hub.invoke('Ping')) as { now: string };
    expect(Date.parse(pong.now)).toBeGreaterThan(Date.now() - 60_000);
    const got = waitForHubEvent(hub, 'InboxChanged');
    owner.core.hub.broadcast('InboxChanged', 'test', 3);
    expect(await got).toEqual(['test', 3]);
  });
});
