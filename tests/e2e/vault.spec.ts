import fs from 'node:fs';
import path from 'node:path';
import { test, expect } from './fixtures';
import { tempDir } from '../helpers/owner';

const VAULT: Record<string, string> = {
  'projects/atlas.md':
    '---\ntitle: Atlas\nstatus: active\naliases: [Project Atlas]\n---\n# Atlas\n\nThe Atlas project ships in **March**. Owner: [[Priya Nair|Priya]]. Notes from [[Kickoff]].\n\n<img src=x onerror="window.__pwned=1"> <script>window.__pwned=2</script>\n',
  'people/Priya Nair.md': '---\nrole: lead\n---\n# Priya Nair\n\nLeads [[atlas]]. Swims on Saturdays.\n',
  'people/sam.md': '# Sam\n\nWorks on the [[Project Atlas]] launch.\n',
  'meetings/standup.md': '# Weekly standup\n\nAttendees: Priya, Sam. Discussed the Atlas launch date.\n',
  'inbox/call-priya.md': '# Call Priya about Atlas\n\nAsk about the **launch** checklist and [[atlas]] budget.\n',
};

test.use({ ownerOptions: { vaultFiles: VAULT } });

test('vault: search with highlighted snippets → read → follow a wikilink → backlinks, reveal, keyboard', async ({ app, owner }) => {
  await app.goto(app.url().split('#')[0] + '#/vault');
  const page = app.getByTestId('vault-page');
  await expect(page.getByRole('heading', { level: 1, name: 'Vault' })).toBeVisible();
  await expect(page.getByText('Pick a note to read')).toBeVisible();

  // `/` focuses the search; results come with <mark>ed matches, never raw markers.
  await app.keyboard.press('/');
  const search = page.getByLabel('Search the vault');
  await expect(search).toBeFocused();
  await search.fill('launch');
  const results = page.getByRole('list', { name: 'Search results' }).locator('li');
  await expect(results).toHaveCount(3);
  await expect(results.first().locator('mark').first()).toHaveText(/launch/i);
  await expect(page.locator('.vault-snippet').first()).not.toContainText('**');
  await expect(page.locator('.vault-snippet').first()).not.toContainText('[');
  await app.screenshot({ path: test.info().outputPath('vault-search.png') });

  // j moves, Enter opens the note.
  await search.press('Escape');
  const sam = results.filter({ hasText: 'people/sam.md' });
  const index = await results.evaluateAll((els) => els.findIndex((e) => e.textContent?.includes('people/sam.md')));
  for (let i = 0; i < index; i++) await app.keyboard.press('j');
  await expect(sam).toHaveAttribute('data-current', 'true');
  await app.keyboard.press('Enter');
  const note = page.getByTestId('note-view');
  await expect(note).toHaveAttribute('data-path', 'people/sam.md');

  // Follow the alias wikilink [[Project Atlas]] → projects/atlas.md.
  await note.getByRole('link', { name: 'Project Atlas' }).click();
  await expect(note).toHaveAttribute('data-path', 'projects/atlas.md');
  await expect(note.getByRole('heading', { level: 2, name: 'Atlas' })).toBeVisible();
  await expect(note.getByRole('table', { name: 'Frontmatter' })).toContainText('status');
  await expect(note.getByRole('table', { name: 'Frontmatter' })).toContainText('active');
  await expect(note.locator('.note-body strong')).toHaveText('March');
  // Raw HTML in the note is text, not markup.
  await expect(note.locator('.note-body img')).toHaveCount(0);
  await expect(note.locator('.note-body script')).toHaveCount(0);
  await expect(note.locator('.note-body')).toContainText('<img src=x');
  expect(await app.evaluate(() => (globalThis as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
  // An unresolved link is marked as missing, not a link.
  await expect(note.locator('.wikilink-missing')).toHaveText('Kickoff');
  // Backlinks: by file name (Priya) and by alias (Sam).
  const back = note.getByRole('region', { name: 'Backlinks' });
  await expect(back.getByRole('link')).toHaveText(['Call Priya about Atlas', 'Priya Nair', 'Sam']);
  await expect(note.getByTestId('open-in-obsidian')).toHaveAttribute('href', `obsidian://open?vault=${encodeURIComponent(path.basename(owner.vaultDir))}&file=${encodeURIComponent('projects/atlas')}`);
  await app.screenshot({ path: test.info().outputPath('vault-note.png') });

  // Follow [[Priya Nair|Priya]], then Backspace goes back to Atlas, Alt+Left to Sam.
  await note.locator('.note-body').getByRole('link', { name: 'Priya', exact: true }).click();
  await expect(note).toHaveAttribute('data-path', 'people/Priya Nair.md');
  await expect(note.getByRole('table', { name: 'Frontmatter' })).toContainText('lead');
  await app.locator('body').click({ position: { x: 5, y: 5 } });
  await app.keyboard.press('Backspace');
  await expect(note).toHaveAttribute('data-path', 'projects/atlas.md');
  await app.keyboard.press('Alt+ArrowLeft');
  await expect(note).toHaveAttribute('data-path', 'people/sam.md');

  // Reveal file: the owner runs the file manager as an argv array (a recording script here).
  const dir = tempDir('mailroom-reveal-');
  const log = path.join(dir, 'argv.txt');
  const script = path.join(dir, 'reveal.sh');
  fs.writeFileSync(script, `#!/bin/sh\nfor a in "$@"; do printf '%s\\n' "$a"; done > "${log}.tmp" && mv "${log}.tmp" "${log}"\n`, { mode: 0o755 });
  process.env.MAILROOM_REVEAL_COMMAND = script;
  try {
    await note.getByRole('button', { name: 'Reveal file' }).click();
    await expect(note.getByText('Shown in your file manager.')).toBeVisible();
    await expect.poll(() => (fs.existsSync(log) ? fs.readFileSync(log, 'utf8') : '')).toBe(path.join(fs.realpathSync(owner.vaultDir), 'people', 'sam.md') + '\n');
  } finally {
    delete process.env.MAILROOM_REVEAL_COMMAND;
  }

  // Browse by folder, and a search with no hits says so.
  await search.fill('');
  await page.getByRole('navigation', { name: 'Folders' }).getByRole('button', { name: /^people/ }).click();
  await expect(page.getByRole('list', { name: 'Notes' }).locator('li')).toHaveCount(2);
  await app.screenshot({ path: test.info().outputPath('vault-browse.png') });
  await search.fill('zanzibar');
  await expect(page.getByText('Nothing matches “zanzibar”')).toBeVisible();
});

test('inbox cards open the whole item in a dialog', async ({ app }) => {
  await app.goto(app.url().split('#')[0] + '#/inbox');
  const card = app.locator('.inbox-item').filter({ hasText: 'Call Priya about Atlas' });
  await card.getByRole('button', { name: 'View inbox/call-priya.md' }).click();
  const dialog = app.getByRole('dialog', { name: 'Note inbox/call-priya.md' });
  await expect(dialog.getByTestId('note-view')).toBeVisible();
  await expect(dialog.locator('.note-body strong')).toHaveText('launch');
  await expect(dialog.getByRole('link', { name: 'atlas' })).toHaveAttribute('href', '#/vault?path=projects%2Fatlas.md');
  await app.screenshot({ path: test.info().outputPath('inbox-view.png') });
  // The inbox's own keys do nothing while the dialog is open; Esc closes it.
  await app.keyboard.press('d');
  await app.keyboard.press('Escape');
  await expect(dialog).toBeHidden();
  await expect(card.locator('.inbox-decided')).toHaveCount(0);
});
