import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startTestOwner, tempDir, type TestOwner } from '../../helpers/owner';
import { NODE, TEST_SERVER } from './harness';

/**
 * Any adapter value can be secret — env variables with names the old rule missed (DB_PASS,
 * GITHUB_PAT), arguments (`--token X`, `--api-key=X`, or any one marked by hand), header values
 * and URL query parameters. Secret values are sealed in state.db, masked by the API (with a flag
 * saying they are secret), kept when the mask is sent back, masked in the logs, and still reach
 * the server in clear.
 */

let owner: TestOwner | undefined;
afterEach(async () => {
  await owner?.close();
  owner = undefined;
});

const S = {
  dbPass: 'dbpass-8c1f0a-NOLEAK',
  pat: 'ghp_patvalue_77aa-NOLEAK',
  flagArg: 'tok-flag-3b9d-NOLEAK',
  eqArg: 'key-eq-51e2-NOLEAK',
  manualArg: 'manual-arg-0f4c-NOLEAK',
  header: 'hdr-secret-aa10-NOLEAK',
  query: 'qtok-9911-NOLEAK',
};
const ALL = Object.values(S);
const sha = (s: string) => crypto.createHash('sha256').update(s).digest('hex');

/** Every byte under a folder (state.db, its WAL, the logs). */
function allBytes(dir: string): Buffer {
  const out: Buffer[] = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true, recursive: true })) if (e.isFile()) out.push(fs.readFileSync(path.join(e.parentPath, e.name)));
  return Buffer.concat(out);
}

/** A raw read of every adapter row straight from state.db, as another program would see it. */
function rawAdapterRows(dataDir: string): string {
  const db = new Database(path.join(dataDir, 'state.db'), { readonly: true, fileMustExist: true });
  try {
    return JSON.stringify(db.prepare('SELECT * FROM mcp_adapters').all());
  } finally {
    db.close();
  }
}

interface AdapterDto {
  id: string;
  args: string[];
  arg_secrets: boolean[];
  env: Array<{ key: string; value: string; secret: boolean }>;
  url: string | null;
  url_secrets: string[];
  headers: Array<{ key: string; value: string; secret: boolean }>;
}

