import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { closeDatabase, openDatabase } from '@/db/client';
import { connectToRunningEmbeddedPostgres, startEmbeddedPostgres, type EmbeddedPostgres } from '@/db/embedded';
import { migrateDatabase } from '@/db/migrate';
import { startWorker, type WorkerHandle } from '@/jobs/worker';
import type { Config } from '@/server/config';
import { compileTrustedProxies } from '@/server/http/client-address';
import { configureLimits } from '@/server/http/limits';
import { createAppServer, type PageHandler } from '@/server/transport/server';
import { flushLogs, logger } from '@/server/logger';
import { loadAppSecret } from '@/server/secrets';
import { bootstrapSuperUser } from '@/server/services/keys/bootstrap';
import { startHitRecorder, stopHitRecorder } from '@/server/services/tracking/hit-recorder';

export interface RunningService {
  url: string;
  databaseUrl: string;
  stop(): Promise<void>;
}

/**
 * DATABASE_URL, or an embedded Postgres under DATA_DIR when it is unset. With `shareRunning`, the
 * embedded server of a service already running on DATA_DIR is used as it is (the operator CLI).
 */
export async function resolveDatabase(c: Config, options: { shareRunning?: boolean } = {}): Promise<{ url: string; embedded?: EmbeddedPostgres }> {
  if (c.DATABASE_URL) return { url: c.DATABASE_URL };
  if (options.shareRunning) {
    const running = await connectToRunningEmbeddedPostgres({ dataDir: path.resolve(c.DATA_DIR) });
    if (running) {
      logger.info({ dataDir: c.DATA_DIR }, 'using the embedded Postgres of the running service');
      return { url: running.url, embedded: running };
    }
  }
  const embedded = await startEmbeddedPostgres({
    dataDir: path.resolve(c.DATA_DIR),
    port: c.EMBEDDED_PG_PORT,
    log: (line) => logger.debug({ component: 'embedded-postgres' }, line),
  });
  logger.info({ port: c.EMBEDDED_PG_PORT, dataDir: c.DATA_DIR }, 'embedded Postgres started');
  return { url: embedded.url, embedded };
}

/**
 * Start everything `npm start` runs: database (embedded when needed),
 * migrations, bootstrap key, rate limiters, the worker (unless WORKER=off) and
 * the HTTP server. `pages` serves everything outside the API (Next).
 */
export async function startService(c: Config, options: { pages?: PageHandler; worker?: boolean } = {}): Promise<RunningService> {
  compileTrustedProxies(c.TRUSTED_PROXIES); // a bad entry stops the start here, named
  const { url: databaseUrl, embedded } = await resolveDatabase(c);
  await migrateDatabase(c.DATABASE_DIRECT_URL ?? databaseUrl);
  const { db } = openDatabase(databaseUrl, { max: c.DATABASE_POOL_MAX, prepare: c.DATABASE_PREPARED_STATEMENTS === 'on' });
  await loadAppSecret(db);

  const bootstrap = await bootstrapSuperUser({ db, token: c.BOOTSTRAP_SUPERUSER_TOKEN, environment: c.APP_ENV });
  if (bootstrap.kind === 'first-start') {
    // Printed once, on the first start of an empty database, for the operator to copy.
    process.stdout.write(
      `\nNo API keys existed, so a super_user key was created. It is shown only this once:\n\n    ${bootstrap.token}\n\n` +
        'Keep it secret. Use it as "Authorization: Bearer <key>". Lost it? Run: npm run cli -- create-key --super-user --name NAME\n\n',
    );
  } else if (bootstrap.kind === 'live-without-key') {
    logger.warn(
      'No API key exists, and in live mode none is made or printed at start. Set BOOTSTRAP_SUPERUSER_TOKEN (and remove it once the key exists), or run: npm run cli -- create-key --super-user --name NAME',
    );
  } else if (bootstrap.kind === 'configured-created') {
    logger.info('BOOTSTRAP_SUPERUSER_TOKEN registered as a super_user key');
  }

  const limits = configureLimits(db, c);
  // Tracking URLs' hits, on a pool of their own (docs/measurement.md).
  await startHitRecorder({
    databaseUrl,
    poolMax: c.TRACKING_DATABASE_POOL_MAX,
    prepare: c.DATABASE_PREPARED_STATEMENTS === 'on',
    flushMs: c.TRACKING_FLUSH_MS,
    flushHits: c.TRACKING_FLUSH_HITS,
    bufferHits: c.TRACKING_BUFFER_HITS,
    networkShare: c.TRACKING_NETWORK_SHARE,
    sourceDailyLimit: c.TRACKING_SOURCE_DAILY_LIMIT,
  });
  let worker: WorkerHandle | undefined;
  if (options.worker ?? c.WORKER === 'on') {
    worker = await startWorker({
      connectionString: databaseUrl,
      concurrency: c.WORKER_CONCURRENCY,
      synthesisConcurrency: c.WORKER_SYNTHESIS_CONCURRENCY,
    });
  }

  const server = createAppServer(options.pages);
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(c.PORT, c.HOST, () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  const url = `http://localhost:${port}`;
  logger.info({ url, worker: Boolean(worker), embedded: Boolean(embedded) }, 'service listening');

  let stopping: Promise<void> | undefined;
  return {
    url,
    databaseUrl,
    stop() {
      stopping ??= (async () => {
        // The HTTP server drains while the worker finishes (or, after graphile-worker's
        // abort timeout, cancels and releases) its running jobs, so none stays locked.
        await Promise.all([
          new Promise<void>((resolve) => {
            server.close(() => resolve());
            server.closeIdleConnections();
            setTimeout(() => server.closeAllConnections(), 5_000).unref();
          }),
          worker?.stop(),
        ]);
        await stopHitRecorder();
        await limits.close();
        await closeDatabase();
        await embedded?.stop();
        await flushLogs();
      })();
      return stopping;
    },
  };
}
