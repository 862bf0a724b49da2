import { describe, expect, it } from 'vitest';
import { AppError } from '@/server/errors';
import { expectedVersion } from './locking';

describe('expectedVersion', () => {
  it('reads If-Match in its common forms, or the body version', () => {
    expect(expectedVersion('"3"', undefined)).toBe(3);
    expect(expectedVersion('W/"3"', undefined)).toBe(3);
    expect(expectedVersion('3', undefined)).toBe(3);
    expect(expectedVersion(undefined, 4)).toBe(4);
    expect(expectedVersion(undefined, undefined)).toBeUndefined();
    expect(expectedVersion('*', undefined)).toBeUndefined();
  });

  it('rejects a malformed If-Match and a disagreement with the body', () => {
    expect(() => expectedVersion('"abc"', undefined)).toThrow(AppError);
    expect(() => expectedVersion('"3"', 4)).toThrow(/disagree/);
  });
});
