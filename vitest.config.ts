import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/unit/**/*.test.ts', 'tests/integration/**/*.test.ts'],
    environment: 'node',
    // The CLI bundle the integration tests spawn is built once, here, never by a test file.
    globalSetup: ['tests/helpers/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Integration tests start real servers and child processes; two cores, so keep it modest.
    pool: 'forks',
    maxWorkers: 2,
    reporters: ['default'],
  },
});
