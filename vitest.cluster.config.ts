import { defineConfig } from 'vitest/config';
import { resolve } from './vitest.config';

/**
 * `npm run test:cluster`: the service as `npm run cluster` runs it — HAProxy, two web processes,
 * two workers, PgBouncer — tested through the HAProxy address (tests/cluster/). Needs the
 * `haproxy` and `pgbouncer` programs (Debian packages of those names; .ci/run installs them).
 */
export default defineConfig({
  resolve,
  test: {
    include: ['tests/cluster/**/*.test.ts'],
    globalSetup: ['tests/cluster/setup.ts'],
    testTimeout: 180_000,
    hookTimeout: 400_000,
    pool: 'forks',
    fileParallelism: false,
  },
});
