import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseTarget } from './rest';

/** What the WHATWG URL parser makes of a request target (the reading parseTarget must keep). */
function byUrl(target: string) {
  const url = new URL(`http://127.0.0.1${target}`);
  return { pathname: url.pathname, query: url.search.slice(1) };
}

describe('parseTarget', () => {
  it('reads plain targets as the URL parser does, without one', () => {
    expect(parseTarget('/networks/net_1/campaigns?limit=5&cursor=a%2Bb')).toEqual({
      pathname: '/networks/net_1/campaigns',
      query: 'limit=5&cursor=a%2Bb',
    });
    expect(parseTarget('/me')).toEqual({ pathname: '/me', query: '' });
  });

  it('leaves what a URL parser rewrites to the URL parser: dot segments, escapes, backslashes, fragments', () => {
    expect(parseTarget('/networks/x/../keys')).toEqual({ pathname: '/networks/keys', query: '' });
    expect(parseTarget('/networks/%2e%2e/keys')).toEqual({ pathname: '/keys', query: '' });
    expect(parseTarget('/networks\\x')).toEqual({ pathname: '/networks/x', query: '' });
    expect(parseTarget('/me?a=1#b')).toEqual({ pathname: '/me', query: 'a=1' });
  });

  it('agrees with the URL parser on any target', () => {
    const char = fc.constantFrom(...'aZ09_-./\\%2e?#=&+ ,:~"\'<>é'.split(''));
    fc.assert(
      fc.property(fc.array(char, { maxLength: 24 }), (chars) => {
        const target = `/${chars.join('')}`;
        expect(parseTarget(target)).toEqual(byUrl(target));
      }),
      { numRuns: 3000 },
    );
  });
});
