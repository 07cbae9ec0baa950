import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';
import { generateMbox } from '../../bench/_scale-gen';
import { tempDir } from '../helpers/owner';

test('the thread list over 1,000+ threads keeps only the rows in view in the DOM and pages in more as it scrolls', async ({ app, owner }) => {
  await owner.api('POST', '/api/mail/inboxes', { id: 'big', address: 'me@acme.example' });
  const file = path.join(tempDir('mailroom-e2e-mbox-'), 'big.mbox');
  const gen = generateMbox(file, 2000);
  const r = await fetch(`${owner.url}/api/mail/import?inbox=big&filename=big.mbox`, { method: 'POST', headers: { authorization: `Bearer ${owner.token}` }, body: fs.readFileSync(file) });
  expect(r.status).toBe(200);
  expect(gen.threads).toBeGreaterThan(1000);
  await app.goto(app.url().split('#')[0] + '#/mail');
  await app.getByRole('tab', { name: 'all' }).click();
  const list = app.getByTestId('thread-list');
  await expect(list).toHaveAttribute('data-total-loaded', '100');
  const rows = list.getByRole('button');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeLessThan(60);
  // Scroll to the end again and again: pages arrive until every thread is loaded, the DOM stays small.
  const box = app.locator('.mail-threads');
  for (let i = 0; i < 40; i++) {
    const loaded = Number(await list.getAttribute('data-total-loaded'));
    if (loaded >= gen.threads) break;
    await box.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(async () => Number(await list.getAttribute('data-total-loaded')), { timeout: 10_000 }).toBeGreaterThan(loaded);
  }
  await expect(list).toHaveAttribute('data-total-loaded', String(gen.threads));
  await box.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  expect(await rows.count()).toBeLessThan(60);
  // The oldest thread (last in the list) is rendered at the bottom and opens.
  const last = rows.last();
  await expect(last).toBeVisible();
  await last.click();
  await expect(app.getByTestId('thread-view')).toBeVisible();
});
