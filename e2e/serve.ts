/**
 * The web server of the e2e run (playwright.config.ts `webServer`): creates a
 * fresh database — on the run's Postgres server, or on an embedded one it starts
 * when the run has none (tests/support/test-postgres.ts) — starts the service as
 * `npm start` does (scripts/start.ts with its Node flags, on this same Node) with DATABASE_URL
 * pointing at it, and drops the database once the service has stopped.
 *
 * Voice synthesis goes to a fake vendor (a real HTTP server, here: the outside
 * world, on E2E_VOICE_PORT) that answers at once, except the texts a spec holds: the ads
 * spec holds its script's synthesis until the console has shown the creative generating
 * (`holdVoice`, `releaseVoice`, e2e/console-helpers.ts).
 *
 * Why here and not in globalSetup/globalTeardown: Playwright starts its web
 * servers before globalSetup runs and stops them after globalTeardown, so a
 * database made in globalSetup would not exist yet when the service starts,
 * and one dropped in globalTeardown would vanish under a running service.
 */
import { spawn } from 'node:child_process';
import { startFakeVoiceVendor } from '@/tests/support/fake-voice-vendor';
import { provideTestPostgres } from '@/tests/support/test-postgres';
import { SERVICE_NODE_FLAGS } from '@/scripts/node-flags';
import { createDatabase, databaseUrl, dropDatabase, dropStaleDatabases, waitUntilUnused } from './database';

const name = process.env.E2E_DATABASE;
if (!name) {
  process.stderr.write('e2e/serve.ts: E2E_DATABASE must be set (playwright.config.ts sets it).\n');
  process.exit(2);
}
const pg = process.env.E2E_DATABASE_ADMIN_URL ? undefined : await provideTestPostgres();

const stale = await dropStaleDatabases();
if (stale.length) process.stderr.write(`e2e: dropped ${stale.length} database(s) left by interrupted runs\n`);
await createDatabase(name);

const vendor = await startFakeVoiceVendor({ port: Number(process.env.E2E_VOICE_PORT) });
const service = spawn(process.execPath, [...SERVICE_NODE_FLAGS, '--import', 'tsx', 'scripts/start.ts'], {
  stdio: 'inherit',
  env: {
    ...process.env,
    DATABASE_URL: databaseUrl(name),
    SYNTH_PROVIDER: 'http',
    SYNTH_TEST_NETWORKS: 'provider',
    SYNTH_BASE_URL: vendor.url,
    SYNTH_API_KEY: 'e2e',
  },
});
const exited = new Promise<number>((resolve) => {
  service.once('exit', (code, signal) => resolve(code ?? (signal ? 1 : 0)));
  service.once('error', (error) => {
    process.stderr.write(`e2e: could not start the service: ${error.message}\n`);
    resolve(1);
  });
});

let stopping = false;
for (const signal of ['SIGTERM', 'SIGINT', 'SIGHUP'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    // Playwright signals the whole process group, so the service normally has the signal already;
    // pass it on only if the service is still running after a while, and force it in the end.
    setTimeout(() => service.kill(signal), 3_000).unref();
    setTimeout(() => service.kill('SIGKILL'), 15_000).unref();
  });
}

const code = await exited;
await vendor.close();
try {
  // Wait for the service's connections to close rather than cut them.
  if (!(await waitUntilUnused(name, 15_000))) process.stderr.write(`e2e: sessions still open on ${name}; dropping anyway\n`);
  await dropDatabase(name);
} catch (error) {
  process.stderr.write(`e2e: could not drop database ${name}: ${error instanceof Error ? error.message : String(error)}\n`);
}
await pg?.stop();
process.exit(stopping ? 0 : code || 1);
