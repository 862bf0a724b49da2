import { defineConfig } from 'vitest/config';
import { RELIABILITY_HTTP_TESTS, resolve } from './vitest.config';

/**
 * `npm run test:reliability`: the fault, race, fuzz and security tests whose
 * numbers docs/RELIABILITY.md reports. Some also run in `npm test` (the
 * tests/http ones, RELIABILITY_HTTP_TESTS; CI runs them only here);
 * tests/reliability/ holds the long ones that only run here.
 * Files run one at a time: several of them load the machine on purpose.
 */
export default defineConfig({
  resolve,
  test: {
    include: ['tests/reliability/**/*.test.ts', ...RELIABILITY_HTTP_TESTS],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 200_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
