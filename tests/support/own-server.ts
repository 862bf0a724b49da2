import { afterAll, beforeAll } from 'vitest';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { api } from './api';
import { startOwnServer, type ServerProcess } from './server-process';

/**
 * For a test file whose settings the shared server must not have (small limits, private webhook
 * targets…): a service of its own (`startOwnServer`, on a fresh database) with a super_user token of
 * its own, started before the file's tests and stopped after. `env` is read when it starts, so it
 * may name what an earlier `beforeAll` started (`() => ({ SYNTH_BASE_URL: vendor.url })`).
 * `call` sends a request to it as that super_user, or with the token `as` gives (null: none).
 */
export function useOwnServer(label: string, env: Record<string, string> | (() => Record<string, string>) = {}, startTimeoutMs?: number) {
  let token = '';
  let started: Awaited<ReturnType<typeof startOwnServer>> | undefined;
  beforeAll(async () => {
    const settings = typeof env === 'function' ? env() : env;
    token = generateApiKeyToken(settings.APP_ENV === 'live' ? 'live' : 'test');
    started = await startOwnServer(label, { BOOTSTRAP_SUPERUSER_TOKEN: token, ...settings });
  }, startTimeoutMs);
  afterAll(async () => {
    await started?.stop();
  });
  return {
    /** Its super_user token (`sk_live_…` when `env` says APP_ENV=live), once it has started. */
    get token(): string {
      return token;
    },
    get server(): ServerProcess {
      return started!.server;
    },
    get databaseUrl(): string {
      return started!.databaseUrl;
    },
    call: <T = Record<string, unknown>>(method: string, path: string, body?: unknown, as?: string | null) =>
      api<T>(method, path, { token: as === undefined ? token : as, baseUrl: started!.server.url, body }),
  };
}
