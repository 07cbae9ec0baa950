import fs from 'node:fs';
import { defineConfig } from '@playwright/test';

// Debian's Chromium where present (these machines cannot download Playwright's own browser);
// Playwright's bundled Chromium elsewhere.
const debianChromium = '/usr/bin/chromium';
const executablePath = process.env.MAILROOM_CHROMIUM ?? (fs.existsSync(debianChromium) ? debianChromium : undefined);

export default defineConfig({
  testDir: 'tests/e2e',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 1,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list']],
  use: {
    headless: true,
    viewport: { width: 1280, height: 820 },
    launchOptions: {
      executablePath,
      args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    },
    trace: 'retain-on-failure',
  },
});
