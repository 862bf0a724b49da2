import { afterAll, beforeAll } from 'vitest';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { startOwnServer, type ServerProcess } from './server-process';
import { startWebhookReceiver } from './webhook-receiver';

/**
 * For a test file: a service of its own that may deliver to a real receiver on 127.0.0.1 and
 * retries fast (`WEBHOOK_RETRY_SCHEDULE`), with its super_user token. Set `secret` to the
 * subscription secret the receiver should verify with. Started before the file's tests, stopped after.
 */
export function useDeliveringServer(label: string, env: Record<string, string> = {}) {
  const it = {
    token: generateApiKeyToken('test'),
    secret: '',
    server: undefined as unknown as ServerProcess,
    receiver: undefined as unknown as Awaited<ReturnType<typeof startWebhookReceiver>>,
  };
  let stop: (() => Promise<void>) | undefined;
  beforeAll(async () => {
    it.receiver = await startWebhookReceiver(() => it.secret);
    const own = await startOwnServer(label, {
      BOOTSTRAP_SUPERUSER_TOKEN: it.token,
      WEBHOOK_ALLOW_PRIVATE: '1',
      WEBHOOK_RETRY_SCHEDULE: '0,0.3,0.3',
      WEBHOOK_TIMEOUT_MS: '1000',
      ...env,
    });
    it.server = own.server;
    stop = own.stop;
  });
  afterAll(async () => {
    await stop?.();
    await it.receiver?.close();
  });
  return it;
}
