import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import { isOneClickUnsubscribe, MAX_INPUT_DEPTH, parseJsonBody, refuseUnsafeHeaders, refuseUnsafeInput, refuseUnsafeTarget } from './body';

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

describe('isOneClickUnsubscribe', () => {
  it('knows RFC 8058’s one-click body, URL-encoded or multipart, and nothing else', () => {
    const form = 'application/x-www-form-urlencoded';
    expect(isOneClickUnsubscribe(Buffer.from('List-Unsubscribe=One-Click'), form)).toBe(true);
    expect(isOneClickUnsubscribe(Buffer.from('List-Unsubscribe=One-Click'), 'application/json')).toBe(false);
    expect(isOneClickUnsubscribe(Buffer.from('List-Unsubscribe=Yes'), form)).toBe(false);
    const multipart = '--b\r\nContent-Disposition: form-data; name="List-Unsubscribe"\r\n\r\nOne-Click\r\n--b--\r\n';
    expect(isOneClickUnsubscribe(Buffer.from(multipart), 'multipart/form-data; boundary=b')).toBe(true);
    expect(isOneClickUnsubscribe(Buffer.from(multipart.replace('One-Click', 'Never')), 'multipart/form-data; boundary=b')).toBe(false);
  });
});

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

  it('refuses a lone UTF-16 surrogate, high or low, in any string or key; a pair is one character', () => {
    for (const input of [{ key_name: '\ud800' }, { name: 'x\udfff' }, { '\udbff': 1 }, ['a', { b: ['\ud800\ud800\udc00'] }], '\udc00\ud800']) {
      expect(refusal(input)?.detail, JSON.stringify(input)).toMatch(/lone UTF-16 surrogate/);
    }
    expect(refusal({ name: 'mic \ud83c\udf99\ufe0f', 'clé 🎧': '\u{1F3A7}' })).toBeUndefined();
    expect(refusal({ name: 'a\0\ud800' })?.detail).toMatch(/NUL character/);
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

describe('refuseUnsafeTarget and refuseUnsafeHeaders', () => {
  it('refuse %00 and percent-encoding that is not UTF-8 (an encoded lone surrogate); UTF-8 and a bare % pass', () => {
    expect(refusedBy(() => refuseUnsafeTarget('/networks/%00'))?.detail).toMatch(/NUL character/);
    for (const url of ['/me?x=%ED%A0%80', '/a/%ed%bf%bf', '/me?x=%FF', '/me?x=%C3']) {
      expect(refusedBy(() => refuseUnsafeTarget(url))?.detail, url).toMatch(/not percent-encoded UTF-8/);
    }
    for (const url of ['/me?x=caf%C3%A9', '/me?x=%F0%9F%8E%A7', '/me?x=100%', '/me?x=%zz%C3%A9', '/networks/net_1?limit=5']) {
      expect(
        refusedBy(() => refuseUnsafeTarget(url)),
        url,
      ).toBeUndefined();
    }
  });

  it('refuse a header value carrying a surrogate as UTF-8 would (ED A0–BF), and nothing else', () => {
    expect(refusedBy(() => refuseUnsafeHeaders(['Host', 'x', 'X-Note', '\xed\xa0\x80']))?.detail).toMatch(/X-Note header carries a UTF-16 surrogate/);
    expect(refusedBy(() => refuseUnsafeHeaders(['X-Note', 'caf\xe9', 'X-Emoji', '\xf0\x9f\x8e\xa7', 'X-Korean', '\xed\x95\x9c']))).toBeUndefined();
  });
});
