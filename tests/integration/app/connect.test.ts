import { spawn } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../helpers/owner';
import { BIN, cleanEnv, runCli } from '../../helpers/cli';

const isRoot = (process.getuid?.() ?? -1) === 0;

/** `mailroom …` as an ordinary user (root may write anywhere, so as root the child runs as nobody). */
function runAsUser(args: string[], env: Record<string, string>): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [BIN, ...args], { env: cleanEnv(env), stdio: ['ignore', 'pipe', 'pipe'], ...(isRoot ? { uid: 65534, gid: 65534 } : {}) });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d) => (stdout += d));
    child.stderr.on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('exit', (code) => resolve({ code, stdout, stderr }));
  });
}

describe('connect claude-desktop on files it may not change', () => {
  it('never replaces a read-only config file, and says what to do', async () => {
    const dir = tempDir();
    const file = path.join(dir, 'claude_desktop_config.json');
    const original = JSON.stringify({ mcpServers: { other: { command: 'x', args: [] } } }, null, 2);
    fs.writeFileSync(file, original, { mode: 0o444 });
    const r = await runCli(['connect', 'claude-desktop', '--config', file, '--data-dir', tempDir()]);
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('is read-only, so Mailroom left it alone');
    expect(r.stderr).toContain('chmod u+w');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(fs.readFileSync(file, 'utf8')).toBe(original);
    expect(fs.statSync(file).mode & 0o777).toBe(0o444);
    expect(fs.readdirSync(dir)).toEqual(['claude_desktop_config.json']);
  });

  it('an unwritable folder gives a clear error, not an EACCES stack', async () => {
    const dir = tempDir();
    const locked = path.join(dir, 'Claude');
    fs.mkdirSync(locked);
    fs.chmodSync(dir, 0o755);
    fs.chmodSync(locked, 0o555);
    const dataDir = tempDir();
    fs.chmodSync(dataDir, 0o777);
    const r = await runAsUser(['connect', 'claude-desktop', '--config', path.join(locked, 'claude_desktop_config.json'), '--data-dir', dataDir], { HOME: dataDir });
    expect(r.stderr).toContain(`Mailroom may not write in ${locked} (permission denied)`);
    expect(r.stderr).toContain('--print');
    expect(r.stderr).not.toContain('EACCES');
    expect(r.stderr).not.toMatch(/\n\s+at /);
    expect(r.code).toBe(1);
    expect(fs.readdirSync(locked)).toEqual([]);
  });
});
