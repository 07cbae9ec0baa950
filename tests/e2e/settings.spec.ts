import { ImapFlow } from 'imapflow';
import { test, expect } from './fixtures';
import { startTestOwner } from '../helpers/owner';
import { DOVECOT, startDovecot } from '../integration/mail/dovecot';

test.describe('Settings → Mail accounts against a real Dovecot', () => {
  test.skip(!DOVECOT, 'dovecot is not installed (apt-get install dovecot-imapd)');

  test('a wrong password shows the error in words; fixing it syncs', async ({ app }) => {
    const dovecot = await startDovecot('dana', 'good-pass-7');
    try {
      const writer = new ImapFlow({ host: '127.0.0.1', port: dovecot.port, secure: false, auth: { user: 'dana', pass: 'good-pass-7' }, logger: false });
      await writer.connect();
      await writer.append('INBOX', 'From: Eve <eve@remote.example>\r\nTo: dana@acme.test\r\nSubject: Welcome aboard\r\nMessage-ID: <e2e-1@remote.example>\r\nDate: Mon, 03 Mar 2025 10:00:00 +0000\r\n\r\nHello Dana.\r\n');
      await writer.logout();

      await app.goto(app.url().replace(/#.*$/, '') + '#/settings/mail');
      const accounts = app.getByTestId('mail-accounts');
      await expect(accounts.getByTestId('accounts-empty')).toBeVisible();
      await accounts.getByRole('button', { name: 'Add account' }).click();
      const form = app.getByTestId('account-form');
      await form.getByLabel('Email address').fill('dana@acme.test');
      await form.getByLabel('IMAP server').fill('127.0.0.1');
      await form.getByLabel('Port').first().fill(String(dovecot.port));
      await form.getByLabel('Secure connection (TLS, usually port 993)').uncheck();
      await form.getByLabel('User name').first().fill('dana');
      await form.getByLabel('IMAP password').fill('bad-pass');
      await form.getByLabel('Send mail (SMTP)').uncheck();

      // Test connection says what is wrong, in place.
      await form.getByRole('button', { name: 'Test connection' }).click();
      await expect(form.getByTestId('imap-test-result')).toContainText('refused the password');
      await app.screenshot({ path: test.info().outputPath('account-test-wrong-password.png'), fullPage: true });

      // Saved anyway: the list shows the sync error in words and when it tries again.
      await form.getByRole('button', { name: 'Save account' }).click();
      const row = accounts.getByRole('listitem').filter({ hasText: 'dana@acme.test' });
      await expect(row.getByTestId('account-error')).toContainText('refused the password', { timeout: 20_000 });
      await expect(row.getByTestId('account-error')).toContainText(/Next try in \d+ s/);
      await expect(row).toContainText('Sending: not set up');
      await app.screenshot({ path: test.info().outputPath('account-wrong-password.png'), fullPage: true });

      // Fix the password: synced, and the mail is there.
      await row.getByRole('button', { name: 'Edit dana@acme.test' }).click();
      await form.getByLabel('IMAP password').fill('good-pass-7');
      await form.getByRole('button', { name: 'Test connection' }).click();
      await expect(form.getByTestId('imap-test-result')).toContainText('Logged in to 127.0.0.1 as dana; INBOX has 1 message');
      await form.getByRole('button', { name: 'Save account' }).click();
      await expect(row.getByTestId('account-synced')).toBeVisible({ timeout: 20_000 });
      await expect(row.getByTestId('account-error')).toHaveCount(0);
      await app.screenshot({ path: test.info().outputPath('account-synced.png'), fullPage: true });
      // For docs/settings.md, only when asked (never during npm test).
      if (process.env.MAILROOM_SCREENSHOTS) await app.screenshot({ path: 'docs/screenshots/settings-mail.png' });

      await app.getByRole('link', { name: /Mail/ }).first().click();
      await expect(app.getByText('Welcome aboard').first()).toBeVisible();
    } finally {
      await dovecot.stop();
    }
  });
});

test('the other settings: a vault error in place, the address, models in plain words', async ({ app }) => {
  await app.goto(app.url().replace(/#.*$/, '') + '#/settings/vault');
  await app.getByLabel('Vault folder').fill('/no/such/folder');
  await app.getByRole('button', { name: 'Use this folder' }).click();
  await expect(app.getByTestId('vault-result')).toContainText('There is no folder at /no/such/folder');
  await expect(app.getByTestId('address-url')).toContainText('http://127.0.0.1:');
  const models = app.getByTestId('models-panel');
  await expect(models).toContainText('test messages written alongside it');
  await expect(models).toContainText('expect a few points less');
  await expect(models).not.toContainText('AdaGrad');
  await expect(models).not.toContainText('seed regex');
  await models.getByRole('button', { name: 'Read this message' }).click();
  await expect(models.getByTestId('models-try-result')).toContainText('It is');
  await app.screenshot({ path: test.info().outputPath('settings-vault.png') });
  await models.screenshot({ path: test.info().outputPath('settings-models.png') });
});

test('a tab whose owner stopped says so, and reconnects when it is back on the same address', async ({ app, owner }) => {
  const port = owner.http.port;
  const { dataDir, vaultDir } = owner;
  await owner.stop();
  const banner = app.getByTestId('stopped-banner');
  await expect(banner).toContainText('Mailroom stopped', { timeout: 20_000 });
  await expect(banner).toContainText('npm start');
  await expect(banner).toContainText('mailroom open');
  await app.screenshot({ path: test.info().outputPath('owner-stopped.png') });
  const again = await startTestOwner({ dataDir, vaultDir, listenPort: port });
  try {
    await expect(app.getByTestId('connection')).toHaveAttribute('data-status', 'connected', { timeout: 20_000 });
    await expect(banner).toHaveCount(0);
  } finally {
    await again.close();
  }
});

test('switching the vault restarts on it at the same address, with progress, and the page follows', async ({ app, owner }) => {
  const fs = await import('node:fs');
  const path = await import('node:path');
  const { tempDir } = await import('../helpers/owner');
  const next = fs.realpathSync(tempDir('mailroom-e2e-vault-'));
  fs.writeFileSync(path.join(next, 'one.md'), '# One\n');
  fs.writeFileSync(path.join(next, 'two.md'), '# Two\n');
  await app.goto(app.url().replace(/#.*$/, '') + '#/settings/vault');
  await app.getByLabel('Vault folder').fill(next);
  await app.getByRole('button', { name: 'Use this folder' }).click();
  await expect(app.getByTestId('vault-result')).toContainText(`Now using ${next}: 2 notes indexed`, { timeout: 30_000 });
  await expect(app.getByTestId('vault-path')).toHaveText(next);
  await expect(app.getByTestId('connection')).toHaveAttribute('data-status', 'connected');
  expect(app.url()).toContain(owner.url);
  await app.getByTestId('settings-vault').screenshot({ path: test.info().outputPath('vault-switched.png') });
});
