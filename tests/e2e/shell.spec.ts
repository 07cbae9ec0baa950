import { test, expect } from './fixtures';

test('the shell loads with the token, navigates, shows the hub connected and the Claude Desktop snippet', async ({ app, owner }) => {
  // The token came in the URL once and was removed from the address bar.
  expect(new URL(app.url()).searchParams.get('token')).toBeNull();
  await expect(app.getByTestId('connection')).toHaveText('Connected');

  for (const name of ['Sessions', 'Routes', 'Mail', 'Inbox']) {
    await app.getByRole('link', { name: new RegExp(name) }).click();
    await expect(app.getByRole('heading', { level: 1, name })).toBeVisible();
  }

  await app.getByRole('link', { name: /Settings/ }).click();
  const snippet = app.getByTestId('claude-desktop-snippet');
  await expect(snippet).toContainText('"mailroom"');
  await expect(snippet).toContainText('"mcp"');
  await expect(snippet).toContainText(owner.dataDir);
  await expect(app.getByTestId('claude-code-snippet')).toContainText('"type": "stdio"');
});

test('the connection indicator shows reconnecting when the owner goes away', async ({ app, owner }) => {
  await owner.core.hub.stop();
  await expect(app.getByTestId('connection')).toHaveAttribute('data-status', 'reconnecting');
});

test('without the token the page explains how to get in', async ({ page, owner }) => {
  const res = await page.goto(owner.url + '/');
  expect(res?.status()).toBe(401);
  await expect(page.getByText('mailroom status')).toBeVisible();
});

test('alt+number jumps between pages', async ({ app }) => {
  await app.keyboard.press('Alt+5');
  await expect(app.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  await app.keyboard.press('Alt+2');
  await expect(app.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
});
