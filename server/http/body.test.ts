import { describe, expect, it } from 'vitest';
import { parseJsonBody } from './body';

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
});
