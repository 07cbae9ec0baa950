import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';

test.use({ ownerOptions: { demo: true } });

interface Listed {
  items: Array<{ path: string; suggested_action: string; destination: string | null; confidence: number }>;
}

test('review the demo inbox by keyboard, execute, undo, and capture by drag-and-drop', async ({ app, owner }) => {
  const listed = (await owner.api<Listed>('GET', '/api/inbox')).body.items;
  expect(listed.length).toBeGreaterThanOrEqual(4);
  await app.goto(app.url().split('#')[0] + '#/inbox');
  const page = app.getByTestId('inbox-page');
  const cards = page.locator('.inbox-item');
  await expect(cards).toHaveCount(listed.length);
  await expect(page.getByText('x execute accepted', { exact: false })).toBeVisible();
  await app.screenshot({ path: test.info().outputPath('inbox.png'), fullPage: false });

  // The first item: edit its destination (folder autocomplete from the vault), then accept the rest by keyboard.
  const first = listed[0];
  await app.keyboard.press('e');
  const input = page.getByLabel('Destination folder');
  await expect(input).toBeFocused();
  expect(await app.locator('#inbox-folders option[value="family/kids/owen/"]').count()).toBe(1);
  await input.fill('family/kids/owen/');
  await input.press('Enter');
  await expect(cards.nth(0).locator('.inbox-decided')).toContainText('move → family/kids/owen/');
  await app.keyboard.press('j');
  for (let i = 1; i < listed.length; i++) {
    await expect(cards.nth(i)).toHaveAttribute('data-current', 'true');
    // a / d decide and move on to the next item.
    await app.keyboard.press(listed[i].suggested_action === 'keep' && !listed[i].destination ? 'd' : 'a');
  }
  await app.keyboard.press('k');
  await expect(cards.nth(listed.length - 2)).toHaveAttribute('data-current', 'true');
  await expect(page.locator('.inbox-decided')).toHaveCount(listed.length);
  await app.screenshot({ path: test.info().outputPath('inbox-accepted.png') });
  await app.keyboard.press('x');

  await expect(page.getByText('Inbox zero')).toBeVisible();
  const inboxDir = path.join(owner.vaultDir, 'inbox');
  expect(fs.readdirSync(inboxDir).filter((f) => f.endsWith('.md'))).toEqual([]);
  const movedName = path.basename(first.destination ?? first.path);
  expect(fs.existsSync(path.join(owner.vaultDir, 'family/kids/owen', movedName))).toBe(true);

  // Undo from the toast brings every item back.
  await app.getByRole('button', { name: 'Undo' }).click();
  await expect(cards).toHaveCount(listed.length);
  expect(fs.readdirSync(inboxDir).filter((f) => f.endsWith('.md')).length).toBe(listed.length);

  // Drag-and-drop a file onto the window: it lands in the inbox and shows up, analyzed.
  const dt = await app.evaluateHandle(() => {
    // Runs in the page; typed loosely because the tests compile without the DOM library.
    const w = globalThis as unknown as {
      DataTransfer: new () => { items: { add(f: unknown): void } };
      File: new (parts: string[], name: string, opts: { type: string }) => unknown;
    };
    const d = new w.DataTransfer();
    d.items.add(new w.File(['# Ideas for Owen\n\nSign my son up for the spring swim camp.\n'], 'owen-ideas.md', { type: 'text/markdown' }));
    return d;
  });
  await page.dispatchEvent('drop', { dataTransfer: dt });
  await expect(cards).toHaveCount(listed.length + 1);
  await expect(page.locator('.inbox-item', { hasText: 'Ideas for Owen' })).toBeVisible();
});
