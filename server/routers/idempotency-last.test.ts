import { describe, expect, it } from 'vitest';
import { idempotent } from '@/server/trpc';
import { appRouter } from './index';

type Middleware = ((...args: unknown[]) => unknown) & { _type?: string };

describe('the idempotency step', () => {
  it('is the last middleware of every procedure, so a replay passes every check a new request passes', () => {
    const step = (idempotent as unknown as { _middlewares: Middleware[] })._middlewares[0];
    const misplaced: string[] = [];
    for (const [name, procedure] of Object.entries(appRouter._def.procedures)) {
      const middlewares = (procedure as unknown as { _def: { middlewares: Middleware[] } })._def.middlewares;
      // After it come only tRPC's own steps: parsing the input and output, and the resolver itself.
      const own = middlewares.filter((m) => m._type !== 'input' && m._type !== 'output');
      if (own.at(-2) !== step) misplaced.push(name);
    }
    expect(misplaced).toEqual([]);
  });
});
