import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CreateMessageRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, startTestOwner, waitForHubEvent, type TestOwner } from '../../helpers/owner';
import { NODE, TEST_SERVER } from './harness';
import type { HistoryDetail, HistoryListReply } from '../../../shared/contract/history';

let owner: TestOwner | undefined;
afterEach(async () => {
  await owner?.close();
  owner = undefined;
});

interface AdapterDto { id: string; name: string; status: { state: string; pid: number | null }; command_problem: string | null }
interface RouteDto { id: string; name: string; priority: number; condition_text: string; schema_drift: boolean | null }

describe('router over REST, MCP and the hub (a real owner)', () => {
  it('adapters CRUD + test connection, routes CRUD + reorder + preview + test, filtered history; live status on the hub', async () => {
    owner = await startTestOwner({ vaultFiles: { 'inbox/call-dana.md': '---\ntags: [todo]\n---\n# Call Dana about the swim meet\n\nBefore Friday.\n' } });
    const hub = await owner.hub();

    const bad = await owner.api<{ code: string; message: string }>('POST', '/api/mcp-adapters', { name: 'x', command: 'node', args: 'not a list' });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe('invalid_argument');

    const a = await owner.api<AdapterDto>('POST', '/api/mcp-adapters', { name: 'Tasks', command: NODE, args: [TEST_SERVER] });
    expect(a.status).toBe(200);
    expect(a.body).toMatchObject({ name: 'Tasks', status: { state: 'idle', pid: null }, command_problem: null });
    const dup = await owner.api<{ code: string }>('POST', '/api/mcp-adapters', { name: 'Tasks', command: NODE });
    expect(dup.status).toBe(409);

    const running = waitForHubEvent(hub, 'RouterAdapterStatus', (s) => (s as { state: string }).state === 'running');
    const test = await owner.api<{ ok: boolean; tools: Array<{ name: string; inputSchema: object }> }>('POST', `/api/mcp-adapters/${a.body.id}/test`);
    expect(test.body.ok).toBe(true);
    expect(test.body.tools.map((t) => t.name)).toContain('create_note');
    const [st] = (await running) as [{ adapter_id: string; pid: number }];
    expect(st.adapter_id).toBe(a.body.id);
    expect((await owner.api<AdapterDto[]>('GET', '/api/mcp-adapters')).body[0]?.status).toMatchObject({ state: 'running', pid: st.pid });

    const mk = (body: object) => owner!.api<RouteDto>('POST', '/api/routes', { adapter_id: a.body.id, tool: 'create_note', ...body });
    const r1 = await mk({ name: 'Todos', condition: { field: 'tags', op: 'equals', value: 'todo' }, mapping: { title: '{{ title }}', content: '{{ content }}', meta: { priority: 'high' } } });
    expect(r1.status).toBe(200);
    expect(r1.body.condition_text).toBe('tags equals "todo"');
    const r2 = await mk({ name: 'Everything else', mapping: { title: '{{ title }}', content: '{{ content }}' } });
    expect((await owner.api<RouteDto[]>('GET', '/api/routes')).body.map((r) => r.name)).toEqual(['Todos', 'Everything else']);
    const badRegex = await mk({ name: 'bad', condition: { field: 'title', op: 'matches', value: '(' } });
    expect(badRegex.status).toBe(400);
    expect((badRegex.body as unknown as { message: string }).message).toMatch(/not a valid regular expression/);

    const reordered = await owner.api<RouteDto[]>('POST', '/api/routes/reorder', { ids: [r2.body.id, r1.body.id] });
    expect(reordered.body.map((r) => r.name)).toEqual(['Everything else', 'Todos']);
    await owner.api('POST', '/api/routes/reorder', { ids: [r1.body.id, r2.body.id] });

    // Preview on a real inbox note: arguments and validation, nothing sent.
    const prev = await owner.api<{ args: object; validation: { valid: boolean }; condition_met: boolean }>('POST', `/api/routes/${r1.body.id}/preview`, { path: 'inbox/call-dana.md' });
    expect(prev.body).toMatchObject({ condition_met: true, validation: { valid: true }, args: { title: 'Call Dana about the swim meet', content: expect.stringContaining('Before Friday.'), meta: { priority: 'high' } } });
    expect((await owner.api<unknown[]>('GET', '/api/distributions')).body).toHaveLength(0);

    const refused = await owner.api<{ message: string }>('POST', `/api/routes/${r1.body.id}/test`, { path: 'inbox/call-dana.md' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toMatch(/confirm/);

    const sent = await owner.api<{ status: string; matched: { id: string } }>('POST', '/api/router/route', { path: 'inbox/call-dana.md' });
    expect(sent.body).toMatchObject({ status: 'ok', matched: { id: r1.body.id } });
    await owner.api('POST', '/api/router/route', { item: { title: 'A thought', content: 'no tags' } });

    const all = await owner.api<Array<{ route_name: string; status: string; item_key: string }>>('GET', '/api/distributions');
    expect(all.body.map((d) => d.route_name)).toEqual(['Everything else', 'Todos']);
    const filtered = await owner.api<Array<{ item_key: string }>>('GET', `/api/distributions?route_id=${r1.body.id}&status=ok`);
    expect(filtered.body.map((d) => d.item_key)).toEqual(['inbox/call-dana.md']);
    expect((await owner.api<unknown[]>('GET', '/api/distributions?item=thought')).body).toHaveLength(1);
    expect((await owner.api('GET', '/api/distributions?status=maybe')).status).toBe(400);

    const inUse = await owner.api<{ code: string }>('DELETE', `/api/mcp-adapters/${a.body.id}`);
    expect(inUse.status).toBe(409);
    expect((await owner.api('DELETE', `/api/routes/${r1.body.id}`)).status).toBe(200);
    expect((await owner.api('GET', `/api/routes/${r1.body.id}`)).status).toBe(404);

    const info = await owner.api<{ counts: Record<string, number> }>('GET', '/api/info');
    expect(info.body.counts).toMatchObject({ mcp_adapters: 1, routes: 1, distributions: 2 });

    // History lists each routing as an entry whose detail names the item, route, tool and result.
    const history = await owner.api<HistoryListReply>('GET', '/api/history?kind=routed');
    const routed = history.body.entries.filter((e) => e.kind === 'routed');
    expect(routed).toHaveLength(2);
    const details = await Promise.all(routed.map((e) => owner!.api<HistoryDetail>('GET', `/api/history/entry?id=${encodeURIComponent(e.id)}`)));
    const facts = details.map((d) => Object.fromEntries(d.body.facts));
    expect(facts).toContainEqual({ Items: 'Call Dana about the swim meet', Routes: 'Todos', Tools: 'create_note', Result: '1 ok' });
    expect(facts).toContainEqual({ Items: 'A thought', Routes: 'Everything else', Tools: 'create_note', Result: '1 ok' });
  });

  it('MCP: list_routes and route_item (dry run and for real, by path or item) with clear errors', async () => {
    owner = await startTestOwner({ vaultFiles: { 'inbox/idea.md': '# Idea\n\nShip the router.\n' } });
    const a = await owner.api<AdapterDto>('POST', '/api/mcp-adapters', { name: 'Notes', command: NODE, args: [TEST_SERVER] });
    await owner.api('POST', '/api/routes', { name: 'All notes', adapter_id: a.body.id, tool: 'create_note', mapping: { title: '{{ title }}', content: '{{ content }}', tags: '{{ tags }}' } });
    const mcp = await owner.mcp();

    const list = await callTool<{ routes: Array<{ name: string; when: string; adapter: string; tool: string }> }>(mcp, 'list_routes');
    expect(list.routes).toEqual([expect.objectContaining({ name: 'All notes', when: 'every item', adapter: 'Notes', tool: 'create_note' })]);

    const dry = await callTool<{ status: string; args: object; matched: { name: string } }>(mcp, 'route_item', { path: 'inbox/idea.md', dry_run: true });
    expect(dry).toMatchObject({ status: 'dry_run', matched: { name: 'All notes' }, args: { title: 'Idea', content: expect.stringContaining('Ship the router.'), tags: [] } });

    const real = await callTool<{ status: string; result: { id: string } }>(mcp, 'route_item', { item: { title: 'From Claude', content: 'saved over MCP', tags: ['mcp'] } });
    expect(real.status).toBe('ok');
    expect(real.result.id).toBe('n1');

    const both = await mcp.callTool({ name: 'route_item', arguments: { path: 'inbox/idea.md', item: { title: 'x' } } });
    expect(both.isError).toBe(true);
    const escape = await mcp.callTool({ name: 'route_item', arguments: { path: '../outside.md' } });
    expect(JSON.stringify(escape.content)).toMatch(/path_outside_vault/);
  });

  it('an LLM route maps through the calling client\'s own model (MCP sampling), repairing once on invalid output', async () => {
    owner = await startTestOwner();
    const a = await owner.api<AdapterDto>('POST', '/api/mcp-adapters', { name: 'Notes', command: NODE, args: [TEST_SERVER] });
    const route = await owner.api<RouteDto>('POST', '/api/routes', {
      name: 'LLM notes',
      adapter_id: a.body.id,
      tool: 'create_note',
      mapper: 'llm',
      instructions: 'Title in capitals; content as is; priority high for anything urgent.',
    });
    expect(route.status).toBe(200);

    // A real MCP client that offers sampling; its "model" first answers wrongly, then correctly.
    const prompts: string[] = [];
    const answers = ['{"title":"URGENT: FIX PROD","content":"x","meta":{"priority":"asap"}}', '```json\n{"title":"URGENT: FIX PROD","content":"The server is down","meta":{"priority":"high"}}\n```'];
    const client = new Client({ name: 'sampling-client', version: '1.0.0' }, { capabilities: { sampling: {} } });
    client.setRequestHandler(CreateMessageRequestSchema, async (req) => {
      const c = req.params.messages[0]?.content as { type: string; text: string };
      prompts.push(c.text);
      return { role: 'assistant', model: 'scripted', content: { type: 'text', text: answers.shift() ?? '{}' } };
    });
    await client.connect(new StreamableHTTPClientTransport(new URL(owner.url + '/mcp'), { requestInit: { headers: { authorization: `Bearer ${owner.token}` } } }));
    try {
      const r = await callTool<{ status: string; mapper: string; args: Record<string, unknown>; result: { id: string } }>(client, 'route_item', { item: { title: 'Urgent: fix prod', content: 'The server is down' } });
      expect(r).toMatchObject({ status: 'ok', mapper: 'llm-repaired', args: { title: 'URGENT: FIX PROD', meta: { priority: 'high' } } });
      expect(prompts).toHaveLength(2);
      expect(prompts[0]).toContain('User instructions: Title in capitals');
      expect(prompts[1]).toContain('/meta/priority: must be one of low, normal, high');
    } finally {
      await client.close();
    }

    // Without sampling and without a configured endpoint, the route cannot map and nothing is sent.
    const plain = await owner.mcp();
    const r2 = await callTool<{ status: string; skipped: Array<{ reason: string }> }>(plain, 'route_item', { item: { title: 'x' } });
    expect(r2.status).toBe('failed');
    expect(r2.skipped[0]?.reason).toMatch(/No LLM is available/);
  });
});
