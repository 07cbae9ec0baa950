import path from 'node:path';
import { test, expect } from './fixtures';
import { REPO_ROOT } from '../helpers/owner';

const TEST_SERVER = path.join(REPO_ROOT, 'tests', 'fixtures', 'mcp-test-server.mjs');

test.use({ ownerOptions: { vaultFiles: { 'inbox/call-dana.md': '---\ntags: [todo]\n---\n# Call Dana about the swim meet\n\nOwen has a meet on Friday.\n' } } });

test('add an adapter, test it, create a route, preview, route an inbox note, see it in history', async ({ app, owner }) => {
  await app.goto(app.url().split('#')[0] + '#/routes');
  await app.getByRole('tab', { name: /Adapters/ }).click();

  // Add an adapter: one program, arguments one per row, a secret env value.
  await app.getByRole('button', { name: 'Add adapter' }).click();
  const form = app.getByRole('form', { name: 'New adapter' });
  await form.getByLabel('Name').fill('Test notes server');
  await form.getByLabel('Command').fill(process.execPath);
  await form.getByRole('button', { name: '+ Add argument' }).click();
  await form.getByLabel('Argument 1', { exact: true }).fill(TEST_SERVER);
  await form.getByRole('button', { name: '+ Add variable' }).click();
  await form.getByLabel('Key').fill('API_TOKEN');
  await form.getByLabel('Value of API_TOKEN').fill('sk-e2e-secret-value');
  await form.getByRole('button', { name: 'Add adapter' }).click();

  const card = app.getByTestId('adapter-card').filter({ hasText: 'Test notes server' });
  await expect(card.getByTestId('adapter-status')).toHaveAttribute('data-state', 'idle');
  await expect(card).toContainText('API_TOKEN=••••••••');
  await expect(card).not.toContainText('sk-e2e-secret-value');

  // Test connection lists the server's tools; the status turns live (hub event) to running with a pid.
  await card.getByRole('button', { name: 'Test connection' }).click();
  await expect(card.getByTestId('test-result')).toContainText('create_note');
  await expect(card.getByTestId('adapter-status')).toHaveAttribute('data-state', 'running');
  await expect(card.getByTestId('adapter-status')).toContainText(/pid \d+/);
  await app.screenshot({ path: test.info().outputPath('routes-adapters.png'), fullPage: true });

  // Create a route: todos → create_note, with a mapping beside the tool's schema.
  await app.getByRole('tab', { name: /Routes/ }).click();
  await app.getByRole('button', { name: 'New route' }).click();
  const editor = app.getByRole('form', { name: 'New route' });
  await editor.getByLabel('Name').fill('Todos → notes');
  await editor.getByRole('button', { name: '+ Add test' }).click();
  await editor.getByLabel('Value').fill('todo');
  await editor.getByLabel('Tool').selectOption('create_note');
  await expect(editor.getByTestId('tool-schema')).toContainText('"priority"');
  await editor.getByLabel('Mapping template').fill(JSON.stringify({ title: '{{ title }}', content: '{{ content }}', tags: '{{ tags }}', meta: { priority: 'urgent' } }, null, 2));

  // Preview with the sample item shows the arguments and the validation error…
  await editor.getByRole('button', { name: 'Preview' }).click();
  await expect(editor.getByTestId('validation-errors')).toContainText('/meta/priority: must be one of low, normal, high');
  // …fixed, the preview of the real inbox note is valid.
  await editor.getByLabel('Mapping template').fill(JSON.stringify({ title: '{{ title }}', content: '{{ content }}', tags: '{{ tags }}', meta: { priority: 'high' } }, null, 2));
  await editor.getByLabel('Inbox note').check();
  await editor.getByLabel('Note path').fill('inbox/call-dana.md');
  await editor.getByRole('button', { name: 'Preview' }).click();
  await expect(editor.getByTestId('preview')).toContainText("Valid against the tool's schema.");
  await expect(editor.getByTestId('preview-args')).toContainText('"title": "Call Dana about the swim meet"');
  await app.setViewportSize({ width: 1280, height: 1900 });
  await editor.getByRole('heading', { name: 'New route' }).scrollIntoViewIfNeeded();
  await app.screenshot({ path: test.info().outputPath('routes-editor.png') });
  await app.setViewportSize({ width: 1280, height: 820 });

  // Route the inbox note for real (after confirming), then see it in the history.
  app.once('dialog', (d) => void d.accept());
  await editor.getByRole('button', { name: 'Test (sends for real)' }).click();
  await expect(editor.getByTestId('route-test-result')).toContainText('Sent.');
  await editor.getByRole('button', { name: 'Save route' }).click();

  const route = app.getByTestId('route-card').filter({ hasText: 'Todos → notes' });
  await expect(route).toContainText('When tags equals "todo"');
  const history = app.getByTestId('history');
  await expect(history.getByTestId('history-row').first()).toContainText('Call Dana about the swim meet');
  await expect(history.getByTestId('history-row').first()).toContainText('ok');
  await history.getByTestId('history-row').first().click();
  await expect(history).toContainText('"priority": "high"');
  await app.screenshot({ path: test.info().outputPath('routes-history.png'), fullPage: true });

  // What the UI showed is what the server stored.
  const rows = await owner.api<Array<{ status: string; item_key: string }>>('GET', '/api/distributions');
  expect(rows.body[0]).toMatchObject({ status: 'ok', item_key: 'inbox/call-dana.md' });
});

