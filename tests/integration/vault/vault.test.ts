import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { callTool, callToolError, startTestOwner, tempDir, waitFor, writeFiles, type TestOwner } from '../../helpers/owner';

type Hits = { hits: Array<{ path: string; title: string; snippet: string; score: number }> };

const git = (cwd: string, ...args: string[]) => execFileSync('git', args, { cwd, encoding: 'utf8' }).trim();

const VAULT = {
  'family/kids/owen/report-card.md': '---\ntitle: Owen report card 2025\naliases: [my son]\ntags: [school]\n---\nOwen did well in maths and swimming.\n',
  'family/activities/swim/2025-schedule.md': '# Swim schedule\nSwim meet every second Saturday at the Westside pool.\n',
  'work/meetings/standup.md': '# Weekly standup\nAttendees: Priya, Sam. Discussed the Atlas launch.\n',
  'projects/atlas.md': '# Atlas\nThe Atlas project ships in March. Owner: Priya.\n',
  '.obsidian/workspace.md': 'swimming secret config\n',
  '.trash/old.md': 'swimming trashed\n',
};

describe('the vault', () => {
  let owner: TestOwner;
  let client: Client;
  beforeAll(async () => {
    owner = await startTestOwner({ vaultFiles: VAULT });
    client = await owner.mcp();
  });
  afterAll(async () => owner?.close());

  it('brain_search ranks with BM25 and supports prefixes, phrases and a folder filter; hidden folders are never indexed', async () => {
    const r = await callTool<Hits>(client, 'brain_search', { query: 'swim*' });
    expect(r.hits.map((h) => h.path).sort()).toEqual(['family/activities/swim/2025-schedule.md', 'family/kids/owen/report-card.md']);
    expect(r.hits[0].snippet).toMatch(/\*\*Swim/i);
    const phrase = await callTool<Hits>(client, 'brain_search', { query: '"Atlas launch"' });
    expect(phrase.hits.map((h) => h.path)).toEqual(['work/meetings/standup.md']);
    const folder = await callTool<Hits>(client, 'brain_search', { query: 'Priya', folder: 'projects' });
    expect(folder.hits.map((h) => h.path)).toEqual(['projects/atlas.md']);
    const alias = await callTool<Hits>(client, 'brain_search', { query: '"my son"' });
    expect(alias.hits[0].path).toBe('family/kids/owen/report-card.md');
  });

  it('brain_read_note returns title, frontmatter and content; paths outside the vault are refused', async () => {
    const n = await callTool<{ title: string; frontmatter: Record<string, unknown>; content: string }>(client, 'brain_read_note', { path: 'family/kids/owen/report-card.md' });
    expect(n.title).toBe('Owen report card 2025');
    expect(n.frontmatter.aliases).toEqual(['my son']);
    expect(n.content).toBe('Owen did well in maths and swimming.');
    fs.symlinkSync(tempDir(), path.join(owner.vaultDir, 'out'));
    for (const p of ['../x.md', '/etc/passwd', 'a\0.md', 'out/x.md']) {
      expect((await callToolError(client, 'brain_read_note', { path: p })).code, p).toBe('path_outside_vault');
    }
    expect((await callToolError(client, 'brain_read_note', { path: 'nope.md' })).code).toBe('note_not_found');
  });

  it('a file written, changed or removed in the vault becomes searchable (or not) without a restart', async () => {
    const search = async (q: string) => (await callTool<Hits>(client, 'brain_search', { query: q })).hits.map((h) => h.path);
    writeFiles(owner.vaultDir, { 'home/recipes/flapjacks.md': '# Flapjacks\nOats, butter, golden syrup.\n' });
    await waitFor(() => search('flapjacks'), (x) => x.includes('home/recipes/flapjacks.md'), 5000, 'new note indexed');
    fs.writeFileSync(path.join(owner.vaultDir, 'home/recipes/flapjacks.md'), '# Flapjacks\nNow with treacle.\n');
    await waitFor(() => search('treacle'), (x) => x.length === 1, 5000, 'changed note re-indexed');
    fs.rmSync(path.join(owner.vaultDir, 'home/recipes/flapjacks.md'));
    await waitFor(() => search('treacle'), (x) => x.length === 0, 5000, 'removed note dropped');
    writeFiles(owner.vaultDir, { '.obsidian/new.md': 'zanzibar', 'notes/.hidden.md': 'zanzibar' });
    writeFiles(owner.vaultDir, { 'notes/marker.md': 'zanzibar marker' });
    await waitFor(() => search('zanzibar'), (x) => x.length > 0, 5000, 'marker indexed');
    expect(await search('zanzibar')).toEqual(['notes/marker.md']);
  });
});

