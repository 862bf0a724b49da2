import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'server/**/*.test.ts', 'db/**/*.test.ts', 'jobs/**/*.test.ts'],
    // The long fault and fuzz runs: `npm run test:reliability` (vitest.reliability.config.ts).
    exclude: ['tests/reliability/**', 'node_modules/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 200_000,
    // Integration tests share one server and database; files run in parallel workers.
    pool: 'forks',
  },
});
