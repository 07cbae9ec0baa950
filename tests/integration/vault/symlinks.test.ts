/**
 * The vault read rule: no hidden file (.env, .git/config) and no symlink that leads outside the
 * vault (or at a hidden file) is ever returned by a read or search tool. Git carries symlinks, so
 * a cloned or synced vault is all an attacker needs.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { VaultApi } from '../../../electron/core/domains/vault';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, callToolError, startTestOwner, tempDir, waitFor, writeFiles, type TestOwner } from '../../helpers/owner';

type Hits = { hits: Array<{ path: string; title: string; snippet: string }> };

const SECRET = 'OUTSIDESECRET';
const ENV_SECRET = 'ENVSECRET';
const TOKEN = 'ghp_GITTOKENSECRET';

const MBOX = `From billing@northwind.example Mon Mar  3 09:00:00 2025
From: Northwind Billing <billing@northwind.example>
To: Acme Support <support@acme.test>
Subject: Invoice INV-2041 for February
Message-ID: <inv1@fixture.acme.test>
Date: Mon, 03 Mar 2025 09:00:00 +0000
MIME-Version: 1.0
Content-Type: text/plain; charset=utf-8

Please find our invoice INV-2041. Amount due: 1,250.00 EUR.

`;

describe('vault reads never follow symlinks out of the vault nor return hidden files', () => {
  let owner: TestOwner;
  let client: Client;
  let outside: string;
  let vault: string;
  const leaks = (x: unknown) => {
    const s = JSON.stringify(x);
    return [SECRET, ENV_SECRET, TOKEN].filter((k) => s.includes(k));
  };

  beforeAll(async () => {
    outside = tempDir('mailroom-outside-');
    writeFiles(outside, {
      'secret.md': `---\nid: secret\nentities: [Zanzibar]\ntags: [zanzibar]\n---\nzanzibar ${SECRET} password hunter2\n`,
      'secret.yaml': `intents: [ ${SECRET}\n`,
      'secret.json': `${SECRET} not json`,
      'sub/deep.md': `# Deep\nzanzibar ${SECRET}\n`,
      'rules.md': `# Inbox rules\n\n- anything about tea → ${SECRET}/\n- ${SECRET} cannot be parsed ???\n`,
    });
    vault = tempDir('mailroom-vault-');
    writeFiles(vault, {
      'notes/real.md': '# Real\nzanzibar visible note\n',
      '.env': `API_KEY=${ENV_SECRET} zanzibar\n`,
      '.env.md': `zanzibar ${ENV_SECRET}\n`,
      '_brain_config/mail/taxonomies/broken.yaml': `intents: [ ${SECRET}-inline\n`,
      '_brain_config/mail/schemas/broken.json': `${SECRET}-inline not json`,
    });
    execFileSync('git', ['init', '-q'], { cwd: vault });
    execFileSync('git', ['remote', 'add', 'origin', `https://me:${TOKEN}@example.com/notes.git`], { cwd: vault });
    fs.mkdirSync(path.join(vault, 'memory'));
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(vault, 'memory/x.md'));
    fs.symlinkSync(path.relative(path.join(vault, 'notes'), path.join(outside, 'secret.md')), path.join(vault, 'notes/link.md'));
    fs.symlinkSync(path.join(outside, 'sub'), path.join(vault, 'notes/linkdir'));
    fs.symlinkSync('../.env.md', path.join(vault, 'notes/env.md'));
    fs.symlinkSync('real.md', path.join(vault, 'notes/alias.md'));
    writeFiles(vault, { 'inbox/idea.md': '# Idea\nA visible inbox item about tea\n' });
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(vault, 'inbox/leak.md'));
    fs.symlinkSync(path.join(outside, 'rules.md'), path.join(vault, '_brain_config/inbox_rules.md'));
    fs.symlinkSync(path.join(outside, 'secret.yaml'), path.join(vault, '_brain_config/mail/taxonomies/leak.yaml'));
    fs.symlinkSync(path.join(outside, 'secret.json'), path.join(vault, '_brain_config/mail/schemas/leak.json'));
    owner = await startTestOwner({ vaultDir: vault });
    client = await owner.mcp();
  });
  afterAll(async () => owner?.close());

  it('brain_read_note refuses hidden files and symlinks that lead outside, with a clear code', async () => {
    const cases: Array<[string, string]> = [
      ['memory/x.md', 'path_outside_vault'],
      ['notes/link.md', 'path_outside_vault'],
      ['notes/linkdir/deep.md', 'path_outside_vault'],
      ['.env', 'path_hidden'],
      ['.git/config', 'path_hidden'],
      ['notes/env.md', 'path_hidden'],
    ];
    for (const [p, code] of cases) {
      const err = await callToolError(client, 'brain_read_note', { path: p });
      expect(err.code, p).toBe(code);
      expect(leaks(err), p).toEqual([]);
      expect(err.message.length).toBeGreaterThan(20);
    }
    // The REST route answers the same.
    const rest = await owner.api<{ code: string }>('GET', `/api/vault/note?path=${encodeURIComponent('.git/config')}`);
    expect(rest.status).toBe(400);
    expect(rest.body.code).toBe('path_hidden');
    // A symlink to a visible note inside the vault is still a note.
    const alias = await callTool<{ content: string }>(client, 'brain_read_note', { path: 'notes/alias.md' });
    expect(alias.content).toContain('zanzibar visible note');
  });

  it('brain_search never shows outside or hidden content, at start-up or when links appear later', async () => {
    const search = async (q: string) => await callTool<Hits>(client, 'brain_search', { query: q, limit: 50 });
    const first = await search('zanzibar');
    expect(first.hits.map((h) => h.path).sort()).toEqual(['notes/alias.md', 'notes/real.md']);
    expect(leaks(first)).toEqual([]);
    // Links that arrive while Mailroom runs (a git pull, a sync) go through the watcher.
    fs.symlinkSync(path.join(outside, 'secret.md'), path.join(vault, 'notes/late.md'));
    fs.symlinkSync(path.join(outside, 'sub'), path.join(vault, 'late-dir'));
    fs.symlinkSync('../.env.md', path.join(vault, 'notes/late-env.md'));
    writeFiles(vault, { 'notes/marker.md': '# Marker\nzanzibar marker\n' });
    await waitFor(() => search('marker'), (r) => r.hits.length === 1, 10_000, 'marker indexed');
    // A second marker after the first is indexed: the links' events were handled before it.
    writeFiles(vault, { 'notes/marker2.md': '# Marker two\nsecondmarker\n' });
    await waitFor(() => search('secondmarker'), (r) => r.hits.length === 1, 10_000, 'second marker indexed');
    await (owner.core.domains.find((d) => d.name === 'vault') as unknown as VaultApi).settle();
    const after = await search('zanzibar');
    expect(after.hits.map((h) => h.path).sort()).toEqual(['notes/alias.md', 'notes/marker.md', 'notes/real.md']);
    expect(leaks(after)).toEqual([]);
    expect(leaks(await search(SECRET))).toEqual([]);
    expect(leaks(await search(ENV_SECRET))).toEqual([]);
  });

  it('inbox_analyze lists and reads no outside symlink, and does not load rules through one', async () => {
    const all = await callTool<{ items: Array<{ path: string }>; rules_loaded: unknown }>(client, 'inbox_analyze', {});
    expect(all.items.map((i) => i.path)).toEqual(['inbox/idea.md']);
    expect(all.rules_loaded).toBe(false);
    expect(leaks(all)).toEqual([]);
    const direct = await callToolError(client, 'inbox_analyze', { paths: ['inbox/leak.md'] });
    expect(direct.code).toBe('path_outside_vault');
    expect(leaks(direct)).toEqual([]);
  });

  it('search_memory never returns a memory/*.md symlink to a file outside the vault', async () => {
    const r = await callTool<{ results: Array<{ path: string; content: string }> }>(client, 'search_memory', { query: 'zanzibar password' });
    expect(leaks(r)).toEqual([]);
    expect(r.results.map((m) => m.path)).not.toContain('memory/x.md');
    const tagged = await callTool<{ results: unknown[] }>(client, 'search_memory', { query: '', tags: ['zanzibar'] });
    expect(tagged.results).toEqual([]);
  });

  it('mail taxonomies and schemas are never read through an outside symlink, and config errors never echo the file', async () => {
    expect((await owner.api('POST', '/api/mail/inboxes', { id: 'support', address: 'support@acme.test', name: 'Acme Support' })).status).toBe(200);
    const imp = await fetch(`${owner.url}/api/mail/import?inbox=support&filename=one.mbox`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: MBOX });
    expect(imp.status).toBe(200);
    const hits = await callTool<{ results: Array<{ message_id: string }> }>(client, 'search_inbox', { inbox_id: 'support', query: 'invoice' });
    const id = hits.results[0].message_id;
    const tax = await callToolError(client, 'triage_message', { message_id: id, taxonomy_id: 'leak' });
    expect(tax.code).toBe('path_outside_vault');
    expect(leaks(tax)).toEqual([]);
    const schema = await callToolError(client, 'extract_to_schema', { message_id: id, schema_id: 'leak' });
    expect(schema.code).toBe('path_outside_vault');
    expect(leaks(schema)).toEqual([]);
    // A broken file inside the vault: the error says where, not what.
    const badTax = await callToolError(client, 'triage_message', { message_id: id, taxonomy_id: 'broken' });
    expect(badTax.code).toBe('invalid_config');
    expect(leaks(badTax)).toEqual([]);
    const badSchema = await callToolError(client, 'extract_to_schema', { message_id: id, schema_id: 'broken' });
    expect(badSchema.code).toBe('invalid_config');
    expect(leaks(badSchema)).toEqual([]);
    // Installing the defaults never writes through a symlinked folder that leads outside.
    fs.rmSync(path.join(vault, '_brain_config/mail/policies'), { recursive: true, force: true });
    fs.symlinkSync(path.join(outside, 'sub'), path.join(vault, '_brain_config/mail/policies'));
    const inst = await owner.api<{ code: string }>('POST', '/api/mail/config/install-defaults');
    expect(inst.body.code).toBe('path_outside_vault');
    expect(fs.readdirSync(path.join(outside, 'sub'))).toEqual(['deep.md']);
  });
});
