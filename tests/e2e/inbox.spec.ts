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

test('learning from review: repeated edits toward one folder give a suggested rule card; accept writes it to the rules file', async ({ app, owner }) => {
  const pottery = [
    ['Pottery bisque', 'Bisque firing at the pottery studio: the kiln reached cone 04 overnight; two mugs cracked while cooling.'],
    ['Pottery glaze day', 'Glaze firing in the studio kiln at cone 6; the celadon bowls crawled a little at the rims.'],
    ['Pottery test tiles', 'Test tiles in the kiln at cone 6; pinholes on the white glaze, try a slower cooling next time.'],
  ];
  const saved: string[] = [];
  for (const [title, content] of pottery) saved.push((await owner.api<{ path: string }>('POST', '/api/inbox/save', { title, content })).body.path);
  const listed = (await owner.api<Listed>('GET', '/api/inbox')).body.items.filter((i) => saved.includes(i.path));
  expect(listed).toHaveLength(3);
  for (const i of listed) expect(i.destination ?? '').not.toMatch(/^family\/activities\//);
  // The person files all three under family/activities/, against the suggestions.
  const ex = await owner.api<{ results: Array<{ status: string }> }>('POST', '/api/inbox/execute', { actions: saved.map((p) => ({ path: p, action: 'move', destination: 'family/activities/' })) });
  expect(ex.body.results.every((r) => r.status === 'done')).toBe(true);
  const next = (await owner.api<{ path: string }>('POST', '/api/inbox/save', { title: 'Pottery second bisque', content: 'Another bisque firing in the kiln at cone 04; nothing cracked this time.' })).body.path;

  await app.goto(app.url().split('#')[0] + '#/inbox');
  const page = app.getByTestId('inbox-page');
  const card = page.getByTestId('suggested-rule');
  await expect(card).toBeVisible();
  await expect(card).toContainText('Suggested rule');
  const line = (await card.locator('.inbox-rule-line').textContent())!;
  expect(line).toMatch(/^- anything about \S+ → family\/activities\/$/);
  const item = page.locator(`.inbox-item[data-path="${next}"]`);
  await expect(item.locator('.inbox-reason')).toContainText(/like \d earlier items? you filed in family\/activities/);
  // The list scrolls inside the page: a tall viewport shows the card and the learnt item together.
  await app.setViewportSize({ width: 1280, height: 2600 });
  await app.screenshot({ path: test.info().outputPath('inbox-learning.png') });
  await app.setViewportSize({ width: 1280, height: 800 });

  await card.getByRole('button', { name: 'Accept' }).click();
  await expect(card).toHaveCount(0);
  const rules = fs.readFileSync(path.join(owner.vaultDir, '_brain_config/inbox_rules.md'), 'utf8');
  expect(rules).toContain(line);
  // Applied on the next analysis.
  await expect(item.locator('.inbox-rule')).toContainText(line.slice(2));
});
