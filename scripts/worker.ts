/** `npm run worker`: the background worker alone (scale-out), against DATABASE_URL or the embedded database. */
import { closeDatabase, openDatabase } from '../db/client';
import { migrateDatabase } from '../db/migrate';
import { startWorker } from '../jobs/worker';
import { loadConfig, setConfig } from '../server/config';
import { logger } from '../server/logger';
import { resolveDatabase } from '../server/runtime';
import { loadAppSecret } from '../server/secrets';

async function main(): Promise<void> {
  const config = loadConfig();
  setConfig(config);
  const { url, embedded } = await resolveDatabase(config);
  await migrateDatabase(url);
  const { db } = openDatabase(url, { max: config.DATABASE_POOL_MAX });
  await loadAppSecret(db);
  const runner = await startWorker({ connectionString: url, concurrency: config.WORKER_CONCURRENCY });
  logger.info({ concurrency: config.WORKER_CONCURRENCY }, 'worker running');
  const shutdown = async () => {
    await runner.stop();
    await closeDatabase();
    await embedded?.stop();
    logger.flush();
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown());
  process.once('SIGTERM', () => void shutdown());
  await runner.promise;
}

main().catch((error: unknown) => {
  process.stderr.write(`Worker failed: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exit(1);
});
