import { test } from './fixtures';

// Not an assertion: refreshes docs/screenshots/ for the README when MAILROOM_SCREENSHOTS=1.
test.skip(!process.env.MAILROOM_SCREENSHOTS, 'set MAILROOM_SCREENSHOTS=1 to refresh the README screenshots');
test.use({ ownerOptions: { demo: true } });

test('screenshots', async ({ app }) => {
  for (const page of ['inbox', 'sessions', 'routes', 'mail', 'settings']) {
    await app.goto(app.url().split('#')[0] + `#/${page}`);
    await app.waitForTimeout(400);
    await app.screenshot({ path: `docs/screenshots/${page}.png` });
  }
});
