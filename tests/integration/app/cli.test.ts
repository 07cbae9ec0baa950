import fs from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { type ChildProcess } from 'node:child_process';
import { REPO_ROOT, tempDir } from '../../helpers/owner';
import { killAndWait, runCli, startCli } from '../../helpers/cli';

const RUNNING = /Mailroom is running at (http:\/\/127\.0\.0\.1:(\d+)\/\?token=([\w-]+))/;

describe('the mailroom command', () => {
  const children: ChildProcess[] = [];
  afterEach(async () => {
    for (const c of children.splice(0)) await killAndWait(c, 'SIGTERM');
  });

  it('start --headless prints the one line with the URL, copies the demo vault on first run, and status finds it', async () => {
    const dataDir = tempDir();
    const { child, match } = await startCli(['start', '--headless', '--data-dir', dataDir, '--port', '0'], RUNNING);
    children.push(child);
    const [, url, port, token] = match;
    expect(fs.statSync(path.join(dataDir, 'token')).mode & 0o777).toBe(0o600);
    expect(fs.readFileSync(path.join(dataDir, 'token'), 'utf8').trim()).toBe(token);
    expect(JSON.parse(fs.readFileSync(path.join(dataDir, 'mailroom.lock'), 'utf8'))).toMatchObject({ pid: child.pid, port: Number(port) });
    expect(fs.existsSync(path.join(dataDir, 'demo-vault'))).toBe(true);

    const health = await (await fetch(`http://127.0.0.1:${port}/api/health`, { headers: { authorization: `Bearer ${token}` } })).json();
    expect(health).toMatchObject({ ok: true, vault: path.join(dataDir, 'demo-vault') });

    const status = await runCli(['status', '--data-dir', dataDir, '--json']);
    expect(status.code).toBe(0);
    expect(JSON.parse(status.stdout)).toMatchObject({ running: true, pid: child.pid, url });

    // A second start on the same data dir says so and exits 0, pointing at the running one.
    const second = await runCli(['start', '--headless', '--data-dir', dataDir, '--port', '0']);
    expect(second.code).toBe(0);
    expect(second.stdout).toContain(`already running`);
    expect(second.stdout).toContain(url);
  });

  it('flags beat the environment', async () => {
    const dataDir = tempDir();
    const flagVault = tempDir();
    const { child, match } = await startCli(['start', '--headless', '--data-dir', dataDir, '--vault', flagVault], RUNNING, {
      MAILROOM_VAULT: tempDir(),
      MAILROOM_PORT: '0',
    });
    children.push(child);
    const health = (await (await fetch(`http://127.0.0.1:${match[2]}/api/health`, { headers: { authorization: `Bearer ${match[3]}` } })).json()) as { vault: string };
    expect(health.vault).toBe(flagVault);
  });

  it('the environment beats the config file', async () => {
    const dataDir = tempDir();
    const envVault = tempDir();
    fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ vault: tempDir(), port: 0 }));
    const { child, match } = await startCli(['start', '--headless', '--data-dir', dataDir], RUNNING, { MAILROOM_VAULT: envVault });
    children.push(child);
    const health = (await (await fetch(`http://127.0.0.1:${match[2]}/api/health`, { headers: { authorization: `Bearer ${match[3]}` } })).json()) as { vault: string };
    expect(health.vault).toBe(envVault);
  });

  it('status says when nothing runs', async () => {
    const r = await runCli(['status', '--data-dir', tempDir()]);
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/not running/);
  });

  it('argument errors print what was wrong and the usage, exit code 2', async () => {
    const badPort = await runCli(['start', '--headless', '--port', 'eighty', '--data-dir', tempDir()]);
    expect(badPort.code).toBe(2);
    expect(badPort.stderr).toContain('port must be a whole number');
    expect(badPort.stderr).toContain('Usage: mailroom start');
    const unknown = await runCli(['frobnicate']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/unknown command 'frobnicate'/);
    const badOpt = await runCli(['status', '--no-such-flag']);
    expect(badOpt.code).toBe(2);
    expect(badOpt.stderr).toMatch(/unknown option/);
  });

  it('a corrupt config file is a clear error, not a crash', async () => {
    const dataDir = tempDir();
    fs.writeFileSync(path.join(dataDir, 'config.json'), '{ not json');
    const r = await runCli(['status', '--data-dir', dataDir]);
    expect(r.code).toBe(2);
    expect(r.stderr).toContain('config.json is not valid JSON');
  });

  it('connect claude-desktop merges into an existing config, keeps other servers, and backs up first', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'claude_desktop_config.json');
    const original = JSON.stringify({ globalShortcut: 'Ctrl+Space', mcpServers: { other: { command: 'other-server', args: ['--x'] } } }, null, 2);
    fs.writeFileSync(file, original);
    const dataDir = tempDir();
    const r = await runCli(['connect', 'claude-desktop', '--config', file, '--data-dir', dataDir]);
    expect(r.code).toBe(0);
    const merged = JSON.parse(fs.readFileSync(file, 'utf8'));
    expect(merged.globalShortcut).toBe('Ctrl+Space');
    expect(merged.mcpServers.other).toEqual({ command: 'other-server', args: ['--x'] });
    expect(merged.mcpServers.mailroom.command).toBe(process.execPath);
    expect(merged.mcpServers.mailroom.args).toEqual([path.join(REPO_ROOT, 'bin', 'mailroom.mjs'), 'mcp']);
    expect(merged.mcpServers.mailroom.env).toEqual({ MAILROOM_DATA_DIR: dataDir });
    const backups = fs.readdirSync(dir).filter((f) => f.includes('.bak-'));
    expect(backups).toHaveLength(1);
    expect(fs.readFileSync(path.join(dir, backups[0] ?? ''), 'utf8')).toBe(original);
    // Idempotent: a second run changes nothing and writes no second backup.
    const again = await runCli(['connect', 'claude-desktop', '--config', file, '--data-dir', dataDir]);
    expect(again.stdout).toMatch(/nothing changed/);
    expect(fs.readdirSync(dir).filter((f) => f.includes('.bak-'))).toHaveLength(1);
  });

  it('connect claude-desktop refuses to touch a config that is not JSON', async () => {
    const file = path.join(tempDir(), 'claude_desktop_config.json');
    fs.writeFileSync(file, '{ broken');
    const r = await runCli(['connect', 'claude-desktop', '--config', file, '--data-dir', tempDir()]);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/not valid JSON/);
    expect(fs.readFileSync(file, 'utf8')).toBe('{ broken');
  });

  it('connect claude-code prints the .mcp.json entry, or writes it with --write', async () => {
    const dataDir = tempDir();
    const printed = await runCli(['connect', 'claude-code', '--data-dir', dataDir]);
    expect(JSON.parse(printed.stdout).mcpServers.mailroom).toMatchObject({ type: 'stdio', args: [expect.stringMatching(/mailroom\.mjs$/), 'mcp'] });
    const project = tempDir();
    fs.writeFileSync(path.join(project, '.mcp.json'), JSON.stringify({ mcpServers: { db: { command: 'db-mcp' } } }));
    const written = await runCli(['connect', 'claude-code', '--write', project, '--data-dir', dataDir]);
    expect(written.code).toBe(0);
    const json = JSON.parse(fs.readFileSync(path.join(project, '.mcp.json'), 'utf8'));
    expect(Object.keys(json.mcpServers).sort()).toEqual(['db', 'mailroom']);
  });
});
