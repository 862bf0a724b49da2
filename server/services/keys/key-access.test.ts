import { describe, expect, it } from 'vitest';
import type { Principal } from '../../auth/principal';
import { assertWithinCreatorAccess } from './key-access';

const principal = (scopes: Record<string, 'read_only' | 'administrator'>, superUser = false): Principal => ({
  keyId: 'key_x',
  keyName: 'x',
  superUser,
  userId: 'usr_x',
  serviceAccountId: null,
  identifiesOwner: true,
  scopes: new Map(Object.entries(scopes)),
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
    expect(() => assertWithinCreatorAccess(principal({}, true), { superUser: true, scopes: [{ networkId: 'net_z', role: 'administrator' }] })).not.toThrow();
  });
});
