import { describe, expect, it } from 'vitest';
import { useOwnServer } from '@/tests/support/own-server';

/** `CONSOLE=off npm start` (docs/running.md): the API alone, without Next. */
const own = useOwnServer('apionly', { WORKER: 'off', CONSOLE: 'off' });

describe('a service started with CONSOLE=off', () => {
  it('answers /v1, /api/trpc and /healthz', async () => {
    expect((await own.call('GET', '/me')).status).toBe(200);
    expect((await fetch(`${own.server.url}/healthz`)).status).toBe(200);
    const trpc = await fetch(`${own.server.url}/api/trpc/me.get`, { headers: { authorization: `Bearer ${own.token}` } });
    expect(trpc.status).toBe(200);
  });

  it('answers 404 in the error envelope for the console and /docs, which it does not serve', async () => {
    for (const page of ['/', '/console', '/docs']) {
      const res = await fetch(`${own.server.url}${page}`);
      expect(res.status, page).toBe(404);
      expect(res.headers.get('content-type'), page).toBe('application/problem+json');
      expect(((await res.json()) as { type: string }).type, page).toMatch(/\/errors\/not-found$/);
    }
  });
});
