import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CheckResult, SettingsDto, VaultSwitchDto } from '../../../shared/contract/settings';
import { startTestOwner, tempDir, waitFor, type TestOwner } from '../../helpers/owner';

/** A real local OpenAI-compatible endpoint that wants one API key. */
async function fakeLlm(key: string) {
  const seen: Array<{ auth?: string; model?: string }> = [];
  const srv = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => (body += c));
    req.on('end', () => {
      const j = JSON.parse(body || '{}') as { model?: string };
      seen.push({ auth: req.headers.authorization, model: j.model });
      if (req.url !== '/v1/chat/completions') return res.writeHead(404).end('{}');
      if (req.headers.authorization !== `Bearer ${key}`) return res.writeHead(401).end('{"error":"bad key"}');
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ choices: [{ message: { content: 'ready' } }] }));
    });
  });
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${(srv.address() as net.AddressInfo).port}/v1`, seen, close: () => new Promise((r) => srv.close(r)) };
}

describe('Settings change things', () => {
  let owner: TestOwner;
  let llm: Awaited<ReturnType<typeof fakeLlm>>;
  beforeAll(async () => {
    owner = await startTestOwner({ vaultFiles: { 'old.md': '# Old note\n' } });
    llm = await fakeLlm('sk-local-test-123');
  });
  afterAll(async () => {
    await owner?.close();
    await llm?.close();
  });
  const settings = async () => (await owner.api<SettingsDto>('GET', '/api/settings')).body;

  it('refuses a vault that is not a usable folder, saying why', async () => {
    const file = path.join(tempDir(), 'note.md');
    fs.writeFileSync(file, 'x');
    fs.mkdirSync(path.join(owner.dataDir, 'inside'));
    const cases: Array<[string, string]> = [
      ['notes', 'invalid_argument'],
      [path.join(tempDir(), 'missing'), 'vault_not_found'],
      [file, 'vault_not_folder'],
      [path.join(owner.dataDir, 'inside'), 'vault_in_data_dir'],
      [path.dirname(owner.dataDir), 'vault_contains_data_dir'],
    ];
    for (const [p, code] of cases) {
      const r = await owner.api<{ code: string; message: string }>('PUT', '/api/settings/vault', { path: p });
      expect(r.status, p).toBe(400);
      expect(r.body.code, p).toBe(code);
    }
    expect((await settings()).vault.path).toBe(owner.vaultDir);
  });

  it('switches the vault: saved in config.json, re-indexed, same address', async () => {
    const next = tempDir('mailroom-new-vault-');
    fs.writeFileSync(path.join(next, 'alpha.md'), '# Alpha\nthe new vault\n');
    fs.mkdirSync(path.join(next, 'projects'));
    fs.writeFileSync(path.join(next, 'projects', 'beta.md'), '# Beta\n');
    const url = owner.url;
    const r = await owner.api<VaultSwitchDto>('PUT', '/api/settings/vault', { path: next });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ path: fs.realpathSync(next), notes: 2, restarting: true });
    expect(JSON.parse(fs.readFileSync(path.join(owner.dataDir, 'config.json'), 'utf8')).vault).toBe(fs.realpathSync(next));
    const health = await waitFor(
      async () => (await owner.api<{ vault?: string }>('GET', '/api/health').catch(() => ({ status: 0, body: {} as { vault?: string } }))).body,
      (h) => h.vault === fs.realpathSync(next),
      20_000,
      'the owner on the new vault',
    );
    expect(health.vault).toBe(fs.realpathSync(next));
    expect(owner.url).toBe(url);
    const info = await waitFor(async () => (await owner.api<{ counts: Record<string, number> }>('GET', '/api/info')).body, (i) => i.counts.notes === 2, 10_000, 'the new vault indexed');
    expect(info.counts.notes).toBe(2);

    // And again: the owner keeps following (the second switch restarts the same owner object).
    const third = fs.realpathSync(tempDir('mailroom-third-vault-'));
    fs.writeFileSync(path.join(third, 'gamma.md'), '# Gamma\n');
    expect((await owner.api<VaultSwitchDto>('PUT', '/api/settings/vault', { path: third })).body.restarting).toBe(true);
    await waitFor(
      async () => (await owner.api<{ vault?: string }>('GET', '/api/health').catch(() => ({ status: 0, body: {} as { vault?: string } }))).body,
      (h) => h.vault === third,
      20_000,
      'the owner on the third vault',
    );
    expect((await owner.api<{ vault: string }>('GET', '/api/settings')).body.vault).toMatchObject({ path: third, demo: false });
  });

  it('keeps the LLM API key sealed, tests the endpoint, and says what is wrong in words', async () => {
    const put = await owner.api<SettingsDto>('PUT', '/api/settings/llm', { base_url: llm.url, model: 'tiny', api_key: 'sk-local-test-123' });
    expect(put.status).toBe(200);
    expect(put.body.llm).toEqual({ base_url: llm.url, model: 'tiny', has_api_key: true });
    const file = fs.readFileSync(path.join(owner.dataDir, 'config.json'), 'utf8');
    expect(file).not.toContain('sk-local-test-123');
    expect(JSON.parse(file).llm.api_key_sealed).toMatch(/^mrs1:/);
    expect(JSON.stringify(await settings())).not.toContain('sk-local-test-123');

    // Test with the stored key (none typed).
    const ok = await owner.api<CheckResult>('POST', '/api/settings/llm/test', { base_url: llm.url, model: 'tiny' });
    expect(ok.body).toMatchObject({ ok: true });
    expect(ok.body.message).toContain('answered: "ready"');
    expect(llm.seen.at(-1)).toEqual({ auth: 'Bearer sk-local-test-123', model: 'tiny' });

    const wrong = await owner.api<CheckResult>('POST', '/api/settings/llm/test', { base_url: llm.url, model: 'tiny', api_key: 'sk-wrong' });
    expect(wrong.body).toMatchObject({ ok: false, code: 'auth_failed' });
    expect(wrong.body.message).toContain('refused the API key');
    const path404 = await owner.api<CheckResult>('POST', '/api/settings/llm/test', { base_url: llm.url.replace('/v1', ''), model: 'tiny' });
    expect(path404.body.code).toBe('not_found');
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const closed = (srv.address() as net.AddressInfo).port;
    await new Promise((r) => srv.close(r));
    const down = await owner.api<CheckResult>('POST', '/api/settings/llm/test', { base_url: `http://127.0.0.1:${closed}/v1`, model: 'tiny' });
    expect(down.body).toMatchObject({ ok: false, code: 'unreachable' });
    expect(down.body.message).toContain(`Could not reach 127.0.0.1:${closed}`);

    // After a restart the sealed key still works.
    const { dataDir, vaultDir } = owner;
    await owner.close();
    owner = await startTestOwner({ dataDir, vaultDir });
    const again = await owner.api<CheckResult>('POST', '/api/settings/llm/test', { base_url: llm.url, model: 'tiny' });
    expect(again.body.ok).toBe(true);
  });

  it('sets the git remote (password masked when shown) and Test push reports failures in place', async () => {
    const bad = await owner.api<{ code: string }>('PUT', '/api/settings/git-remote', { url: 'git@github.com:me/notes.git' });
    expect(bad.status).toBe(400);
    const srv = net.createServer();
    await new Promise<void>((r) => srv.listen(0, '127.0.0.1', () => r()));
    const closed = (srv.address() as net.AddressInfo).port;
    await new Promise((r) => srv.close(r));
    const remote = `http://me:hunter2-secret@127.0.0.1:${closed}/notes.git`;
    const put = await owner.api<SettingsDto>('PUT', '/api/settings/git-remote', { url: remote });
    expect(put.status).toBe(200);
    expect(put.body.git_remote).not.toContain('hunter2-secret');
    expect(put.body.git_remote).toContain('me:');
    const test = await owner.api<CheckResult>('POST', '/api/settings/git-remote/test', {});
    expect(test.status).toBe(200);
    expect(test.body.ok).toBe(false);
    expect(test.body.message).not.toContain('hunter2-secret');
    // Saving the masked URL back keeps the stored one.
    await owner.api('PUT', '/api/settings/git-remote', { url: put.body.git_remote });
    expect(JSON.parse(fs.readFileSync(path.join(owner.dataDir, 'config.json'), 'utf8')).git_remote).toBe(remote);
  });
});
