import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChildProcess } from 'node:child_process';
import { tempDir, writeFiles } from '../../helpers/owner';
import { killAndWait, runCli, startCli } from '../../helpers/cli';
import type { SessionDto } from '../../../shared/contract/sessions';

const RUNNING = /Mailroom is running at (http:\/\/127\.0\.0\.1:(\d+))\/\?token=([\w-]+)/;

describe('mailroom session … and mailroom send', () => {
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const c of children.splice(0)) await killAndWait(c, 'SIGTERM');
  });

  it('without a running owner: add installs, list shows pending, send queues, done and remove restore the folder', async () => {
    const dataDir = tempDir();
    const dirs = ['--data-dir', dataDir, '--vault', tempDir()];
    const project = tempDir('mailroom-project-');
    writeFiles(project, { 'CLAUDE.md': '# Mine\n', '.mcp.json': '{"mcpServers":{}}' });
    const before = { md: fs.readFileSync(path.join(project, 'CLAUDE.md')), mcp: fs.readFileSync(path.join(project, '.mcp.json')) };

    const add = await runCli(['session', 'add', '--name', 'backend', '--dir', project, '--json', ...dirs]);
    expect(add.stderr).toBe('');
    expect(add.code).toBe(0);
    const t = JSON.parse(add.stdout) as SessionDto;
    expect(t).toMatchObject({ name: 'backend', status: 'queued', working_dir: fs.realpathSync(project) });
    expect(fs.readFileSync(path.join(project, 'CLAUDE.md'), 'utf8')).toContain('mailroom:mailbox:start');

    const peer = await runCli(['session', 'add', '--name', 'frontend', '--dir', tempDir(), '--peer', t.id, ...dirs]);
    expect(peer.code).toBe(0);
    expect(peer.stdout).toContain(`peer: ${t.id}`);

    const send = await runCli(['send', '--task', t.id, '--priority', 'high', 'rebase', 'on', 'main', ...dirs]);
    expect(send.code).toBe(0);
    expect(send.stdout).toMatch(/Queued message \d+ for \w+ \(1 pending\)/);

    const list = await runCli(['session', 'list', ...dirs]);
    expect(list.stdout).toMatch(new RegExp(`${t.id}\\s+queued\\s+1\\s+backend`));

    const done = await runCli(['session', 'done', t.id, ...dirs]);
    expect(done.stdout).toContain('is done (1 messages were never picked up)');

    const rm = await runCli(['session', 'remove', t.id, ...dirs]);
    expect(rm.code).toBe(0);
    expect(rm.stdout).toContain('restored to their original bytes');
    expect(fs.readFileSync(path.join(project, 'CLAUDE.md'))).toEqual(before.md);
    expect(fs.readFileSync(path.join(project, '.mcp.json'))).toEqual(before.mcp);
    expect(fs.existsSync(path.join(project, '.claude'))).toBe(false);

    const unknown = await runCli(['send', '--task', t.id, 'hello', ...dirs]);
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toContain(`No session with id '${t.id}'`);
  }, 60_000);

  it('with a running owner, the CLI goes through it: the owner sees the session and the message', async () => {
    const dataDir = tempDir();
    const { child, match } = await startCli(['start', '--headless', '--data-dir', dataDir, '--vault', tempDir(), '--port', '0'], RUNNING);
    children.push(child);
    const [, url, , token] = match;
    const add = await runCli(['session', 'add', '--name', 'live', '--dir', tempDir(), '--json', '--data-dir', dataDir]);
    const t = JSON.parse(add.stdout) as SessionDto;
    await runCli(['send', '--task', t.id, 'hi from the terminal', '--data-dir', dataDir]);
    const r = await fetch(`${url}/api/sessions/${t.id}`, { headers: { authorization: `Bearer ${token}` } });
    expect(((await r.json()) as SessionDto).pending).toBe(1);
  }, 60_000);
});