describe('adapter secrets: env, args, headers, URL parameters', () => {
  it('stdio: seals DB_PASS, GITHUB_PAT and secret args at rest, masks them on GET and in logs, keeps them on a PUT of the mask, and the server gets the real values', async () => {
    owner = await startTestOwner({ verbose: true });
    const o = owner;
    const args = [TEST_SERVER, '--token', S.flagArg, `--api-key=${S.eqArg}`, '--region', 'eu-west', S.manualArg];
    const created = await o.api<AdapterDto>('POST', '/api/mcp-adapters', {
      name: 'secrets',
      command: NODE,
      args,
      // Only the last one is marked by hand; the flag-based ones are recognised.
      arg_secrets: [false, false, true, true, false, false, true],
      env: [
        { key: 'DB_PASS', value: S.dbPass },
        { key: 'GITHUB_PAT', value: S.pat },
        { key: 'REGION', value: 'eu-west' },
      ],
    });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(created.body.env).toEqual([
      { key: 'DB_PASS', value: '••••••••', secret: true },
      { key: 'GITHUB_PAT', value: '••••••••', secret: true },
      { key: 'REGION', value: 'eu-west', secret: false },
    ]);
    expect(created.body.args).toEqual([TEST_SERVER, '--token', '••••••••', '--api-key=••••••••', '--region', 'eu-west', '••••••••']);
    expect(created.body.arg_secrets).toEqual([false, false, true, true, false, false, true]);

    // The server is started with the real values.
    // (Proved by digests: a result that echoed a secret would itself be redacted.)
    const argvRoute = await o.api<{ id: string }>('POST', '/api/routes', { name: 'argv', adapter_id: id, tool: 'argv_digest' });
    const argv = await o.api<{ status: string; result: { digests: string[] } }>('POST', `/api/routes/${argvRoute.body.id}/test`, { item: { title: 'x' }, confirm: true });
    expect(argv.body.status).toBe('ok');
    expect(argv.body.result.digests).toEqual(args.slice(1).map(sha));
    const digestRoute = await o.api<{ id: string }>('POST', '/api/routes', { name: 'digest', adapter_id: id, tool: 'env_digest', mapping: { name: 'DB_PASS' } });
    const d = await o.api<{ result: { digest: string } }>('POST', `/api/routes/${digestRoute.body.id}/test`, { item: { title: 'x' }, confirm: true });
    expect(d.body.result.digest).toBe(sha(S.dbPass));

    // GET never returns them; a PUT of exactly what GET returned keeps every stored secret.
    const got = await o.api<AdapterDto>('GET', `/api/mcp-adapters/${id}`);
    for (const v of ALL) expect(JSON.stringify(got.body)).not.toContain(v);
    const { env, args: maskedArgs, arg_secrets } = got.body;
    const put = await o.api<AdapterDto>('PUT', `/api/mcp-adapters/${id}`, { name: 'secrets', command: NODE, args: maskedArgs, arg_secrets, env });
    expect(put.status).toBe(200);
    const argv2 = await o.api<{ result: { digests: string[] } }>('POST', `/api/routes/${argvRoute.body.id}/test`, { item: { title: 'x' }, confirm: true });
    expect(argv2.body.result.digests).toEqual(args.slice(1).map(sha));
    const d2 = await o.api<{ result: { digest: string } }>('POST', `/api/routes/${digestRoute.body.id}/test`, { item: { title: 'x' }, confirm: true });
    expect(d2.body.result.digest).toBe(sha(S.dbPass));

    // A mask with nothing stored behind it is refused, not stored as the literal mask.
    const bad = await o.api<{ code: string; message: string }>('PUT', `/api/mcp-adapters/${id}`, { name: 'secrets', command: NODE, args: [...maskedArgs, '••••••••'], arg_secrets: [...arg_secrets, true], env });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/masked secret.*type the value/);

    const list = await o.api('GET', '/api/mcp-adapters');
    for (const v of ALL) expect(JSON.stringify(list.body)).not.toContain(v);
    const raw = rawAdapterRows(o.dataDir);
    expect(raw).toContain('mrs1:');
    for (const v of ALL) expect(raw).not.toContain(v);

    await o.close();
    owner = undefined;
    // Logs record the argv, masked; no file under the data dir holds a secret.
    const log = fs.readdirSync(path.join(o.dataDir, 'logs')).map((f) => fs.readFileSync(path.join(o.dataDir, 'logs', f), 'utf8')).join('\n');
    expect(log).toContain('--api-key=••••••••');
    const disk = allBytes(o.dataDir);
    expect(disk.includes(Buffer.from('eu-west'))).toBe(true);
    for (const v of ALL) expect(disk.includes(Buffer.from(v))).toBe(false);
  });

  it('http: a secret header and a secret URL query parameter are sealed, masked and still sent', async () => {
    owner = await startTestOwner({ verbose: true });
    const o = owner;
    // The owner's own Streamable HTTP MCP endpoint is a real server that needs its bearer token.
    const url = `${o.url}/mcp?access_token=${S.query}&v=2`;
    const created = await o.api<AdapterDto>('POST', '/api/mcp-adapters', {
      name: 'remote',
      transport: 'http',
      url,
      headers: [
        { key: 'Authorization', value: `Bearer ${o.token}` },
        { key: 'X-Extra', value: S.header, secret: true },
      ],
    });
    expect(created.status).toBe(200);
    expect(created.body.url).toBe(`${o.url}/mcp?access_token=••••••••&v=2`);
    expect(created.body.url_secrets).toEqual(['access_token']);
    expect(created.body.headers).toEqual([
      { key: 'Authorization', value: '••••••••', secret: true },
      { key: 'X-Extra', value: '••••••••', secret: true },
    ]);
    const test = await o.api<{ ok: boolean; tools: Array<{ name: string }> }>('POST', `/api/mcp-adapters/${created.body.id}/test`);
    expect(test.body.ok).toBe(true);
    expect(test.body.tools.map((t) => t.name)).toContain('brain_search');

    // Round trip: send back what GET shows; the adapter still connects (the token was kept).
    const got = (await o.api<AdapterDto>('GET', `/api/mcp-adapters/${created.body.id}`)).body;
    const put = await o.api<AdapterDto>('PUT', `/api/mcp-adapters/${created.body.id}`, { name: 'remote', transport: 'http', url: got.url, url_secrets: got.url_secrets, headers: got.headers });
    expect(put.status).toBe(200);
    const test2 = await o.api<{ ok: boolean }>('POST', `/api/mcp-adapters/${created.body.id}/test`);
    expect(test2.body.ok).toBe(true);

    const raw = rawAdapterRows(o.dataDir);
    for (const v of [S.query, S.header, o.token]) expect(raw).not.toContain(v);
    for (const v of [S.query, S.header, o.token]) expect(JSON.stringify((await o.api('GET', '/api/mcp-adapters')).body)).not.toContain(v);
  });

  it('seals, on start, values an older version stored in clear (DB_PASS env, --token argument, ?token= URL parameter)', async () => {
    const dataDir = tempDir('mailroom-data-');
    owner = await startTestOwner({ dataDir });
    await owner.close();
    owner = undefined;
    // Rows as the previous version wrote them: names its rule missed kept their value in clear.
    const db = new Database(path.join(dataDir, 'state.db'));
    const at = new Date().toISOString();
    db.prepare(
      `INSERT INTO mcp_adapters (id, name, transport, command, args, env, url, headers, idle_timeout_s, max_retries, call_timeout_s, created_at, updated_at)
       VALUES ('ad_old', 'old', 'stdio', ?, ?, ?, NULL, '[]', 300, 3, 60, ?, ?)`,
    ).run(NODE, JSON.stringify([TEST_SERVER, '--token', S.flagArg]), JSON.stringify([{ key: 'DB_PASS', secret: false, value: S.dbPass }, { key: 'REGION', secret: false, value: 'eu-west' }]), at, at);
    db.prepare(
      `INSERT INTO mcp_adapters (id, name, transport, command, args, env, url, headers, idle_timeout_s, max_retries, call_timeout_s, created_at, updated_at)
       VALUES ('ad_old_http', 'old http', 'http', NULL, '[]', '[]', ?, '[]', 300, 3, 60, ?, ?)`,
    ).run(`http://127.0.0.1:9/mcp?token=${S.query}`, at, at);
    db.close();
    expect(rawAdapterRows(dataDir)).toContain(S.dbPass);

    owner = await startTestOwner({ dataDir });
    const raw = rawAdapterRows(dataDir);
    for (const v of [S.dbPass, S.flagArg, S.query]) expect(raw).not.toContain(v);
    expect(raw).toContain('eu-west');
    const a = await owner.api<AdapterDto>('GET', '/api/mcp-adapters/ad_old');
    expect(a.body.env[0]).toEqual({ key: 'DB_PASS', value: '••••••••', secret: true });
    const r = await owner.api<{ id: string }>('POST', '/api/routes', { name: 'argv', adapter_id: 'ad_old', tool: 'argv_digest' });
    const argv = await owner.api<{ result: { digests: string[] } }>('POST', `/api/routes/${r.body.id}/test`, { item: { title: 'x' }, confirm: true });
    expect(argv.body.result.digests).toEqual(['--token', S.flagArg].map(sha));
    expect((await owner.api<AdapterDto>('GET', '/api/mcp-adapters/ad_old_http')).body.url).toBe('http://127.0.0.1:9/mcp?token=••••••••');
  });
});
