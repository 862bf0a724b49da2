import { initTRPC } from '@trpc/server';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { appRouter } from '@/server/routers';
import { checkOutputs, type OutputCheck } from './output-checks';

const t = initTRPC.create();
const item = z.object({ id: z.string(), name: z.string().trim() });

function caller(mode: OutputCheck, answer: unknown) {
  const router = t.router({ get: t.procedure.output(item).query(() => answer as z.infer<typeof item>) });
  checkOutputs(router, () => mode);
  return t.createCallerFactory(router)({});
}

describe('checkOutputs', () => {
  it('strict: an answer that matches its schema goes out unchanged', async () => {
    await expect(caller('strict', { id: 'a', name: 'b' }).get()).resolves.toEqual({ id: 'a', name: 'b' });
  });

  it('strict: an undeclared field fails the request, naming where and never the value', async () => {
    const error = (await caller('strict', { id: 'a', name: 'b', token: 'sk_test_shown_once' })
      .get()
      .catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain('get');
    expect(error.message).toContain('$.token');
    expect(error.message).not.toContain('sk_test_shown_once');
  });

  it('strict: a value the schema would change, or one it refuses, fails', async () => {
    await expect(caller('strict', { id: 'a', name: ' b ' }).get()).rejects.toThrow('$.name');
    await expect(caller('strict', { id: 1, name: 'b' }).get()).rejects.toThrow('Output validation failed');
  });

  it('parse (production): the parse goes out, without an undeclared field; an answer that does not parse fails', async () => {
    await expect(caller('parse', { id: 'a', name: ' b ', token: 'sk_test_shown_once' }).get()).resolves.toStrictEqual({ id: 'a', name: 'b' });
    await expect(caller('parse', { id: 1, name: 'b' }).get()).rejects.toThrow('Output validation failed');
  });

  it("every procedure of the app router with an output schema has this check instead of tRPC's parse", () => {
    const procedures = Object.entries(
      appRouter._def.procedures as unknown as Record<string, { _def: { output?: unknown; middlewares: Array<{ name: string; _type?: string }> } }>,
    );
    const withOutput = procedures.filter(([, p]) => p._def.output);
    expect(withOutput.length).toBeGreaterThan(60);
    for (const [path, p] of withOutput) {
      const outputs = p._def.middlewares.filter((m) => m._type === 'output');
      expect(
        outputs.map((m) => m.name),
        path,
      ).toEqual(['check']);
    }
  });
});
