import fs from 'node:fs';
import { test, expect } from './fixtures';
import { callTool, tempDir } from '../helpers/owner';
import type { TaskDto } from '../../shared/mailbox';

test('typing to a session shows the unread badge live; check_inbox over MCP clears it and the timeline says delivered', async ({ app, owner }) => {
  const t = (await owner.api<TaskDto>('POST', '/api/sessions', { name: 'backend', working_dir: tempDir('mailroom-wd-') })).body;
  await app.getByRole('link', { name: /Sessions/ }).click();
  await expect(app.getByTestId(`session-item-${t.id}`)).toBeVisible();
  await expect(app.getByTestId(`session-badge-${t.id}`)).toHaveCount(0);

  const box = app.getByTestId('composer');
  await box.fill('Please **rebase** on main');
  await box.press('Shift+Enter');
  await box.pressSequentially('then run the tests');
  await expect(box).toHaveValue('Please **rebase** on main\nthen run the tests');
  await box.press('Enter');
  await expect(box).toHaveValue('');

  await expect(app.getByTestId(`session-badge-${t.id}`)).toHaveText('1');
  await expect(app.getByTestId('nav-badge-sessions')).toHaveText('1');
  const msg = app.getByTestId('timeline-message');
  await expect(msg).toHaveCount(1);
  await expect(msg.locator('strong', { hasText: 'rebase' })).toBeVisible(); // rendered markdown
  await expect(msg).toContainText('waiting');

  const client = await owner.mcp({ taskId: t.id });
  const inbox = await callTool<{ messages: Array<{ body: string }> }>(client, 'check_inbox');
  expect(inbox.messages.map((m) => m.body)).toEqual(['Please **rebase** on main\nthen run the tests']);

  await expect(app.getByTestId(`session-badge-${t.id}`)).toHaveCount(0);
  await expect(app.getByTestId('nav-badge-sessions')).toHaveCount(0);
  await expect(msg).toHaveAttribute('data-delivered', 'true');
  await expect(msg).toContainText('delivered');
  // The session showed signs of life: it is running now.
  await expect(app.getByTestId(`session-item-${t.id}`).locator('[data-status]')).toHaveAttribute('data-status', 'running');
});

test('a high-priority message from the UI, and the draft survives navigating away', async ({ app, owner }) => {
  const t = (await owner.api<TaskDto>('POST', '/api/sessions', { name: 'frontend', working_dir: tempDir('mailroom-wd-') })).body;
  await app.getByRole('link', { name: /Sessions/ }).click();
  const box = app.getByTestId('composer');
  await box.fill('half-written thought');
  await app.getByRole('link', { name: /Inbox/ }).click();
  await app.getByRole('link', { name: /Sessions/ }).click();
  await expect(app.getByTestId('composer')).toHaveValue('half-written thought');

  await app.getByLabel('High priority').check();
  await app.getByTestId('composer').press('Enter');
  await expect(app.getByTestId('timeline-message')).toContainText('high priority');
  const timeline = (await owner.api<Array<{ priority: string; sender: string }>>('GET', `/api/sessions/${t.id}/messages`)).body;
  expect(timeline).toEqual([expect.objectContaining({ priority: 'high', sender: 'user' })]);
});

test('raw HTML in a message is shown as text, never run', async ({ app, owner }) => {
  const t = (await owner.api<TaskDto>('POST', '/api/sessions', { name: 'xss', working_dir: tempDir('mailroom-wd-') })).body;
  await owner.api('POST', `/api/sessions/${t.id}/messages`, { body: '<img src=x onerror="window.__pwned=1"> [link](javascript:alert(1))' });
  await app.getByRole('link', { name: /Sessions/ }).click();
  const msg = app.getByTestId('timeline-message');
  await expect(msg).toContainText('<img src=x');
  await expect(msg.locator('img')).toHaveCount(0);
  await expect(msg.locator('a')).not.toHaveAttribute('href', /javascript/);
  expect(await app.evaluate(() => (globalThis as { __pwned?: number }).__pwned)).toBeUndefined();
});

test('New session creates it from the form and installs the mailbox into the folder', async ({ app }) => {
  const dir = tempDir('mailroom-wd-');
  await app.getByRole('link', { name: /Sessions/ }).click();
  await app.getByRole('button', { name: 'New session' }).first().click();
  await app.getByPlaceholder('backend').fill('docs');
  await app.getByPlaceholder('/home/me/code/project').fill(dir);
  await app.getByRole('button', { name: 'Create session' }).click();
  await expect(app.getByRole('heading', { level: 2, name: 'docs' })).toBeVisible();
  expect(fs.readFileSync(`${dir}/CLAUDE.md`, 'utf8')).toContain('mailroom:mailbox:start');
});
