import fs from 'node:fs';
import { test, expect } from './fixtures';
import { callTool, tempDir } from '../helpers/owner';
import type { SessionDto } from '../../shared/contract/sessions';

test('typing to a session shows the unread badge live; check_inbox over MCP clears it and the timeline says delivered', async ({ app, owner }) => {
  const t = (await owner.api<SessionDto>('POST', '/api/sessions', { name: 'backend', working_dir: tempDir('mailroom-wd-') })).body;
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

  const client = await owner.mcp({ sessionId: t.id });
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
  const t = (await owner.api<SessionDto>('POST', '/api/sessions', { name: 'frontend', working_dir: tempDir('mailroom-wd-') })).body;
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
  const t = (await owner.api<SessionDto>('POST', '/api/sessions', { name: 'xss', working_dir: tempDir('mailroom-wd-') })).body;
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

// ---- The timeline's scroll effect must never blank the app (`destroy_ is not a function`). ----
// Each path below re-runs or unmounts the Timeline effect once a session has one message.

/** Collects uncaught page errors; the app must have none. */
function watchErrors(page: import('@playwright/test').Page): string[] {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  return errors;
}

async function sessionWithOneMessage(owner: import('../helpers/owner').TestOwner, name: string) {
  const t = (await owner.api<SessionDto>('POST', '/api/sessions', { name, working_dir: tempDir('mailroom-wd-') })).body;
  await owner.api('POST', `/api/sessions/${t.id}/messages`, { body: `first for ${name}` });
  return t;
}

test('timeline: a second message sent from the composer keeps the app on screen', async ({ app, owner }) => {
  const errors = watchErrors(app);
  await sessionWithOneMessage(owner, 'second-send');
  await app.getByRole('link', { name: /Sessions/ }).click();
  await expect(app.getByTestId('timeline-message')).toHaveCount(1);
  await app.getByTestId('composer').fill('the second one');
  await app.getByTestId('composer').press('Enter');
  await expect(app.getByTestId('timeline-message')).toHaveCount(2);
  await expect(app.getByTestId('timeline-message').nth(1)).toContainText('the second one');
  await expect(app.getByRole('navigation', { name: 'Main' })).toBeVisible();
  await expect(app.getByTestId('page-error')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('timeline: switching to another session keeps the app on screen', async ({ app, owner }) => {
  const errors = watchErrors(app);
  const a = await sessionWithOneMessage(owner, 'alpha');
  const b = await sessionWithOneMessage(owner, 'beta');
  await app.getByRole('link', { name: /Sessions/ }).click();
  await app.getByTestId(`session-item-${a.id}`).click();
  await expect(app.getByTestId('timeline-message')).toContainText('first for alpha');
  await app.getByTestId(`session-item-${b.id}`).click();
  await expect(app.getByRole('heading', { level: 2, name: 'beta' })).toBeVisible();
  await expect(app.getByTestId('timeline-message')).toContainText('first for beta');
  await expect(app.getByTestId('page-error')).toHaveCount(0);
  expect(errors).toEqual([]);
});

test('timeline: leaving the Sessions page keeps the app on screen', async ({ app, owner }) => {
  const errors = watchErrors(app);
  await sessionWithOneMessage(owner, 'leaver');
  await app.getByRole('link', { name: /Sessions/ }).click();
  await expect(app.getByTestId('timeline-message')).toHaveCount(1);
  await app.getByRole('link', { name: /Routes/ }).click();
  await expect(app.getByRole('heading', { level: 1, name: /Routes/ })).toBeVisible();
  await expect(app.getByRole('navigation', { name: 'Main' })).toBeVisible();
  expect(errors).toEqual([]);
});

test('timeline: a message arriving live over the hub keeps the app on screen', async ({ app, owner }) => {
  const errors = watchErrors(app);
  const t = await sessionWithOneMessage(owner, 'live');
  await app.getByRole('link', { name: /Sessions/ }).click();
  await expect(app.getByTestId('timeline-message')).toHaveCount(1);
  await owner.api('POST', `/api/sessions/${t.id}/messages`, { body: 'arrived while you watched' });
  await expect(app.getByTestId('timeline-message')).toHaveCount(2);
  await expect(app.getByTestId('timeline-message').nth(1)).toContainText('arrived while you watched');
  await expect(app.getByTestId('page-error')).toHaveCount(0);
  fs.mkdirSync('test-results/screens', { recursive: true });
  await app.screenshot({ path: 'test-results/screens/sessions-after-fix.png' });
  expect(errors).toEqual([]);
});

test('one page throwing shows an in-place error card; the nav and the other pages keep working', async ({ app }) => {
  // A server reply of the wrong shape makes the Sessions page throw while rendering.
  await app.route('**/api/sessions', (route) => route.fulfill({ status: 200, contentType: 'application/json', body: '{"oops":true}' }));
  await app.getByRole('link', { name: /Sessions/ }).click();
  const card = app.getByTestId('page-error');
  await expect(card).toBeVisible();
  await expect(card).toContainText('This page hit an error');
  await expect(app.getByTestId('page-error-message')).toContainText('is not a function');
  await expect(card.getByRole('button', { name: 'Reload page' })).toBeVisible();
  fs.mkdirSync('test-results/screens', { recursive: true });
  await app.screenshot({ path: 'test-results/screens/page-error-card.png' });

  // The rest of the app is alive: the nav moves to another page that renders.
  await app.getByRole('link', { name: /Inbox/ }).click();
  await expect(app.getByRole('heading', { level: 1, name: /Inbox/ })).toBeVisible();
  await expect(card).toHaveCount(0);

  // Once the server answers properly, "Reload page" brings the page back in place.
  await app.getByRole('link', { name: /Sessions/ }).click();
  await expect(card).toBeVisible();
  await app.unroute('**/api/sessions');
  await card.getByRole('button', { name: 'Reload page' }).click();
  await expect(app.getByRole('heading', { level: 1, name: 'Sessions' })).toBeVisible();
  await expect(card).toHaveCount(0);
});
