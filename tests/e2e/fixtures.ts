import path from 'node:path';
import type net from 'node:net';
import { SMTPServer } from 'smtp-server';
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
  /** A real SMTP server on 127.0.0.1 that keeps the raw text of what it receives; closed after the test. */
  smtp: { port: number; received: string[] };
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
  // eslint-disable-next-line no-empty-pattern -- Playwright reads the fixture's dependencies from this pattern; it has none
  smtp: async ({}, use) => {
    const received: string[] = [];
    const server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS', 'AUTH'],
      logger: false,
      onData(stream, _s, cb) {
        let data = '';
        stream.on('data', (c: Buffer) => (data += c.toString()));
        stream.on('end', () => (received.push(data), cb()));
      },
    });
    const port = await new Promise<number>((r) => server.listen(0, '127.0.0.1', () => r((server.server.address() as net.AddressInfo).port)));
    await use({ port, received });
    await new Promise<void>((r) => server.close(() => r()));
  },
});

export { expect };
