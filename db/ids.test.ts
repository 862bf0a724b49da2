import { describe, expect, it } from 'vitest';
import { isId, newId } from './ids';

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
