import { once } from 'node:events';
import { describe, expect, it } from 'vitest';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { api } from '@/tests/support/api';
import { startOwnServer } from '@/tests/support/server-process';

/**
 * Request logs are written asynchronously, in 4 KiB batches (server/logger.ts): what is still
 * buffered when the process is told to stop must reach the log before it exits.
 */
describe('request logs on SIGTERM', () => {
  it('loses no line: every request answered before the signal is in the log', async () => {
    const superToken = generateApiKeyToken('test');
    const own = await startOwnServer('logs-sigterm', { BOOTSTRAP_SUPERUSER_TOKEN: superToken, WORKER: 'off' });
    const ids = Array.from({ length: 150 }, (_, i) => `sigterm-line-${i}`);
    try {
      for (let i = 0; i < ids.length; i += 10) {
        await Promise.all(
          ids.slice(i, i + 10).map(async (id) => {
            const res = await api('GET', '/me', { token: superToken, baseUrl: own.server.url, headers: { 'x-request-id': id } });
            expect(res.status).toBe(200);
          }),
        );
      }
    } finally {
      // At once: the last lines are still in the logger's buffer (it flushes 4 KiB or once a second).
      const stdout = own.server.child.stdout!;
      const drained = stdout.readableEnded ? Promise.resolve() : once(stdout, 'end');
      expect(await own.server.stop('SIGTERM')).toBe(0);
      await drained; // everything the process wrote before it exited, read
      await own.stop();
    }
    const logged = new Set(
      own.server
        .output()
        .split('\n')
        .filter((l) => l.startsWith('{'))
        .map((l) => JSON.parse(l) as { msg?: string; requestId?: string })
        .filter((l) => l.msg === 'request')
        .map((l) => l.requestId),
    );
    expect(ids.filter((id) => !logged.has(id))).toEqual([]);
  });
});
