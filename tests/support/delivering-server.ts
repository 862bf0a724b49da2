import { afterAll, beforeAll } from 'vitest';
import { useOwnServer } from './own-server';
import { startWebhookReceiver, type WebhookReceiver } from './webhook-receiver';

/**
 * For a test file: a service of its own (`useOwnServer`) that may deliver to a real receiver on
 * 127.0.0.1 and retries fast (`WEBHOOK_RETRY_SCHEDULE`), with its super_user token. Set `secret` to
 * the subscription secret the receiver should verify with. Started before the file's tests, stopped
 * after.
 */
export function useDeliveringServer(label: string, env: Record<string, string> = {}) {
  const delivering = Object.assign(
    useOwnServer(label, { WEBHOOK_ALLOW_PRIVATE: '1', WEBHOOK_RETRY_SCHEDULE: '0,0.3,0.3', WEBHOOK_TIMEOUT_MS: '1000', ...env }),
    { secret: '', receiver: undefined as unknown as WebhookReceiver },
  );
  beforeAll(async () => {
    delivering.receiver = await startWebhookReceiver(() => delivering.secret);
  });
  afterAll(async () => {
    await delivering.receiver?.close();
  });
  return delivering;
}
