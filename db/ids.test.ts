import { describe, expect, it, vi } from 'vitest';
import { isId, newId, pooledRandomBytes } from './ids';

describe('prefixed ids', () => {
  it('carry the kind’s prefix and 26 base32 characters', () => {
    const id = newId('network');
    expect(id).toMatch(/^net_[0-9a-hjkmnp-tv-z]{26}$/);
    expect(isId('network', id)).toBe(true);
    expect(isId('apiKey', id)).toBe(false);
  });

  it('sort in creation order, also within one millisecond', () => {
    const ids = Array.from({ length: 2000 }, () => newId('event'));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('newId, bit for bit', () => {
  /** The encoding newId keeps: 48 bits of milliseconds, then 80 bits, Crockford base32 (as BigInt arithmetic spells it). */
  const reference = (ms: bigint, random: bigint) => {
    const encode = (value: bigint, length: number) =>
      Array.from({ length }, (_, i) => '0123456789abcdefghjkmnpqrstvwxyz'[Number((value >> BigInt(5 * (length - 1 - i))) & 31n)]).join('');
    return `${encode(ms, 10)}${encode(random, 16)}`;
  };

  it('spells the time and the random part as 26 characters, and counts up within a millisecond', () => {
    vi.useFakeTimers({ now: 1_900_000_000_000, toFake: ['Date'] });
    try {
      const first = newId('campaign').slice('cmp_'.length);
      const second = newId('campaign').slice('cmp_'.length);
      expect(first.slice(0, 10)).toBe(reference(1_900_000_000_000n, 0n).slice(0, 10));
      const random = BigInt(
        `0b${[...first.slice(10)].map((c) => '0123456789abcdefghjkmnpqrstvwxyz'.indexOf(c).toString(2).padStart(5, '0')).join('')}`,
      );
      expect(first).toBe(reference(1_900_000_000_000n, random));
      expect(second).toBe(reference(1_900_000_000_000n, (random + 1n) % 2n ** 80n));
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('pooledRandomBytes', () => {
  it('never hands out the same bytes twice, across blocks, and leaves what it gave as given', () => {
    const given = Array.from({ length: 1000 }, () => pooledRandomBytes(12));
    const copies = given.map((b) => Buffer.from(b));
    expect(new Set(given.map((b) => b.toString('hex'))).size).toBe(given.length);
    expect(given.every((b, i) => b.length === 12 && b.equals(copies[i]!))).toBe(true);
    expect(pooledRandomBytes(5000)).toHaveLength(5000);
  });
});