test.describe('Route to… on the Inbox page', () => {
  test.use({ ownerOptions: { vaultFiles: { 'inbox/2026-11-20-call-notes.md': '# Call notes\n\nCall with Priya about the Q1 plan.\n' } } });

  test('each inbox item offers Route to…, and says when no route matches', async ({ app }) => {
    await app.goto(app.url().split('#')[0] + '#/inbox');
    const routeTo = app.getByTestId('route-to').first();
    await expect(routeTo).toContainText('No route matches.');
    await routeTo.getByRole('button', { name: 'Route to…' }).click();
    await expect(routeTo.getByRole('button', { name: 'Cancel' })).toBeVisible();
  });
});

test('the adapter editor locks secret arguments and env values; they stay masked and round-trip through Edit → Save', async ({ app, owner }) => {
  const crypto = await import('node:crypto');
  const sha = (x: string) => crypto.createHash('sha256').update(x).digest('hex');
  const FLAG_SECRET = 'tok-e2e-flag-NOLEAK';
  const HAND_SECRET = 'hand-e2e-arg-NOLEAK';
  await app.goto(app.url().split('#')[0] + '#/routes');
  await app.getByRole('tab', { name: /Adapters/ }).click();
  await app.getByRole('button', { name: 'Add adapter' }).click();
  const form = app.getByRole('form', { name: 'New adapter' });
  await form.getByLabel('Name').fill('Locked args');
  await form.getByLabel('Command').fill(process.execPath);
  for (const [i, v] of [TEST_SERVER, '--token', FLAG_SECRET, HAND_SECRET].entries()) {
    await form.getByRole('button', { name: '+ Add argument' }).click();
    await form.getByLabel(`Argument ${i + 1}`, { exact: true }).fill(v);
  }
  // The value after --token locked itself; the last one is locked by hand.
  await expect(form.getByRole('button', { name: 'Secret: argument 3' })).toHaveAttribute('aria-pressed', 'true');
  await expect(form.getByRole('button', { name: 'Secret: argument 4' })).toHaveAttribute('aria-pressed', 'false');
  await form.getByRole('button', { name: 'Secret: argument 4' }).click();
  await expect(form.getByLabel('Argument 4', { exact: true })).toHaveAttribute('type', 'password');
  await form.getByRole('button', { name: '+ Add variable' }).click();
  await form.getByLabel('Key').fill('DB_PASS');
  await form.getByLabel('Value of DB_PASS').fill('dbpass-e2e-NOLEAK');
  await expect(form.getByRole('button', { name: 'Secret: DB_PASS' })).toHaveAttribute('aria-pressed', 'true');
  await form.getByRole('button', { name: 'Add adapter' }).click();

  const card = app.getByTestId('adapter-card').filter({ hasText: 'Locked args' });
  await expect(card).toContainText('--token ••••••••');
  await expect(card).toContainText('DB_PASS=••••••••');
  await expect(app.locator('body')).not.toContainText('NOLEAK');

  // Edit → Save without touching anything keeps the stored values.
  await card.getByRole('button', { name: 'Edit' }).click();
  const edit = app.getByRole('form', { name: 'Edit Locked args' });
  await expect(edit.getByRole('button', { name: 'Secret: argument 4' })).toHaveAttribute('aria-pressed', 'true');
  await expect(edit.getByLabel('Argument 4', { exact: true })).toHaveValue('••••••••');
  await edit.getByRole('button', { name: 'Save' }).click();
  await expect(edit).toHaveCount(0);

  const list = await owner.api<Array<{ id: string; name: string; args: string[]; arg_secrets: boolean[] }>>('GET', '/api/mcp-adapters');
  const a = list.body.find((x) => x.name === 'Locked args')!;
  expect(a.arg_secrets).toEqual([false, false, true, true]);
  expect(JSON.stringify(list.body)).not.toContain('NOLEAK');
  const route = await owner.api<{ id: string }>('POST', '/api/routes', { name: 'digest', adapter_id: a.id, tool: 'argv_digest' });
  const r = await owner.api<{ result: { digests: string[] } }>('POST', `/api/routes/${route.body.id}/test`, { item: { title: 'x' }, confirm: true });
  expect(r.body.result.digests).toEqual(['--token', FLAG_SECRET, HAND_SECRET].map(sha));
});
