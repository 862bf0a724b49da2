import postgres from 'postgres';
import { afterAll, beforeAll } from 'vitest';
import { generateApiKeyToken, type KeyEnvironment } from '@/server/auth/tokens';
import { api } from './api';
import { startOwnServer, type ServerProcess } from './server-process';

/**
 * For a test file whose settings the shared server must not have (small limits, private webhook
 * targets…): a service of its own (`startOwnServer`, on a fresh database) with a super_user token of
 * its own, started before the file's tests and stopped after. `env` is read when it starts, so it
 * may name what an earlier `beforeAll` started (`() => ({ SYNTH_BASE_URL: vendor.url })`).
 * `call` sends a request to it as that super_user, or with the token `as` gives (null: none).
 * `mode: 'live'` starts it with APP_ENV=live and a `sk_live_` super_user token.
 */
export function useOwnServer(
  label: string,
  env: Record<string, string> | (() => Record<string, string>) = {},
  { startTimeoutMs, mode = 'test' }: { startTimeoutMs?: number; mode?: KeyEnvironment } = {},
) {
  const token = generateApiKeyToken(mode);
  let started: Awaited<ReturnType<typeof startOwnServer>> | undefined;
  beforeAll(async () => {
    started = await startOwnServer(label, { BOOTSTRAP_SUPERUSER_TOKEN: token, APP_ENV: mode, ...(typeof env === 'function' ? env() : env) });
  }, startTimeoutMs);
  let sql: postgres.Sql | undefined;
  afterAll(async () => {
    await sql?.end();
    await started?.stop();
  });
  return {
    token,
    get server(): ServerProcess {
      return started!.server;
    },
    get databaseUrl(): string {
      return started!.databaseUrl;
    },
    /** A connection of the test's own to that database (opened on first use), for what only the database tells or sets. */
    get sql(): postgres.Sql {
      return (sql ??= postgres(started!.databaseUrl, { max: 1, onnotice: () => undefined }));
    },
    call: <T = Record<string, unknown>>(method: string, path: string, body?: unknown, as: string | null = token) =>
      api<T>(method, path, { token: as, baseUrl: started!.server.url, body }),
  };
}
