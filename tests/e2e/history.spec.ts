import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';
import { tempDir } from '../helpers/owner';

const VAULT: Record<string, string> = {
  'inbox/peas.md': '# Peas\n\nSow the peas in March.\n',
  'inbox/owen-swim.md': '# Owen swim meet\n\nSaturday at the Westside pool.\n',
  'garden/plan.md': '# Garden plan\n\nBeds: peas, beans.\n',
  'family/owen.md': '# Owen\n\nSwims on Saturdays.\n',
};

const dataDir = tempDir('mailroom-data-');
fs.writeFileSync(path.join(dataDir, 'config.json'), JSON.stringify({ git_init: true }));
test.use({ ownerOptions: { dataDir, vaultFiles: VAULT } });

test('history: an executed inbox batch is listed with its diff; undo (confirmed) puts the files back', async ({ app, owner }) => {
  const ex = await owner.api<{ undo_id: string }>('POST', '/api/inbox/execute', {
    actions: [
      { path: 'inbox/peas.md', action: 'move', destination: 'garden/' },
      { path: 'inbox/owen-swim.md', action: 'merge', destination: 'family/owen.md' },
    ],
  });
  expect(ex.status).toBe(200);
  expect(fs.existsSync(path.join(owner.vaultDir, 'inbox/peas.md'))).toBe(false);

  await app.goto(app.url().split('#')[0] + '#/history');
  const page = app.getByTestId('history-page');
  const top = page.locator('.history-entry').first();
  await expect(top).toHaveAttribute('data-kind', 'inbox');
  await expect(top).toContainText('file 2 inbox items (1 move, 1 merge)');
  await expect(page.locator('.history-entry').last()).toContainText('initial commit of the vault');

  await top.getByRole('button', { name: /file 2 inbox items/ }).click();
  const detail = top.getByTestId('history-detail');
  await expect(detail).toContainText('inbox/peas.md → garden/peas.md');
  await expect(detail.locator('.diff-add')).toContainText(['+Saturday at the Westside pool.']);
  await app.screenshot({ path: test.info().outputPath('history-diff.png'), fullPage: true });

  // Undo asks first; Cancel changes nothing.
  await top.getByRole('button', { name: 'Undo' }).click();
  const confirm = app.getByRole('dialog', { name: 'Confirm undo' });
  await expect(confirm).toContainText('Undo “file 2 inbox items');
  await app.screenshot({ path: test.info().outputPath('history-confirm.png') });
  await confirm.getByRole('button', { name: 'Cancel' }).click();
  await expect(confirm).toBeHidden();
  expect(fs.existsSync(path.join(owner.vaultDir, 'inbox/peas.md'))).toBe(false);

  await top.getByRole('button', { name: 'Undo' }).click();
  await app.getByRole('dialog', { name: 'Confirm undo' }).getByRole('button', { name: 'Undo' }).click();
  await expect(app.getByText('3 files back where they were.')).toBeVisible();
  expect(fs.readFileSync(path.join(owner.vaultDir, 'inbox/peas.md'), 'utf8')).toBe(VAULT['inbox/peas.md']);
  expect(fs.readFileSync(path.join(owner.vaultDir, 'inbox/owen-swim.md'), 'utf8')).toBe(VAULT['inbox/owen-swim.md']);
  expect(fs.readFileSync(path.join(owner.vaultDir, 'family/owen.md'), 'utf8')).toBe(VAULT['family/owen.md']);
  expect(fs.existsSync(path.join(owner.vaultDir, 'garden/peas.md'))).toBe(false);

  // The list now starts with the undo, and the batch says it was undone.
  await expect(page.locator('.history-entry').first()).toHaveAttribute('data-kind', 'undo');
  await expect(page.locator('.history-entry[data-kind="inbox"]').first().locator('.history-noundo')).toHaveText('undone');
  await app.screenshot({ path: test.info().outputPath('history-undone.png'), fullPage: true });
});
