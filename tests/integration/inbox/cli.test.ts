import { execFileSync } from 'node:child_process';
import { beforeAll, describe, expect, it } from 'vitest';
import { REPO_ROOT, startTestOwner, tempDir } from '../../helpers/owner';
import { runCli } from '../../helpers/cli';

describe('mailroom inbox examples', () => {
  beforeAll(() => {
    execFileSync('npm', ['run', 'build:cli'], { cwd: REPO_ROOT, stdio: 'ignore' });
  }, 60_000);

  it('lists the decisions kept from review, as a table or as JSONL', async () => {
    const dataDir = tempDir('mailroom-data-');
    const vault = tempDir('mailroom-vault-');
    const empty = await runCli(['inbox', 'examples', '--data-dir', dataDir, '--vault', vault]);
    expect(empty.code, empty.stderr).toBe(0);
    expect(empty.stdout).toMatch(/No examples yet/);

    const owner = await startTestOwner({ dataDir, vaultDir: vault, vaultFiles: { 'garden/beans.md': '# Beans\n\nRunner beans on poles.\n', 'inbox/peas.md': '# Peas\n\nSow the peas by the beans.\n' } });
    await owner.api('POST', '/api/inbox/execute', { actions: [{ path: 'inbox/peas.md', action: 'move', destination: 'garden/' }] });
    await owner.close();

    const lines = await runCli(['inbox', 'examples', '--jsonl', '--data-dir', dataDir, '--vault', vault]);
    expect(lines.code, lines.stderr).toBe(0);
    const rows = lines.stdout.trim().split('\n').map((l) => JSON.parse(l) as { path: string; label: string; title: string });
    expect(rows).toEqual([expect.objectContaining({ path: 'inbox/peas.md', label: 'garden', title: 'Peas' })]);
    const table = await runCli(['inbox', 'examples', '--data-dir', dataDir, '--vault', vault]);
    expect(table.stdout).toMatch(/garden\s+\S+\s+Peas/);
    expect(table.stdout).toMatch(/1 example\./);
  }, 90_000);
});
