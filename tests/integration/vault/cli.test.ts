import fs from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { execFileSync } from 'node:child_process';
import { REPO_ROOT, tempDir, writeFiles } from '../../helpers/owner';
import { runCli } from '../../helpers/cli';

describe('mailroom reindex', () => {
  beforeAll(() => {
    execFileSync('npm', ['run', 'build:cli'], { cwd: REPO_ROOT, stdio: 'ignore' });
  }, 60_000);

  it('rebuilds the index from the vault; --changed only re-reads what changed', async () => {
    const dataDir = tempDir('mailroom-data-');
    const vault = tempDir('mailroom-vault-');
    writeFiles(vault, { 'a.md': '# A\n', 'b/c.md': '# C\n', '.obsidian/x.md': 'hidden' });
    const full = await runCli(['reindex', '--json', '--data-dir', dataDir, '--vault', vault]);
    expect(full.code, full.stderr).toBe(0);
    expect(JSON.parse(full.stdout)).toMatchObject({ scanned: 2, indexed: 2, removed: 0 });
    fs.writeFileSync(path.join(vault, 'a.md'), '# A2\n');
    // The core's start-up catch-up already re-read the edited note, so --changed finds nothing left.
    const changed = await runCli(['reindex', '--changed', '--data-dir', dataDir, '--vault', vault]);
    expect(changed.stdout).toMatch(/^Indexed 0 of 2 notes \(2 unchanged, 0 removed\)/);
    expect(fs.existsSync(path.join(dataDir, 'index.db'))).toBe(true);
  }, 60_000);
});
