import { isDeepStrictEqual } from 'node:util';
import type { AnyRouter } from '@trpc/server';
import { TRPCError } from '@trpc/server';
import type { ZodType } from 'zod';
import { config } from './config';

/**
 * How a procedure's answer is checked against its `.output()` schema (the schema that makes the
 * OpenAPI document and types the handler), in place of tRPC's own output step:
 *
 * - `parse` (NODE_ENV=production): as tRPC does — the answer must parse, and what goes out is
 *   the parse, so a field a presenter adds by mistake is dropped, never sent (docs/SECURITY.md,
 *   API3). It costs a /v1 list page ~4 % of its CPU (docs/PERFORMANCE.md, "/v1 at the speed of a
 *   bare server"); kept, as the second line behind the presenters.
 * - `strict` (every other process: the vitest suites, `npm run dev`): the answer must parse AND
 *   parsing must not change it. An undeclared field, a trimmed or defaulted value fail the request
 *   with a 500 naming the procedure and the place, so the test that called it fails instead of
 *   the parse hiding the mistake.
 *
 * The one place this is decided: every procedure of `router` gets it, replacing the middleware
 * `.output()` adds (tRPC marks it `_type: 'output'`).
 */
export type OutputCheck = 'strict' | 'parse';

interface OutputMiddleware {
  (opts: { next: () => Promise<{ ok: boolean; data?: unknown }>; path: string }): Promise<unknown>;
  _type?: string;
}

export function checkOutputs(router: AnyRouter, mode: () => OutputCheck): void {
  const procedures = router._def.procedures as Record<string, { _def: { middlewares: OutputMiddleware[]; output?: ZodType } }>;
  for (const [path, procedure] of Object.entries(procedures)) {
    const { middlewares, output } = procedure._def;
    const at = middlewares.findIndex((m) => m._type === 'output');
    if (at < 0 || !output) continue;
    const check: OutputMiddleware = async ({ next }) => {
      const result = await next();
      if (!result.ok) return result;
      const parsed = output.safeParse(result.data);
      if (!parsed.success) {
        throw new TRPCError({ code: 'INTERNAL_SERVER_ERROR', message: `Output validation failed (${path})`, cause: parsed.error });
      }
      if (mode() === 'parse') return { ...result, data: parsed.data };
      // What goes on the wire: JSON drops undefined fields on both sides.
      const wire = (value: unknown): unknown => (value === undefined ? undefined : JSON.parse(JSON.stringify(value)));
      const where = firstDifference(wire(parsed.data), wire(result.data), '$');
      if (where !== undefined) {
        // Names the place, never the values: an answer may carry a token shown once.
        throw new TRPCError({
          code: 'INTERNAL_SERVER_ERROR',
          message: `Output of ${path} differs from its schema's parse at ${where} (an undeclared field, or a value the schema changes)`,
        });
      }
      return result;
    };
    check._type = 'output';
    middlewares[at] = check;
  }
}

/** The JSON path of the first place where `a` and `b` differ, or undefined when they are equal. */
function firstDifference(a: unknown, b: unknown, at: string): string | undefined {
  if (isDeepStrictEqual(a, b)) return undefined;
  if (Array.isArray(a) && Array.isArray(b) && a.length === b.length) {
    for (let i = 0; i < a.length; i++) {
      const inner = firstDifference(a[i], b[i], `${at}[${i}]`);
      if (inner) return inner;
    }
  }
  if (a && b && typeof a === 'object' && typeof b === 'object' && !Array.isArray(a) && !Array.isArray(b)) {
    const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
    for (const key of keys) {
      const inner = firstDifference((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key], `${at}.${key}`);
      if (inner) return inner;
    }
  }
  return at;
}

let production: boolean | undefined;
/** NODE_ENV as configured (read once, at the first answer: `npm start` sets the configuration before serving). */
export const outputCheckOfProcess = (): OutputCheck => ((production ??= config().NODE_ENV === 'production') ? 'parse' : 'strict');
