import { describe, expect, it } from 'vitest';
import { api } from './support/api';
import { appRouter } from '@/server/routers';

interface Operation {
  responses: Record<string, { content?: Record<string, { schema: { $ref?: string } }> }>;
  parameters?: Array<{ name: string; in: string }>;
}

describe('GET /v1/openapi.json', () => {
  it('is served without authentication and documents every procedure', async () => {
    const res = await api<{ openapi: string; paths: Record<string, Record<string, Operation>> }>('GET', '/openapi.json', { token: null });
    expect(res.status).toBe(200);
    expect(res.body.openapi).toMatch(/^3\.1/);
    const documented = Object.entries(res.body.paths).flatMap(([path, item]) => Object.keys(item).map((m) => `${m.toUpperCase()} ${path}`));
    const procedures = Object.values(appRouter._def.procedures).map((p) => {
      const openapi = (p as unknown as { _def: { meta?: { openapi?: { method: string; path: string } } } })._def.meta?.openapi;
      return `${openapi!.method} ${openapi!.path}`;
    });
    expect(documented.sort()).toEqual(procedures.sort());
    expect(documented).toEqual(
      expect.arrayContaining([
        'GET /me',
        'GET /networks',
        'POST /networks',
        'GET /networks/{networkId}',
        'PATCH /networks/{networkId}',
        'GET /networks/{networkId}/events',
        'GET /event-types',
      ]),
    );
  });

  it('describes every error response as the problem envelope, and POSTs as idempotent', async () => {
    const res = await api<{ paths: Record<string, Record<string, Operation>>; components: { schemas: Record<string, unknown> } }>(
      'GET',
      '/openapi.json',
      { token: null },
    );
    expect(res.body.components.schemas.Problem).toBeTruthy();
    for (const [path, item] of Object.entries(res.body.paths)) {
      for (const [method, op] of Object.entries(item)) {
        const errors = Object.entries(op.responses).filter(([code]) => Number(code) >= 400);
        expect(errors.length, `${method} ${path}`).toBeGreaterThan(0);
        for (const [, response] of errors) {
          expect(response.content!['application/problem+json']!.schema.$ref).toBe('#/components/schemas/Problem');
        }
        // Every POST but the one that changes nothing (the preview: its audio is made anew each time)
        // and the ones no credential owns (asking for a sign-in link or a passkey challenge), a
        // passkey sign-in (its challenge works once: a retry starts again) and an unsubscribe link's
        // (a mail client's one-click POST sends no key; the same change however often).
        const withoutKey = ['/sign-in/email', '/sign-in/passkey/options', '/sign-in/passkey', '/notifications/unsubscribe'];
        const takesKey = method === 'post' && !path.endsWith('/preview') && !withoutKey.includes(path);
        if (method === 'post') expect(op.parameters?.map((p) => p.name).includes('Idempotency-Key') ?? false, `${method} ${path}`).toBe(takesKey);
      }
    }
    expect(Object.keys(res.body.paths['/networks']!.post!.responses)).toContain('201');
  });
});
