import { defineConfig } from 'vitest/config';
import { RELIABILITY_HTTP_TESTS, reporters, resolve } from './vitest.config';

/**
 * `npm run test:reliability`: the fault, race, fuzz and security tests whose numbers
 * docs/RELIABILITY.md reports, in two groups, one after the other, sharing one service:
 * first the tests/http files that report here (RELIABILITY_HTTP_TESTS; `npm test` runs them
 * too, except in CI), several at a time as in `npm test`; then tests/reliability/, the long ones,
 * one file at a time: several of them load the machine on purpose.
 */
const each = { testTimeout: 600_000, hookTimeout: 200_000, pool: 'forks' } as const;

export default defineConfig({
  resolve,
  test: {
    // One service and database for both groups (a project's own globalSetup would start another).
    globalSetup: ['tests/support/global-setup.ts'],
    // Seconds per file in CI, as in `npm test`.
    reporters,
    projects: [
      // tests/http files: a module graph per worker, not per file, as in `npm test` (vitest.config.ts's `shared`).
      {
        resolve,
        test: { ...each, name: 'http', include: RELIABILITY_HTTP_TESTS, sequence: { groupOrder: 0 }, maxWorkers: 3, isolate: false },
      },
      { resolve, test: { ...each, name: 'long', include: ['tests/reliability/**/*.test.ts'], sequence: { groupOrder: 1 }, fileParallelism: false } },
    ],
  },
});
