import { describe, expect, it } from 'vitest';
import { api, envelopeKeys } from '@/tests/support/api';

/** The /v1 route table (server/transport/rest-routes.ts) reads paths as trpc-to-openapi's handler did. */
describe('/v1 routing', () => {
  it('reads a doubled slash as part of the path, never as a host: //me/networks is no route, not GET /networks', async () => {
    const res = await api('GET', '//me/networks');
    expect(res.status).toBe(404);
    expect(res.headers.get('content-type')).toBe('application/problem+json');
    expect(envelopeKeys(res.body)).toEqual(['detail', 'status', 'title', 'type']);
  });

  it('answers a bare /v1 with a query string with 404, not 500', async () => {
    const res = await api('GET', '?limit=5');
    expect(res.status).toBe(404);
    expect(envelopeKeys(res.body)).toEqual(['detail', 'status', 'title', 'type']);
  });

  it('routes a trailing slash and any letter case as the document’s path', async () => {
    const [trailing, upper] = await Promise.all([api('GET', '/me/'), api('GET', '/ME')]);
    expect(trailing.status).toBe(200);
    expect(upper.status).toBe(200);
    expect(trailing.body).toMatchObject({ super_user: true });
  });
});
