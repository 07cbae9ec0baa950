import { test, expect } from './fixtures';

const VAULT: Record<string, string> = {
  'projects/atlas.md': '# Atlas\n\nThe Atlas project ships in March.\n',
  'inbox/atlas-budget.md': '# Atlas budget\n\nCheck the [[atlas]] budget for the Atlas project.\n',
};

test.use({ ownerOptions: { vaultFiles: VAULT } });

test('command palette: Ctrl+K, fuzzy match, keyboard, pages and actions, Esc closes', async ({ app, owner }) => {
  const palette = app.getByRole('dialog', { name: 'Command palette' });
  await app.keyboard.press('Control+k');
  await expect(palette).toBeVisible();
  const input = palette.getByLabel('Command');
  await expect(input).toBeFocused();
  await app.screenshot({ path: test.info().outputPath('palette-open.png') });

  // Fuzzy: "hst" finds History; Enter goes there.
  await input.fill('hst');
  await expect(palette.getByRole('option').first()).toHaveText(/Go to History/);
  await app.keyboard.press('Enter');
  await expect(palette).toBeHidden();
  await expect(app.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();

  // Esc closes without doing anything.
  await app.keyboard.press('Control+k');
  await input.fill('settings');
  await app.keyboard.press('Escape');
  await expect(palette).toBeHidden();
  await expect(app.getByRole('heading', { level: 1, name: 'History' })).toBeVisible();

  // Typed text: search the vault for it (↓ moves the selection).
  await app.keyboard.press('Control+k');
  await input.fill('atlas project');
  const options = palette.getByRole('option');
  const search = options.filter({ hasText: 'Search the vault for “atlas project”' });
  await expect(search).toBeVisible();
  const idx = await options.evaluateAll((els) => els.findIndex((e) => e.textContent?.includes('Search the vault')));
  for (let i = 0; i < idx; i++) await app.keyboard.press('ArrowDown');
  await expect(search).toHaveAttribute('aria-selected', 'true');
  await app.screenshot({ path: test.info().outputPath('palette-search.png') });
  await app.keyboard.press('Enter');
  await expect(app.getByRole('heading', { level: 1, name: 'Vault' })).toBeVisible();
  await expect(app.getByLabel('Search the vault')).toHaveValue('atlas project');
  await expect(app.getByRole('list', { name: 'Search results' }).locator('li')).toHaveCount(2);

  // Accept all above threshold runs on the Inbox page.
  await app.keyboard.press('Control+k');
  await input.fill('accept all');
  await app.keyboard.press('Enter');
  await expect(app.getByTestId('inbox-page')).toBeVisible();
  const listed = (await owner.api<{ items: Array<{ confidence: number; suggested_action: string }>; threshold: number }>('GET', '/api/inbox')).body;
  const above = listed.items.filter((i) => i.confidence >= listed.threshold && i.suggested_action !== 'keep').length;
  expect(above).toBeGreaterThan(0);
  await expect(app.locator('.inbox-decided')).toHaveCount(above);

  // Capture the typed text to the inbox.
  await app.keyboard.press('Control+k');
  await input.fill('Buy stamps for the Atlas invitations');
  await palette.getByRole('option', { name: /Capture “Buy stamps/ }).click();
  await expect(app.getByText('Captured to the inbox')).toBeVisible();
  await expect.poll(async () => (await owner.api<{ items: Array<{ title: string }> }>('GET', '/api/inbox')).body.items.some((i) => /stamps/i.test(i.title))).toBe(true);
  await expect(palette).toBeHidden();
});
