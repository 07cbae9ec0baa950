import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { callTool, startTestOwner, tempDir, type TestOwner } from '../../helpers/owner';
import { NODE, TEST_SERVER } from './harness';

let owner: TestOwner | undefined;
afterEach(async () => {
  await owner?.close();
  owner = undefined;
});

const SECRET = 'sk-live-9f8e7d6c5b4a-DO-NOT-LEAK';

/** Every byte under a folder, for "the secret is nowhere on disk" checks (state.db, its WAL, logs). */
function allBytes(dir: string): Buffer {
  const out: Buffer[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) {
    if (e.isFile()) out.push(fs.readFileSync(path.join(e.parentPath, e.name)));
  }
  return Buffer.concat(out);
}

describe('router security', () => {
  it('passes arguments with shell metacharacters to the server verbatim (argv array, no shell)', async () => {
    owner = await startTestOwner();
    const marker = path.join(tempDir(), 'pwned');
    const nasty = [`$(touch ${marker})`, `; touch ${marker}`, '`id`', 'a|b', '&& echo hi', "'quoted' \"double\"", '*', '$HOME', '\\n', ''];
    const created = await owner.api<{ id: string }>('POST', '/api/mcp-adapters', { name: 'argv', command: NODE, args: [TEST_SERVER, ...nasty] });
    expect(created.status).toBe(200);
    const id = created.body.id;
    const route = await owner.api<{ id: string }>('POST', '/api/routes', { name: 'argv', adapter_id: id, tool: 'argv' });
    expect(route.status).toBe(200);
    const r = await owner.api<{ status: string; result: { argv: string[] } }>('POST', `/api/routes/${route.body.id}/test`, { item: { title: 'x' }, confirm: true });
    expect(r.body.status).toBe('ok');
    expect(r.body.result.argv).toEqual(nasty);

    // Tool arguments built from item text are not interpreted either.
    const echo = await owner.api<{ id: string }>('POST', '/api/routes', { name: 'echo', priority: 100, adapter_id: id, tool: 'echo', mapping: { text: '{{ title }}' } });
    expect(echo.status).toBe(200);
    const title = `$(touch ${marker}) && rm -rf / ; \`reboot\``;
    const e = await owner.api<{ result: { args: { text: string } } }>('POST', '/api/router/route', { item: { title } });
    expect(e.body.result.args.text).toBe(title);
    expect(fs.existsSync(marker)).toBe(false);
  });

  it('keeps secrets sealed at rest and out of API responses, MCP results, the distributions table and the logs', async () => {
    owner = await startTestOwner({ verbose: true });
    const created = await owner.api<{ id: string; env: Array<{ key: string; value: string; secret: boolean }> }>('POST', '/api/mcp-adapters', {
      name: 'with secret',
      command: NODE,
      args: [TEST_SERVER],
      env: [
        { key: 'API_TOKEN', value: SECRET },
        { key: 'REGION', value: 'eu-west' },
      ],
    });
    expect(created.status).toBe(200);
    const id = created.body.id;
    // Masked in the response, secret by its name; the plain value stays visible.
    expect(created.body.env).toEqual([
      { key: 'API_TOKEN', secret: true, value: '••••••••' },
      { key: 'REGION', secret: false, value: 'eu-west' },
    ]);

    // The server receives the real value (proved by its digest, not by echoing it).
    const digest = await owner.api<{ id: string }>('POST', '/api/routes', { name: 'digest', adapter_id: id, tool: 'env_digest', mapping: { name: 'API_TOKEN' } });
    const d = await owner.api<{ result: { digest: string } }>('POST', `/api/routes/${digest.body.id}/test`, { item: { title: 'x' }, confirm: true });
    expect(d.body.result.digest).toBe(crypto.createHash('sha256').update(SECRET).digest('hex'));

    // Saving the form back with the mask keeps the stored secret.
    const updated = await owner.api<{ env: unknown[] }>('PUT', `/api/mcp-adapters/${id}`, {
      name: 'with secret',
      command: NODE,
      args: [TEST_SERVER],
      env: [
        { key: 'API_TOKEN', value: '••••••••', secret: true },
        { key: 'REGION', value: 'eu-west' },
      ],
    });
    expect(updated.status).toBe(200);
    const d2 = await owner.api<{ result: { digest: string } }>('POST', `/api/routes/${digest.body.id}/test`, { item: { title: 'x' }, confirm: true });
    expect(d2.body.result.digest).toBe(d.body.result.digest);

    // A badly behaved server that echoes the secret back: the result is stored and returned redacted.
    await owner.api('DELETE', `/api/routes/${digest.body.id}`);
    await owner.api('POST', '/api/routes', { name: 'leak', adapter_id: id, tool: 'leak_env', mapping: { name: 'API_TOKEN', api_token: '{{ source }}', note: 'key={{ source }}' } });
    const mcp = await owner.mcp();
    const leaked = await callTool<{ status: string; result: { value: string }; args: Record<string, unknown> }>(mcp, 'route_item', { item: { title: 'leak it', source: SECRET } });
    expect(leaked.status).toBe('ok');
    expect(leaked.result.value).toBe('[redacted]');
    // Arguments are stored and returned with secret-named keys and the adapter's secret values removed.
    expect(leaked.args).toEqual({ name: 'API_TOKEN', api_token: '[redacted]', note: 'key=[redacted]' });
    expect(JSON.stringify(leaked)).not.toContain(SECRET);

    const everything = await Promise.all(['/api/mcp-adapters', `/api/mcp-adapters/${id}`, '/api/routes', '/api/distributions', '/api/router/status'].map((p) => owner!.api('GET', p)));
    for (const r of everything) expect(JSON.stringify(r.body)).not.toContain(SECRET);
    const rows = owner.core.ctx.stateDb.prepare('SELECT * FROM distributions').all();
    expect(rows.length).toBeGreaterThanOrEqual(3);
    expect(JSON.stringify(rows)).not.toContain(SECRET);
    const adapterRow = owner.core.ctx.stateDb.prepare('SELECT env FROM mcp_adapters WHERE id = ?').get(id) as { env: string };
    expect(adapterRow.env).toMatch(/"sealed":"mrs1:/);

    await owner.close();
    const dataDir = owner.dataDir;
    owner = undefined;
    const disk = allBytes(dataDir);
    expect(disk.includes(Buffer.from('eu-west'))).toBe(true); // the scan does see stored values…
    expect(disk.includes(Buffer.from(SECRET))).toBe(false); // …and the secret is in no file: DB, WAL, logs
  });
});
