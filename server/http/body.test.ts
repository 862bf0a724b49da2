import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import { MAX_INPUT_DEPTH, parseJsonBody, refuseUnsafeInput } from './body';

/** `{"a":[[…[]…]]}`: an object holding arrays nested until `depth` levels of objects and arrays in all. */
const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;

/** The AppError `run` throws, or undefined when it throws nothing. */
function refusedBy(run: () => unknown): AppError | undefined {
  try {
    run();
    return undefined;
  } catch (error) {
    if (error instanceof AppError) return error;
    throw error;
  }
}

const refusal = (input: unknown) => refusedBy(() => refuseUnsafeInput(input));

describe('parseJsonBody', () => {
  it('treats an empty body as {}', () => {
    expect(parseJsonBody(Buffer.from(''), undefined)).toEqual({});
    expect(parseJsonBody(Buffer.from('  \n'), 'application/json')).toEqual({});
  });

  it('parses JSON and refuses invalid JSON and non-JSON media types', () => {
    expect(parseJsonBody(Buffer.from('{"a":1}'), 'application/json; charset=utf-8')).toEqual({ a: 1 });
    expect(() => parseJsonBody(Buffer.from('{"a":'), 'application/json')).toThrow(/not valid JSON/);
    expect(() => parseJsonBody(Buffer.from('a=1'), 'application/x-www-form-urlencoded')).toThrow(/Content-Type/);
  });

  it('refuses a body nested past the limit with a 400, however deep (a 40 kB body 20,000 deep overflowed the stack)', () => {
    expect(parseJsonBody(Buffer.from(nested(MAX_INPUT_DEPTH)), 'application/json')).toBeTypeOf('object');
    for (const depth of [MAX_INPUT_DEPTH + 1, 20_000, 200_000]) {
      const error = refusedBy(() => parseJsonBody(Buffer.from(nested(depth)), 'application/json'));
      expect(error?.kind, `depth ${depth}`).toBe('bad-request');
      expect(error?.detail).toMatch(/more than 32 levels deep/);
    }
  });
});

describe('refuseUnsafeInput', () => {
  it('refuses a NUL in any string or key, at any depth it allows', () => {
    expect(refusal({ name: 'a\0b' })?.detail).toMatch(/NUL character/);
    expect(refusal({ 'a\0': 1 })?.detail).toMatch(/NUL character/);
    expect(refusal({ scopes: [{ network_id: 'net_\0', role: 'read_only' }] })?.detail).toMatch(/NUL character/);
    expect(refusal('\0')?.detail).toMatch(/NUL character/);
    expect(refusal({ scopes: [{ network_id: 'net_1', role: 'read_only' }], n: 1, ok: true, none: null })).toBeUndefined();
  });

  it('counts objects and arrays alike, and lets a wide input through', () => {
    const chain = (depth: number): unknown => {
      let value: unknown = 'leaf';
      for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { v: value };
      return value;
    };
    expect(refusal(chain(MAX_INPUT_DEPTH))).toBeUndefined();
    expect(refusal(chain(MAX_INPUT_DEPTH + 1))?.detail).toMatch(/levels deep/);
    expect(refusal({ items: Array.from({ length: 100_000 }, (_, i) => ({ i })) })).toBeUndefined();
  });
});
