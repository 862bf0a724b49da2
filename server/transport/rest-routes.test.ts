import { describe, expect, it } from 'vitest';
import { appRouter } from '@/server/routers';
import { compileRestRoutes, queryInput } from './rest-routes';

type Meta = { openapi?: { method: string; path: string } };

describe('the /v1 route table', () => {
  const findRoute = compileRestRoutes(appRouter);
  const operations = Object.entries(appRouter._def.procedures).map(([path, p]) => ({
    path,
    openapi: (p as unknown as { _def: { meta?: Meta } })._def.meta!.openapi!,
  }));

  it('routes every documented operation to its own procedure, with the path parameters decoded', () => {
    expect(operations.length).toBeGreaterThan(50);
    for (const { path, openapi } of operations) {
      const params = [...openapi.path.matchAll(/\{(.+?)\}/g)].map(([, name]) => name!);
      const url = openapi.path.replace(/\{(.+?)\}/g, (_, name: string) => `v_${name}_1`);
      const found = findRoute(openapi.method, url);
      expect(found?.route.path, `${openapi.method} ${openapi.path}`).toBe(path);
      expect(found!.pathInput).toEqual(Object.fromEntries(params.map((name) => [name, `v_${name}_1`])));
    }
  });

  it('finds nothing for an unknown path or a method the path does not have', () => {
    expect(findRoute('GET', '/nothing-here')).toBeUndefined();
    expect(findRoute('PUT', '/networks')).toBeUndefined();
    expect(findRoute('DELETE', '/me')).toBeUndefined();
  });
});

describe('query input', () => {
  it('takes one value as itself, a repeated parameter as a list, and an array field always as a list', () => {
    const params = new URLSearchParams('limit=5&status=a&status=b&events=x');
    expect(queryInput(params, [])).toEqual({ limit: '5', status: ['a', 'b'], events: 'x' });
    expect(queryInput(params, ['events'])).toEqual({ limit: '5', status: ['a', 'b'], events: ['x'] });
  });
});
