import path from 'node:path';
import { test, expect } from './fixtures';
import { REPO_ROOT } from '../helpers/owner';

const MBOX = path.join(REPO_ROOT, 'tests/fixtures/mail/labelled.mbox');

test('import an mbox, open a thread, draft, approve and send', async ({ app, owner, smtp }) => {
  await owner.api('POST', '/api/mail/inboxes', { id: 'support', address: 'support@acme.test', name: 'Acme Support' });
  await owner.api('PATCH', '/api/mail/inboxes/support', { smtp: { host: '127.0.0.1', port: smtp.port, secure: false } });
  await app.goto(app.url().split('#')[0] + '#/mail');

  // Import through the page's drop zone (file input), and watch it land.
  await app.getByTestId('mail-file').setInputFiles(MBOX);
  await expect(app.getByTestId('mail-note')).toContainText('Imported 44 of 44 messages');
  await expect(app.locator('.mail-inbox .badge')).toHaveText(/\d+/);
  await expect(app.getByTestId('thread-list')).toHaveAttribute('data-total-loaded', '20'); // a virtual list: only rows in view are in the DOM

  // Open a thread: sanitised HTML renders in a sandboxed frame, remote content is blocked.
  await app.getByTestId('thread-list').getByRole('button', { name: /Demo request/ }).click();
  const view = app.getByTestId('thread-view');
  await expect(view.getByRole('heading', { name: 'Demo request' })).toBeVisible();
  await expect(view.locator('iframe.mail-html').first()).toHaveAttribute('sandbox', 'allow-same-origin');
  await expect(view.getByText('Remote images and tracking pixels in this message were blocked.')).toBeVisible();
  await view.getByRole('button', { name: 'Triage' }).first().click();
  await expect(view.locator('.mail-message').first().locator('.chip', { hasText: /^sales$/ })).toBeVisible();
  // A person corrects the urgency; the correction is stored (and used for similar mail later).
  await view.locator('.mail-message').first().getByLabel('Relabel urgency').selectOption('high');
  await expect(view.locator('.mail-message').first().locator('.chip', { hasText: 'high urgency' })).toBeVisible();
  await expect(view.locator('.mail-message').first().getByTestId('mail-relabel')).toContainText('corrected');

  // Draft under the default policy: risk flags show, then Approve & Send.
  await view.getByLabel('Reply goal').fill('confirm the demo on Tuesday at 3pm');
  await view.getByRole('button', { name: 'Draft reply' }).click();
  await expect(view.getByLabel('Risk flags')).toContainText('goes outside your organisation');
  await expect(view.getByLabel('Draft text')).toHaveValue(/Hi Dan,[\s\S]*Best regards/);
  await view.getByRole('button', { name: 'Approve & Send' }).scrollIntoViewIfNeeded();
  await app.screenshot({ path: test.info().outputPath('mail-draft.png') });
  await view.getByRole('button', { name: 'Approve & Send' }).click();
  await expect(app.getByTestId('mail-note')).toContainText('Reply sent.');
  expect(smtp.received).toHaveLength(1);
  expect(smtp.received[0]).toContain('In-Reply-To: <html3@fixture.acme.test>');
  await expect(view.locator('.mail-message.outbound')).toHaveCount(2);
  await app.screenshot({ path: test.info().outputPath('mail-sent.png') });
});

test('importing twice in a row brings the file picker back each time, even when progress events arrive after the reply', async ({ app, owner }) => {
  const fs = await import('node:fs');
  const { tempDir } = await import('../helpers/owner');
  await owner.api('POST', '/api/mail/inboxes', { id: 'support', address: 'support@acme.test', name: 'Acme Support' });
  const session = (await owner.api<{ id: string }>('POST', '/api/sessions', { name: 'sentinel', working_dir: tempDir('mailroom-wd-') })).body;

  // Hub progress frames and the HTTP reply travel on different connections. Hold the progress
  // frames until the reply has been handled, as a slow hub socket would, then deliver them.
  let hold = false;
  const held: Array<string | Buffer> = [];
  let page!: import('@playwright/test').WebSocketRoute;
  await app.routeWebSocket(/\/hubs\//, (ws) => {
    page = ws;
    const server = ws.connectToServer();
    server.onMessage((m) => {
      if (hold && String(m).includes('MailImportProgress')) held.push(m);
      else ws.send(m);
    });
  });
  await app.goto(app.url().split('#')[0] + '#/mail');
  await app.reload(); // reconnect the hub through the route above
  await expect(app.getByTestId('connection')).toHaveAttribute('data-status', 'connected');

  const dir = tempDir('mail-e2e-');
  const files = [MBOX, path.join(dir, 'one.eml')];
  fs.writeFileSync(files[1], 'From: Zoe <zoe@example.org>\r\nTo: support@acme.test\r\nSubject: Second import\r\nMessage-ID: <second@example.org>\r\nDate: Tue, 04 Mar 2025 10:00:00 +0000\r\n\r\nHello again.\r\n');
  const expected = ['Imported 44 of 44 messages', 'Imported 1 of 1 messages'];
  for (const [i, file] of files.entries()) {
    hold = true;
    await app.getByTestId('mail-file').setInputFiles(file);
    await expect(app.getByTestId('mail-note')).toContainText(expected[i]);
    await expect(app.getByTestId('mail-file')).toBeVisible();
    expect(held.length).toBeGreaterThan(0);

    // Now the late progress frames arrive, followed by a sentinel event (a session message → badge)
    // that proves the page has processed them: frames on one socket are handled in order.
    hold = false;
    for (const m of held.splice(0)) page.send(m);
    await owner.api('POST', `/api/sessions/${session.id}/messages`, { body: `sentinel ${i}` });
    await expect(app.getByTestId('nav-badge-sessions')).toHaveText(String(i + 1));

    await expect(app.getByRole('progressbar')).toHaveCount(0);
    await expect(app.getByTestId('mail-file')).toBeVisible();
  }
});
