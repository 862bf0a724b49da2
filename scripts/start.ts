/**
 * `npm start`: the whole service in one process — web (console, /docs, /v1,
 * /api/trpc) and the worker. With no DATABASE_URL it runs an embedded Postgres
 * under .data/. `WORKER=off` runs the web part alone; `CONSOLE=off` leaves Next out
 * (no console pages or /docs: the API, /api/trpc and /healthz only).
 */
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { loadConfig, setConfig } from '@/server/config';
import { logger, messageWithoutQueryValues } from '@/server/logger';
import { startService } from './runtime';
import { keepNativeDate } from './native-date';
import { ensureNextBuild } from './next-build';
import { missingServiceNodeFlags, SERVICE_NODE_FLAGS } from './node-flags';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Next, ready to serve the console and /docs (built first in production when the build is missing). */
async function prepareConsole(dev: boolean) {
  if (!dev) ensureNextBuild(root, (msg) => logger.info(msg));
  const next = (await import('next')).default;
  const nextApp = next({ dev, dir: root, quiet: !dev });
  // Production keeps the native Date (./native-date.ts: Next's wrapper taxes every Date on /v1).
  await (dev ? nextApp.prepare() : keepNativeDate(() => nextApp.prepare()));
  return nextApp;
}

async function main(): Promise<void> {
  process.env.NEXT_TELEMETRY_DISABLED = '1';
  // Libraries (React, tRPC, Next) read NODE_ENV themselves: production unless asked otherwise.
  (process.env as Record<string, string | undefined>).NODE_ENV ??= 'production';
  const config = loadConfig();
  setConfig(config);
  logger.level = config.LOG_LEVEL;
  const missingFlags = missingServiceNodeFlags();
  logger.info(
    { node: process.version, nodeFlags: SERVICE_NODE_FLAGS.filter((flag) => !missingFlags.includes(flag)), pid: process.pid },
    `starting on Node ${process.version}`,
  );
  if (missingFlags.length > 0) {
    logger.warn({ missingFlags }, `started without ${missingFlags.join(' ')}: run it with npm start (scripts/node-flags.ts says why)`);
  }
  const nextApp = config.CONSOLE === 'on' ? await prepareConsole(config.NODE_ENV === 'development') : undefined;
  const handlePage = nextApp?.getRequestHandler();
  const service = await startService(config, { pages: handlePage && ((req, res) => handlePage(req, res)) });
  const docs = nextApp ? `, docs: ${service.url}/docs` : '';
  process.stdout.write(`Ad network service ready on ${service.url} (API: ${service.url}/v1${docs}; Node ${process.version})\n`);

  // The signal may come to npm (a process manager signals the process it started; npm passes it
  // on, since the npm script `exec`s node) or to this process, or both at once (Ctrl-C signals the
  // terminal's whole foreground group): stop once, whatever arrives how often. The embedded
  // Postgres runs in its own process group, so it is stopped last, by service.stop().
  let stopping = false;
  const shutdown = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    logger.info({ signal }, 'shutting down');
    const force = setTimeout(() => process.exit(1), 15_000);
    force.unref();
    service
      .stop()
      .then(() => nextApp?.close())
      .then(() => {
        process.stdout.write(`Ad network service stopped (${signal})\n`);
        process.exit(0);
      })
      .catch((error: unknown) => {
        logger.error({ err: error }, 'shutdown failed');
        process.exit(1);
      });
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, shutdown);
}

main().catch((error: unknown) => {
  process.stderr.write(`Failed to start: ${error instanceof Error ? messageWithoutQueryValues(error) : String(error)}\n`);
  logger.flush();
  process.exit(1);
});
