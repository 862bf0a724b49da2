import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createAppServer } from './server';

let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

describe('createAppServer, the last resort', () => {
  it('answers a handler that fails with a 500 problem that names the request, is not cached and not sniffed', async () => {
    const server = createAppServer(() => Promise.reject(new Error('boom')));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    close = () => new Promise((resolve) => server.close(() => resolve()));
    const { port } = server.address() as AddressInfo;

    const res = await fetch(`http://127.0.0.1:${port}/console`, { headers: { 'x-request-id': 'req-last-resort' } });

    expect(res.status).toBe(500);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(res.headers.get('request-id')).toBe('req-last-resort');
    expect(res.headers.get('cache-control')).toBe('no-store');
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(await res.json()).toMatchObject({ status: 500, detail: 'An unexpected error occurred. It is safe to retry the request.' });
  });
});
