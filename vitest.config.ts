import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';

/** `@/x` is `<repo>/x`, as tsconfig.json's `paths` says (tsx and Next read that file; vite does not). */
export const resolve = { alias: [{ find: /^@\//, replacement: fileURLToPath(new URL('./', import.meta.url)) }] };

export default defineConfig({
  resolve,
  test: {
    include: ['tests/**/*.test.ts', 'server/**/*.test.ts', 'db/**/*.test.ts', 'jobs/**/*.test.ts'],
    // The long fault and fuzz runs: `npm run test:reliability` (vitest.reliability.config.ts). The
    // cluster behind HAProxy and PgBouncer: `npm run test:cluster` — it needs those two programs,
    // which `npm install` does not bring, so `npm test` on a clean machine must not run it.
    exclude: ['tests/reliability/**', 'tests/cluster/**', 'node_modules/**'],
    globalSetup: ['tests/support/global-setup.ts'],
    testTimeout: 30_000,
    hookTimeout: 200_000,
    // Integration tests share one server and database; files run in parallel workers. Most of a
    // file's time is waiting (on the service, Postgres, a receiver, ffmpeg in another process), so
    // 3 workers even on 2 cores: vitest's default (cores - 1) ran every file one after another here.
    pool: 'forks',
    maxWorkers: 3,
  },
});
