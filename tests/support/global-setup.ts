import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import type { TestProject } from 'vitest/node';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { createTestDatabase, provideMigratedTemplate } from './database';
import { provideTestPostgres } from './test-postgres';
import { ROOT, startServerProcess } from './server-process';
import { SHARED_SERVICE_LIMITS } from './shared-limits';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    superToken: string;
    databaseUrl: string;
    serverLogFile: string;
    /** A Redis that answers (TEST_REDIS_URL, default 127.0.0.1:6379), or '' when none does. */
    redisUrl: string;
  }
}

/** TEST_REDIS_URL (default redis://127.0.0.1:6379) when a Redis answers there; '' otherwise. */
async function reachableRedis(): Promise<string> {
  const url = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
  const redis = new Redis(url, { lazyConnect: true, connectTimeout: 2_000, maxRetriesPerRequest: 0, retryStrategy: () => null });
  redis.on('error', () => {}); // the refusal is the answer
  try {
    await redis.connect();
    await redis.ping();
    return url;
  } catch {
    return '';
  } finally {
    redis.disconnect();
  }
}

/**
 * One fresh database and one service process, started the way a user starts
 * it, shared by the HTTP tests of this run.
 */
export default async function setup(project: TestProject) {
  // Once per run, before any worker starts: workers and servers inherit TEST_DATABASE_ADMIN_URL.
  const pg = await provideTestPostgres();
  const redisUrl = await reachableRedis();
  if (!redisUrl) {
    const where = process.env.TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
    if (process.env.CI) {
      await pg.stop();
      throw new Error(`No Redis answers at ${where} (TEST_REDIS_URL): CI must test the Redis rate-limit store (.ci/run starts redis-server).`);
    }
    process.stderr.write(
      `No Redis answers at ${where} (TEST_REDIS_URL): the Redis rate-limit store was not exercised; the Postgres store (the default) was.\n`,
    );
  }
  const template = await provideMigratedTemplate().catch(async (error: unknown) => {
    await pg.stop();
    throw error;
  });
  const db = await createTestDatabase('it').catch(async (error: unknown) => {
    await template.drop();
    await pg.stop();
    throw error;
  });
  const superToken = generateApiKeyToken('test');
  const logDir = path.join(ROOT, 'test-results');
  mkdirSync(logDir, { recursive: true });
  const serverLogFile = path.join(logDir, 'vitest-server.log');
  const server = await startServerProcess(
    {
      DATABASE_URL: db.url,
      BOOTSTRAP_SUPERUSER_TOKEN: superToken,
      ...SHARED_SERVICE_LIMITS,
    },
    serverLogFile,
  ).catch(async (error: unknown) => {
    await db.drop(); // no teardown runs when setup fails: leave no database behind
    await template.drop();
    await pg.stop();
    throw error;
  });
  project.provide('baseUrl', server.url);
  project.provide('superToken', superToken);
  project.provide('databaseUrl', db.url);
  project.provide('serverLogFile', serverLogFile);
  project.provide('redisUrl', redisUrl);

  return async () => {
    await server.stop();
    await db.drop();
    await template.drop();
    await pg.stop();
  };
}
