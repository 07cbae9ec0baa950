import path from 'node:path';
import { test as base, expect, type Page } from '@playwright/test';
import { REPO_ROOT, startTestOwner, type TestOwner, type TestOwnerOptions } from '../helpers/owner';

export const STATIC_DIR = path.join(REPO_ROOT, 'out', 'renderer');

interface Fixtures {
  /** Options for the owner this test starts (override with test.use({ ownerOptions })). */
  ownerOptions: TestOwnerOptions;
  /** A real headless owner serving the built renderer, in temp dirs. */
  owner: TestOwner;
  /** The UI opened with the token, hub connected. */
  app: Page;
}

export const test = base.extend<Fixtures>({
  ownerOptions: [{}, { option: true }],
  owner: async ({ ownerOptions }, use) => {
    const owner = await startTestOwner({ staticDir: STATIC_DIR, ...ownerOptions });
    await use(owner);
    await owner.close();
  },
  app: async ({ page, owner }, use) => {
    await page.goto(owner.uiUrl);
    await expect(page.getByTestId('connection')).toHaveAttribute('data-status', 'connected');
    await use(page);
  },
});

export { expect };
