import { mkdirSync } from 'node:fs';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { generateApiKeyToken } from '../../server/auth/tokens';
import { createTestDatabase } from './database';
import { ROOT, startServerProcess } from './server-process';

declare module 'vitest' {
  export interface ProvidedContext {
    baseUrl: string;
    superToken: string;
    databaseUrl: string;
    serverLogFile: string;
  }
}

/**
 * One fresh database and one service process, started the way a user starts
 * it, shared by the HTTP tests of this run.
 */
export default async function setup(project: TestProject) {
  const db = await createTestDatabase('it');
  const superToken = generateApiKeyToken('test');
  const logDir = path.join(ROOT, 'test-results');
  mkdirSync(logDir, { recursive: true });
  const serverLogFile = path.join(logDir, 'vitest-server.log');
  const server = await startServerProcess(
    {
      DATABASE_URL: db.url,
      BOOTSTRAP_SUPERUSER_TOKEN: superToken,
      // Generous limits: the rate-limit tests start their own server with small ones.
      RATE_LIMIT_PER_SECOND: '10000',
      RATE_LIMIT_BURST: '10000',
      AUTH_FAILURE_LIMIT_PER_MINUTE: '100000',
    },
    serverLogFile,
  ).catch(async (error: unknown) => {
    await db.drop(); // no teardown runs when setup fails: leave no database behind
    throw error;
  });
  project.provide('baseUrl', server.url);
  project.provide('superToken', superToken);
  project.provide('databaseUrl', db.url);
  project.provide('serverLogFile', serverLogFile);

  return async () => {
    await server.stop();
    await db.drop();
  };
}
