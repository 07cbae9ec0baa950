import { test, expect } from './fixtures';

// One folder of 1,200 notes, every one mentioning "lantern" (so a search has as many hits).
const N = 1200;
const files: Record<string, string> = {};
for (let i = 0; i < N; i++) {
  const n = String(i).padStart(4, '0');
  files[`archive/log-${n}.md`] = `# Log ${n}\n\nChecked the lantern on shelf ${i % 37} and wrote entry ${n}.\n`;
}
files['projects/plan.md'] = '# Plan\n\nNothing about lamps here.\n';

test.use({ ownerOptions: { vaultFiles: files } });

test('the Vault page lists a 1,200-note folder and its search hits with only the rows in view in the DOM, paging in more as it scrolls', async ({ app }) => {
  await app.goto(app.url().split('#')[0] + '#/vault?folder=archive');
  const page = app.getByTestId('vault-page');
  const list = page.getByRole('list', { name: 'Notes' });
  await expect(list).toHaveAttribute('data-total-loaded', '200');
  await expect(page.getByText(`200 of ${N.toLocaleString()} notes loaded`)).toBeVisible();
  const rows = list.locator('li');
  await expect(rows.first()).toBeVisible();
  expect(await rows.count()).toBeLessThan(60);
  await app.screenshot({ path: test.info().outputPath('vault-big-folder.png') });

  // Scroll to the end again and again: pages arrive until every note is loaded; the DOM stays small.
  const box = page.locator('.vault-scroll');
  for (let i = 0; i < 20; i++) {
    const loaded = Number(await list.getAttribute('data-total-loaded'));
    if (loaded >= N) break;
    await box.evaluate((el) => el.scrollTo(0, el.scrollHeight));
    await expect.poll(async () => Number(await list.getAttribute('data-total-loaded')), { timeout: 10_000 }).toBeGreaterThan(loaded);
  }
  await expect(list).toHaveAttribute('data-total-loaded', String(N));
  await expect(page.getByText(`${N.toLocaleString()} notes`, { exact: true })).toBeVisible();
  await box.evaluate((el) => el.scrollTo(0, el.scrollHeight));
  expect(await rows.count()).toBeLessThan(60);
  // The last note is rendered at the bottom and opens.
  const last = rows.last();
  await expect(last).toContainText(`log-${String(N - 1).padStart(4, '0')}.md`);
  await last.getByRole('link').click();
  await expect(page.getByTestId('note-view')).toHaveAttribute('data-path', `archive/log-${String(N - 1).padStart(4, '0')}.md`);

  // Search: the first 50 hits, more as the list scrolls, keyboard navigation past the rendered rows.
  const search = page.getByLabel('Search the vault');
  await search.fill('lantern');
  const hits = page.getByRole('list', { name: 'Search results' });
  await expect(hits).toHaveAttribute('data-total-loaded', '50');
  await expect(page.getByText('50+ results — scroll for more')).toBeVisible();
  await page.locator('.vault-scroll').evaluate((el) => el.scrollTo(0, el.scrollHeight));
  await expect.poll(async () => Number(await hits.getAttribute('data-total-loaded')), { timeout: 10_000 }).toBeGreaterThan(50);
  expect(await hits.locator('li').count()).toBeLessThan(40);
  // Escape leaves the search box and keeps the results (j/k move through them).
  await search.press('Escape');
  await expect(search).toHaveValue('lantern');
  await page.locator('.vault-scroll').evaluate((el) => el.scrollTo(0, 0));
  for (let i = 0; i < 30; i++) await app.keyboard.press('j');
  await expect(hits).toHaveAttribute('data-cursor', '30');
  const current = hits.locator('li[data-current="true"]');
  await expect(current).toBeVisible();
  await expect(current).toBeInViewport();
  await app.screenshot({ path: test.info().outputPath('vault-big-search.png') });
});