describe('start-up catch-up and reindex', () => {
  it('a restart re-reads only files that changed while Mailroom was off, and picks up edits and deletions', async () => {
    const dataDir = tempDir('mailroom-data-');
    const vaultDir = tempDir('mailroom-vault-');
    writeFiles(vaultDir, VAULT);
    let owner = await startTestOwner({ dataDir, vaultDir });
    await owner.close();
    fs.writeFileSync(path.join(vaultDir, 'projects/atlas.md'), '# Atlas\nDelayed to April.\n');
    fs.rmSync(path.join(vaultDir, 'work/meetings/standup.md'));
    // Same bytes, new mtime: the hash says nothing changed.
    const t = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(vaultDir, 'family/activities/swim/2025-schedule.md'), t, t);
    owner = await startTestOwner({ dataDir, vaultDir });
    try {
      const r = await owner.api<{ scanned: number; indexed: number; unchanged: number; removed: number }>('POST', '/api/vault/reindex', { full: false });
      expect(r.body).toMatchObject({ indexed: 0, removed: 0 });
      const c = await owner.mcp();
      expect((await callTool<Hits>(c, 'brain_search', { query: 'April' })).hits.map((h) => h.path)).toEqual(['projects/atlas.md']);
      expect((await callTool<Hits>(c, 'brain_search', { query: 'standup' })).hits).toEqual([]);
      const full = await owner.api<{ scanned: number; indexed: number }>('POST', '/api/vault/reindex', {});
      expect(full.body).toMatchObject({ scanned: 3, indexed: 3 });
    } finally {
      await owner.close();
    }
  });
});

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const p = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(p));
    });
  });
}

/** `git http-backend` behind a tiny CGI bridge: a real smart-HTTP git server on 127.0.0.1. */
async function gitHttpServer(projectRoot: string): Promise<{ url: string; close(): Promise<void> }> {
  const backend = path.join(execFileSync('git', ['--exec-path'], { encoding: 'utf8' }).trim(), 'git-http-backend');
  const server = http.createServer((req, res) => {
    const u = new URL(req.url ?? '/', 'http://x');
    const child: ChildProcess = spawn(backend, [], {
      env: {
        GIT_PROJECT_ROOT: projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: u.pathname,
        QUERY_STRING: u.search.slice(1),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        REMOTE_USER: 'mailroom',
        REMOTE_ADDR: '127.0.0.1',
        HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
      },
    });
    req.pipe(child.stdin!);
    let buf = Buffer.alloc(0);
    let headersDone = false;
    child.stdout!.on('data', (d: Buffer) => {
      if (headersDone) return void res.write(d);
      buf = Buffer.concat([buf, d]);
      const i = buf.indexOf('\r\n\r\n');
      if (i < 0) return;
      headersDone = true;
      let status = 200;
      for (const line of buf.subarray(0, i).toString().split('\r\n')) {
        const [k, ...v] = line.split(':');
        if (k.toLowerCase() === 'status') status = Number(v.join(':').trim().split(' ')[0]);
        else res.setHeader(k, v.join(':').trim());
      }
      res.writeHead(status);
      res.write(buf.subarray(i + 4));
    });
    child.on('close', () => res.end());
  });
  const port = await freePort();
  await new Promise<void>((r) => server.listen(port, '127.0.0.1', () => r()));
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((r) => server.close(() => r())) };
}

describe('git', () => {
  it('initialises the vault when asked, commits only the files Mailroom wrote, and pushes to an HTTP remote', async () => {
    const remoteRoot = tempDir('git-remote-');
    git(remoteRoot, 'init', '-q', '--bare', 'vault.git');
    git(path.join(remoteRoot, 'vault.git'), 'config', 'http.receivepack', 'true');
    const server = await gitHttpServer(remoteRoot);
    const dataDir = tempDir('mailroom-data-');
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ git_init: true, git_remote: `${server.url}/vault.git` }));
    const owner = await startTestOwner({ dataDir, vaultFiles: { 'notes/a.md': '# A\n' } });
    try {
      const vault = owner.vaultDir;
      expect(git(vault, 'log', '--format=%s')).toBe('Mailroom: initial commit of the vault');
      // The person's own uncommitted work: an edit and a staged new file.
      fs.writeFileSync(path.join(vault, 'notes/a.md'), '# A\nmine, not committed\n');
      fs.writeFileSync(path.join(vault, 'notes/staged.md'), 'staged by me\n');
      git(vault, 'add', 'notes/staged.md');
      const c = await owner.mcp();
      const saved = await callTool<{ path: string; commit?: string }>(c, 'brain_inbox_save', { content: 'Call the plumber', title: 'Plumber' });
      expect(saved.commit).toMatch(/^[0-9a-f]{40}$/);
      expect(git(vault, 'show', '--name-only', '--format=', 'HEAD')).toBe(saved.path);
      const status = execFileSync('git', ['status', '--porcelain'], { cwd: vault, encoding: 'utf8' });
      expect(status).toContain(' M notes/a.md');
      expect(status).toContain('A  notes/staged.md');
      expect(status).not.toContain(saved.path);
      const pushed = await owner.api<{ ok: boolean; ref: string }>('POST', '/api/vault/push');
      expect(pushed.body).toEqual({ ok: true, ref: 'main' });
      expect(git(path.join(remoteRoot, 'vault.git'), 'log', '--format=%H', '-1', 'main')).toBe(saved.commit);
    } finally {
      await owner.close();
      await server.close();
    }
  });
});
