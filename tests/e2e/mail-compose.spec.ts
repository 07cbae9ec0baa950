import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';
import { REPO_ROOT, type TestOwner } from '../helpers/owner';

const MBOX = path.join(REPO_ROOT, 'tests/fixtures/mail/labelled.mbox');

async function importBytes(owner: TestOwner, inbox: string, filename: string, body: Buffer) {
  const r = await fetch(`${owner.url}/api/mail/import?inbox=${inbox}&filename=${encodeURIComponent(filename)}`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body });
  expect(r.status).toBe(200);
}

/** An mbox of `n` unrelated, unread newsletters (each its own thread). */
function newsletters(n: number): Buffer {
  const out: string[] = [];
  for (let i = 0; i < n; i++) {
    out.push(
      `From news${i}@shop.test Mon Nov  2 09:00:00 2026`,
      `From: Shop ${i} <news${i}@shop.test>`,
      'To: support@acme.test',
      `Subject: Weekly offers ${i}`,
      `Message-ID: <news-${i}@shop.test>`,
      `Date: Mon, 2 Nov 2026 ${String(8 + (i % 10)).padStart(2, '0')}:${String(i % 60).padStart(2, '0')}:00 +0000`,
      '',
      `Offer number ${i} of the week.`,
      '',
    );
  }
  return Buffer.from(out.join('\n'));
}

test('mail for real use: triage chips on arrival, keyboard, forward, compose, highlighted search, capped badges', async ({ app, owner, smtp }) => {
  await owner.api('POST', '/api/mail/inboxes', { id: 'support', address: 'support@acme.test', name: 'Acme Support' });
  await owner.api('PATCH', '/api/mail/inboxes/support', { smtp: { host: '127.0.0.1', port: smtp.port, secure: false } });
  await importBytes(owner, 'support', 'labelled.mbox', fs.readFileSync(MBOX));
  // Tall enough that the virtualized thread list renders every one of the fixture's threads.
  await app.setViewportSize({ width: 1280, height: 3200 });
  await app.goto(app.url().split('#')[0] + '#/mail');

  // Triage happened on arrival: intent and urgency chips in the thread list, no button pressed.
  const list = app.getByTestId('thread-list');
  const urgent = list.locator('[data-thread-id]', { hasText: 'Security incident: leaked API key' });
  await expect(urgent.getByTestId('triage-chips')).toBeVisible();
  await expect(urgent.locator('.chip.urgency-high')).toHaveText('high urgency');
  // An outage thread whose latest message says it is back up no longer shouts "high".
  const resolved = list.locator('[data-thread-id]', { hasText: 'URGENT: production is down' });
  await expect(resolved.locator('.chip.urgency-medium')).toHaveText('medium urgency');
  expect(await list.getByTestId('triage-chips').count()).toBeGreaterThan(10);
  await app.screenshot({ path: test.info().outputPath('mail-triage-chips.png') });

  // j / k move through the list and open the thread.
  const rows = list.locator('[data-thread-id]');
  await app.keyboard.press('j');
  await expect(rows.nth(0)).toHaveClass(/active/);
  await expect(app.getByTestId('thread-view')).toBeVisible();
  await app.keyboard.press('j');
  await expect(rows.nth(1)).toHaveClass(/active/);
  await app.keyboard.press('k');
  await expect(rows.nth(0)).toHaveClass(/active/);

  // Open the invoice thread; r puts the cursor in the reply.
  await list.locator('[data-thread-id]', { hasText: 'Invoice INV-2041 for February' }).first().click();
  const view = app.getByTestId('thread-view');
  await expect(view.getByRole('heading', { name: /Invoice INV-2041/ })).toBeVisible();
  await expect(view.getByRole('button', { name: 'Re-triage' }).first()).toBeVisible();
  await app.keyboard.press('r');
  await expect(view.getByLabel('Reply goal')).toBeFocused();
  await view.getByLabel('Reply goal').blur();

  // f forwards the latest message, from the inbox's own address.
  await app.keyboard.press('f');
  const compose = app.getByTestId('compose');
  await expect(compose.getByRole('heading', { name: 'Forward' })).toBeVisible();
  await expect(compose.getByTestId('compose-from')).toContainText('Acme Support <support@acme.test>');
  await expect(compose.getByLabel('Subject')).toHaveValue(/^Fwd: (Re: )?Invoice INV-2041 for February$/);
  await expect(compose.getByLabel('To')).toBeFocused();
  await compose.getByLabel('To').fill('accounting@acme.test');
  await compose.getByLabel('Message').fill('Please pay this one this week.');
  await app.screenshot({ path: test.info().outputPath('mail-forward.png') });
  await compose.getByRole('button', { name: 'Send' }).click();
  await expect(app.getByTestId('mail-note')).toContainText('Forwarded.');
  expect(smtp.received).toHaveLength(1);
  expect(smtp.received[0]).toContain('To: accounting@acme.test');
  expect(smtp.received[0]).toContain('---------- Forwarded message ----------');

  // c composes a new message; Ctrl+Enter sends it; the sent thread opens.
  await app.keyboard.press('c');
  await expect(compose.getByRole('heading', { name: 'New message' })).toBeVisible();
  await compose.getByLabel('To').fill('ops@partner.test, cto@partner.test');
  await compose.getByLabel('Subject').fill('Rollout plan for next week');
  await compose.getByLabel('Message').fill('Hi both,\n\nthe rollout starts Monday at 9:00.\n\nAcme Support');
  await app.screenshot({ path: test.info().outputPath('mail-compose.png') });
  await compose.getByLabel('Message').press('Control+Enter');
  await expect(app.getByTestId('mail-note')).toContainText('Sent.');
  expect(smtp.received).toHaveLength(2);
  expect(smtp.received[1]).toMatch(/To: ops@partner\.test, cto@partner\.test/);
  await expect(view.getByRole('heading', { name: 'Rollout plan for next week' })).toBeVisible();

  // e closes (archives) the open thread.
  await app.keyboard.press('e');
  await expect(app.getByTestId('mail-note')).toContainText('Closed.');
  await expect(view.locator('.chip.status-closed')).toBeVisible();

  // / focuses search; matches are highlighted, never raw [brackets].
  await app.keyboard.press('/');
  const search = app.getByLabel('Search mail');
  await expect(search).toBeFocused();
  await search.fill('invoice');
  await search.press('Enter');
  const snippets = app.getByTestId('mail-snippet');
  await expect(snippets.first()).toBeVisible();
  await expect(snippets.first().locator('mark').first()).toHaveText(/invoice/i);
  for (const t of await snippets.allTextContents()) expect(t).not.toMatch(/\[invoice\]/i);
  await app.screenshot({ path: test.info().outputPath('mail-search.png') });

  // A count past 99 shows as 99+ in the nav and in the inbox list.
  await importBytes(owner, 'support', 'newsletters.mbox', newsletters(120));
  await expect(app.getByTestId('nav-badge-mail')).toHaveText('99+');
  await expect(app.locator('.mail-inbox .badge')).toHaveText('99+');
  await app.screenshot({ path: test.info().outputPath('mail-badges.png') });
});
