import { defineConfig } from 'vitest/config';
import { resolve } from './vitest.config';

/**
 * `npm run test:reliability`: the fault, race, fuzz and security tests whose
 * numbers docs/RELIABILITY.md reports. Some also run in `npm test` (the
 * tests/http ones); tests/reliability/ holds the long ones that only run here.
 * Files run one at a time: several of them load the machine on purpose.
 */
export default defineConfig({
  resolve,
  test: {
    include: [
      'tests/reliability/**/*.test.ts',
      'tests/http/idempotency.test.ts',
      'tests/http/campaigns.test.ts',
      'tests/http/offers.test.ts',
      'tests/http/webhook-durability.test.ts',
      'tests/http/cross-tenant.test.ts',
      'tests/http/secrets-at-rest.test.ts',
      'tests/http/logs.test.ts',
    ],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 600_000,
    hookTimeout: 200_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
