import { describe, expect, it } from 'vitest';
import type { Principal } from '@/server/auth/principal';
import { assertWithinCreatorAccess, covers } from './key-access';

const principal = (scopes: Record<string, 'read_only' | 'administrator'>, superUser = false, identifiesOwner = true): Principal => ({
  keyId: 'key_x',
  keyName: 'x',
  superUser,
  userId: 'usr_x',
  serviceAccountId: null,
  ownerName: 'X',
  identifiesOwner,
  session: false,
  mode: 'test',
  scopes: new Map(Object.entries(scopes)),
  otherModeScopes: new Set(),
  expiresAt: null,
});

describe('key access rules', () => {
  it('allows equal or lower roles on networks the creator holds', () => {
    const creator = principal({ net_a: 'administrator', net_b: 'read_only' });
    expect(() =>
      assertWithinCreatorAccess(creator, {
        superUser: false,
        scopes: [
          { networkId: 'net_a', role: 'read_only' },
          { networkId: 'net_a', role: 'administrator' },
          { networkId: 'net_b', role: 'read_only' },
        ],
      }),
    ).not.toThrow();
  });

  it('refuses a network the creator does not hold, and a higher role (rule 6)', () => {
    const creator = principal({ net_a: 'read_only' });
    expect(() => assertWithinCreatorAccess(creator, { superUser: false, scopes: [{ networkId: 'net_b', role: 'read_only' }] })).toThrow(/rule 6/);
    expect(() => assertWithinCreatorAccess(creator, { superUser: false, scopes: [{ networkId: 'net_a', role: 'administrator' }] })).toThrow(
      /read_only on network net_a, not administrator/,
    );
  });

  it('lets only a super_user mint a super_user key (rule 7)', () => {
    expect(() => assertWithinCreatorAccess(principal({ net_a: 'administrator' }), { superUser: true, scopes: [] })).toThrow(/rule 7/);
    expect(() =>
      assertWithinCreatorAccess(principal({}, true), { superUser: true, scopes: [{ networkId: 'net_z', role: 'administrator' }] }),
    ).not.toThrow();
  });

  it('a key covers another only within its own access, and one that proves its owner only if it does too', () => {
    const admin = principal({ net_a: 'administrator' });
    expect(covers(admin, { superUser: false, scopes: [{ networkId: 'net_a', role: 'administrator' }] })).toBe(true);
    expect(covers(admin, { superUser: false, scopes: [{ networkId: 'net_b', role: 'read_only' }] })).toBe(false);
    expect(covers(principal({ net_a: 'read_only' }), { superUser: false, scopes: [{ networkId: 'net_a', role: 'administrator' }] })).toBe(false);
    expect(covers(admin, { superUser: true, scopes: [] })).toBe(false);
    const minted = principal({ net_a: 'administrator' }, false, false);
    expect(covers(minted, { superUser: false, scopes: [], identifiesOwner: true })).toBe(false);
    expect(covers(minted, { superUser: false, scopes: [], identifiesOwner: false })).toBe(true);
    expect(covers(principal({}, true, false), { superUser: true, scopes: [], identifiesOwner: true })).toBe(true);
  });
});
