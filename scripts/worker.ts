/** `npm run worker`: the background worker alone (scale-out), against DATABASE_URL or the embedded database. */
import { closeDatabase, openDatabase } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { startWorker } from '@/jobs/worker';
import { loadConfig, setConfig } from '@/server/config';
import { flushLogs, logger } from '@/server/logger';
import { resolveDatabase } from './runtime';
import { loadAppSecret } from '@/server/secrets';

async function main(): Promise<void> {
  const config = loadConfig();
  setConfig(config);
  logger.level = config.LOG_LEVEL;
  logger.info({ node: process.version, pid: process.pid }, `starting on Node ${process.version}`);
  const { url, embedded } = await resolveDatabase(config);
  await migrateDatabase(config.DATABASE_DIRECT_URL ?? url);
  const { db } = openDatabase(url, { max: config.DATABASE_POOL_MAX, prepare: config.DATABASE_PREPARED_STATEMENTS === 'on' });
  await loadAppSecret(db);
  // Its pools start one after the other, and the first may already run jobs: a signal from then on
  // must stop what has started (once, however often it arrives — npm passes it on, and Ctrl-C
  // signals the whole group), not kill the process with jobs locked.
  const starting = startWorker({
    connectionString: url,
    concurrency: config.WORKER_CONCURRENCY,
    synthesisConcurrency: config.WORKER_SYNTHESIS_CONCURRENCY,
  });
  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    const runner = await starting.catch(() => undefined);
    await runner?.stop();
    await closeDatabase();
    await embedded?.stop();
    logger.info({ signal }, 'worker stopped');
    await flushLogs();
    process.exit(0);
  };
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, (s) => void shutdown(s));
  const runner = await starting;
  logger.info({ concurrency: config.WORKER_CONCURRENCY, synthesisConcurrency: config.WORKER_SYNTHESIS_CONCURRENCY }, 'worker running');
  await runner.promise;
}

main().catch((error: unknown) => {
  process.stderr.write(`Worker failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
