import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/**
 * The tests/http files `npm run test:reliability` runs too (vitest.reliability.config.ts), to
 * report what they measure. CI runs that right after `npm test` and sets RELIABILITY_RUNS_NEXT=1,
 * so `npm test` leaves them to it rather than running them twice in one job.
 */
export const RELIABILITY_HTTP_TESTS = [
  'tests/http/idempotency.test.ts',
  'tests/http/campaigns.test.ts',
  'tests/http/offers.test.ts',
  'tests/http/offers-on-flights.test.ts',
  'tests/http/webhook-durability.test.ts',
  'tests/http/cross-tenant.test.ts',
  'tests/http/secrets-at-rest.test.ts',
  'tests/http/logs.test.ts',
];

/** `@/x` is `<repo>/x`, as tsconfig.json's `paths` says (tsx and Next read that file; vite does not). */
export const resolve = { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('./', import.meta.url)) }] };

/** CI's log says where the time went, file by file (tests/support/durations-reporter.ts); also with TEST_DURATIONS=1. */
export const reporters = process.env.CI || process.env.TEST_DURATIONS ? ['default', './tests/support/durations-reporter.ts'] : ['default'];

const everyFile = { testTimeout: 30_000, hookTimeout: 200_000, pool: 'forks' } as const;

export default defineConfig({
  resolve,
  test: {
    globalSetup: ['tests/support/global-setup.ts'],
    // Integration tests share one server and database; files run in parallel workers. Most of a
    // file's time is waiting (on the service, Postgres, a receiver, ffmpeg in another process), so
    // 3 workers even on 2 cores: vitest's default (cores - 1) ran every file one after another here.
    maxWorkers: 3,
    reporters,
    projects: [
      {
        resolve,
        // The tests beside the code (server/, db/, domain/, jobs/) hold no process-wide state they do not put
        // back (a test that replaces the configuration restores it), so they share their workers'
        // module graph instead of importing it anew per file: a third of their time was importing.
        test: {
          ...everyFile,
          name: 'unit',
          include: ['server/**/*.test.ts', 'db/**/*.test.ts', 'domain/**/*.test.ts', 'jobs/**/*.test.ts'],
          isolate: false,
        },
      },
      {
        resolve,
        // tests/services/ and tests/http/ open the run's database in beforeAll and close it in afterAll
        // (useTestDatabase), start what else they need (a service, a receiver) and stop it after, and
        // change nothing else of the process: they share their workers' module graph too. Importing
        // the services anew per file (a worker per file) was over half of tests/services' CPU.
        test: {
          ...everyFile,
          name: 'shared',
          include: ['tests/services/**/*.test.ts', 'tests/http/**/*.test.ts'],
          exclude: ['node_modules/**', ...(process.env.RELIABILITY_RUNS_NEXT ? RELIABILITY_HTTP_TESTS : [])],
          isolate: false,
        },
      },
      {
        resolve,
        test: {
          ...everyFile,
          name: 'integration',
          include: ['tests/**/*.test.ts'],
          // The long fault and fuzz runs: `npm run test:reliability` (vitest.reliability.config.ts). The
          // cluster behind HAProxy and PgBouncer: `npm run test:cluster` — it needs those two programs,
          // which `npm install` does not bring, so `npm test` on a clean machine must not run it.
          exclude: ['tests/reliability/**', 'tests/cluster/**', 'tests/services/**', 'tests/http/**', 'node_modules/**'],
        },
      },
    ],
  },
});
