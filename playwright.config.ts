import { randomInt } from 'node:crypto';
import { defineConfig } from '@playwright/test';
import { chooseChromium } from './e2e/browser';
import { newDatabaseName } from './e2e/database';

/**
 * End-to-end tests in Chromium (e2e/browser.ts says which) against the service
 * started as users start it, on a database of its own (see e2e/serve.ts).
 *
 * Playwright evaluates this module in the runner and again in each worker.
 * Values chosen here go into process.env, which the workers inherit, so the
 * runner, the web server and every test share one port, database and token.
 */
const BASE62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
const randomBase62 = (length: number) => Array.from({ length }, () => BASE62[randomInt(BASE62.length)]).join('');

process.env.E2E_PORT ??= '3210';
process.env.E2E_VOICE_PORT ??= String(Number(process.env.E2E_PORT) + 1); // the fake voice vendor's (e2e/serve.ts)
process.env.E2E_DATABASE ??= newDatabaseName();
process.env.E2E_TOKEN ??= `sk_test_${randomBase62(40)}`;

const browser = chooseChromium();
if ('missing' in browser) {
  process.stderr.write(`${browser.missing}\n`);
  process.exit(1);
}

const port = Number(process.env.E2E_PORT);
const baseURL = `http://127.0.0.1:${port}`;

export default defineConfig({
  testDir: './e2e',
  testMatch: '**/*.spec.ts',
  outputDir: './test-results',
  timeout: 60_000,
  expect: { timeout: 15_000 },
  forbidOnly: !!process.env.CI,
  // Tests tagged @deep (axe over the whole API reference: minutes on 2 cores) run in
  // `npm run test:deep` (E2E_DEEP=1), not in `npm test`.
  grepInvert: process.env.E2E_DEEP === '1' ? undefined : /@deep/,
  retries: 0,
  // Tests share nothing but the server (each makes its own network), and most of their time is
  // waiting on it, the fake voice vendor or a webhook retry: two at a time, also from one file.
  // Playwright's default is half the cores, 1 here. Files start in name order: the API reference's
  // (rendering every operation) sorts first so it does not run last, alone.
  fullyParallel: true,
  workers: 2,
  reporter: process.env.CI ? [['list'], ['html', { open: 'never', outputFolder: 'playwright-report' }]] : 'list',
  use: {
    baseURL,
    browserName: 'chromium',
    viewport: { width: 1280, height: 800 },
    launchOptions: {
      executablePath: browser.executablePath,
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-dev-shm-usage',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--disable-quic',
        '--no-first-run',
      ],
    },
    // A failed test keeps its trace: every action with a DOM snapshot, network and console. Not the
    // screencast: recorded for every test and thrown away on success, it was half of the run's
    // browser CPU (renderer 327 → 170 s, GPU process 160 → 15 s over the suite). The failure's
    // screenshot stays.
    trace: { mode: 'retain-on-failure', screenshots: false },
    screenshot: 'only-on-failure',
  },
  projects: [{ name: 'chromium' }],
  webServer: {
    // On the Node that runs Playwright (the project's, through npm), as is the service it starts.
    command: `"${process.execPath}" --import tsx e2e/serve.ts`,
    url: `${baseURL}/v1/openapi.json`,
    reuseExistingServer: false,
    // The first start may run `next build` (60–90 s on these machines) before migrating.
    timeout: 240_000,
    gracefulShutdown: { signal: 'SIGTERM', timeout: 20_000 },
    stdout: 'pipe',
    stderr: 'pipe',
    env: {
      E2E_DATABASE: process.env.E2E_DATABASE,
      E2E_VOICE_PORT: process.env.E2E_VOICE_PORT,
      PORT: String(port),
      BOOTSTRAP_SUPERUSER_TOKEN: process.env.E2E_TOKEN,
      LOG_LEVEL: 'warn',
      // Webhook e2e: deliver to a receiver on 127.0.0.1, retry within seconds, time out fast.
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_RETRY_SCHEDULE: '0,1,1',
      WEBHOOK_TIMEOUT_MS: '3000',
    },
  },
});
