import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { newId } from '@/db/ids';
import { apiKeys, memberships } from '@/db/schema';
import { authenticate, type Principal } from '@/server/auth/principal';
import { createOwnKey } from '@/server/services/keys/create-own-key';
import { findOwnKey, listOwnKeys } from '@/server/services/keys/find-keys';
import { mintApiKey } from '@/server/services/keys/mint-api-key';
import { rotateKey } from '@/server/services/keys/rotate-key';
import { mintMemberKey } from '@/server/services/members/mint-member-key';
import { removeMember } from '@/server/services/members/remove-member';
import { createServiceAccount } from '@/server/services/service-accounts/create-service-account';
import { mintServiceAccountKey } from '@/server/services/service-accounts/mint-service-account-key';
import { createNetworkRow, createPerson, membershipOf, personKey, serviceAccountKey, useTestDatabase } from '@/tests/support/fixtures';
import { refusal } from './refusal';

// The credential rules of docs/keys-and-roles.md, on the services that enforce them (no server):
// rule 6 (a new key stays within its creator's access), rule 7 (only a super_user mints a
// super_user), advertised scopes are working scopes, and removal is final.
// tests/reliability/credentials-model.test.ts proves them over HTTP against random sequences.

useTestDatabase();

/** What a token can do now, read the way every request reads it. */
const principalOf = (token: string): Promise<Principal> => authenticate(`Bearer ${token}`);
const scopesOf = async (token: string) => Object.fromEntries((await principalOf(token)).scopes);

describe('createOwnKey (rules 6 and 7)', () => {
  it('mints a key within the caller’s access whose advertised scopes are its working scopes', async () => {
    const [a, b] = [await createNetworkRow(), await createNetworkRow()];
    const caller = await personKey([
      { networkId: a.id, role: 'administrator' },
      { networkId: b.id, role: 'read_only' },
    ]);
    const principal = await principalOf(caller.token);
    const minted = await database().transaction((tx) =>
      createOwnKey({ tx, principal, name: 'narrower', scopes: [{ networkId: a.id, role: 'read_only' }] }),
    );
    expect(minted.scopes).toEqual([{ networkId: a.id, role: 'read_only' }]);
    expect(await scopesOf(minted.token)).toEqual({ [a.id]: 'read_only' });
    // Without scopes: a copy of the caller's current access.
    const copy = await database().transaction((tx) => createOwnKey({ tx, principal, name: 'copy' }));
    expect(await scopesOf(copy.token)).toEqual({ [a.id]: 'administrator', [b.id]: 'read_only' });
  });

  it('refuses a scope beyond the caller’s access (rule 6): another network, or a higher role: 403', async () => {
    const [a, b] = [await createNetworkRow(), await createNetworkRow()];
    const caller = await personKey([{ networkId: a.id, role: 'read_only' }]);
    const principal = await principalOf(caller.token);
    for (const scopes of [[{ networkId: b.id, role: 'read_only' as const }], [{ networkId: a.id, role: 'administrator' as const }]]) {
      const error = await refusal(database().transaction((tx) => createOwnKey({ tx, principal, name: 'wider', scopes })));
      expect(error.kind).toBe('forbidden');
      expect(error.detail).toMatch(/rule 6/);
    }
  });

  it('refuses a super_user key to anyone but a super_user (rule 7)', async () => {
    const a = await createNetworkRow();
    const caller = await personKey([{ networkId: a.id, role: 'administrator' }]);
    const principal = await principalOf(caller.token);
    const error = await refusal(database().transaction((tx) => createOwnKey({ tx, principal, name: 'root', superUser: true })));
    expect(error.kind).toBe('forbidden');
    expect(error.detail).toMatch(/rule 7/);
  });
});

/**
 * A person who administers networks A and B, with keys the platform issued them (each proves who
 * they are, as a key from an accepted invitation does): on both networks, on A only, reading A
 * only, on B only. Only the keys' scopes tell what each may do.
 */
async function personOnTwoNetworks() {
  const [a, b] = [await createNetworkRow(), await createNetworkRow()];
  const both = await personKey([
    { networkId: a.id, role: 'administrator' },
    { networkId: b.id, role: 'administrator' },
  ]);
  const keyOf = (scopes: Array<{ networkId: string; role: 'read_only' | 'administrator' }>) =>
    mintApiKey({ tx: database(), name: 'k', owner: { userId: both.person.id }, creator: 'platform', scopes });
  const onA = await keyOf([{ networkId: a.id, role: 'administrator' }]);
  const readsA = await keyOf([{ networkId: a.id, role: 'read_only' }]);
  const onB = await keyOf([{ networkId: b.id, role: 'administrator' }]);
  return { a, b, both, onA, readsA, onB };
}

describe('findOwnKey and listOwnKeys (invariant 1): a key reaches only its owner’s keys that it covers', () => {
  it('no key of the same person on a network the caller lacks, nor above its role there', async () => {
    const { both, onA, readsA, onB } = await personOnTwoNetworks();
    const listed = async (token: string) =>
      (await listOwnKeys({ db: database(), caller: await principalOf(token), afterId: undefined, take: 50 })).map((k) => k.id).sort();
    expect(await listed(both.token)).toEqual([both.key.id, onA.key.id, readsA.key.id, onB.key.id].sort());
    expect(await listed(onA.token)).toEqual([onA.key.id, readsA.key.id].sort());
    expect(await listed(readsA.token)).toEqual([readsA.key.id]);
    expect(await listed(onB.token)).toEqual([onB.key.id]);
    const found = async (token: string, id: string) => (await findOwnKey({ db: database(), caller: await principalOf(token), id }))?.id;
    for (const target of [onB.key.id, both.key.id]) expect(await found(onA.token, target)).toBeUndefined();
    for (const target of [onA.key.id, onB.key.id, both.key.id]) expect(await found(readsA.token, target)).toBeUndefined();
    expect(await found(onA.token, readsA.key.id)).toBe(readsA.key.id);
  });

  it('no key that proves its owner’s identity for a key an administrator minted, on the same network and role', async () => {
    const a = await createNetworkRow();
    const admin = await personKey([{ networkId: a.id, role: 'administrator' }]);
    const member = await personKey([{ networkId: a.id, role: 'administrator' }]);
    const [membership] = await database()
      .select()
      .from(memberships)
      .where(and(eq(memberships.networkId, a.id), eq(memberships.userId, member.person.id)));
    const creator = await principalOf(admin.token);
    const minted = await database().transaction((tx) =>
      mintMemberKey({ tx, creator, networkId: a.id, memberId: membership!.id, name: 'minted', role: 'administrator' }),
    );
    const caller = await principalOf(minted.token);
    expect(await findOwnKey({ db: database(), caller, id: member.key.id })).toBeUndefined();
    expect((await listOwnKeys({ db: database(), caller, afterId: undefined, take: 50 })).map((k) => k.id)).toEqual([minted.key.id]);
    expect((await findOwnKey({ db: database(), caller: await principalOf(member.token), id: minted.key.id }))?.id).toBe(minted.key.id);
  });
});

describe('rule 6 in every service that mints, whatever its route checked first', () => {
  it('createOwnKey and rotateKey: not on a network the calling key lacks, nor above its role, though the owner holds both', async () => {
    const { b, both, onA, readsA, onB } = await personOnTwoNetworks();
    const ownKeysBefore = await database().select().from(apiKeys).where(eq(apiKeys.userId, both.person.id)).orderBy(apiKeys.id);
    for (const [token, scopes] of [
      [onA.token, [{ networkId: b.id, role: 'read_only' as const }]],
      [readsA.token, [{ networkId: onA.scopes[0]!.networkId, role: 'administrator' as const }]],
    ] as const) {
      const principal = await principalOf(token);
      const error = await refusal(database().transaction((tx) => createOwnKey({ tx, principal, name: 'wider', scopes: [...scopes] })));
      expect(error.kind).toBe('forbidden');
      expect(error.detail).toMatch(/rule 6/);
    }
    // rotateKey trusts its caller to have found a key it covers; the new key is still held to rule 6.
    const everything = await principalOf(both.token);
    const keyOnB = (await findOwnKey({ db: database(), caller: everything, id: onB.key.id }))!;
    const caller = await principalOf(onA.token);
    const rotation = await refusal(database().transaction((tx) => rotateKey({ tx, caller, found: keyOnB, graceSeconds: 0 })));
    expect(rotation.kind).toBe('forbidden');
    expect(rotation.detail).toMatch(/rule 6/);
    const ownKeysAfter = await database().select().from(apiKeys).where(eq(apiKeys.userId, both.person.id)).orderBy(apiKeys.id);
    expect(ownKeysAfter.map((k) => [k.id, k.revokedAt, k.replacedByKeyId])).toEqual(ownKeysBefore.map((k) => [k.id, k.revokedAt, k.replacedByKeyId]));
  });

  it('mintMemberKey, createServiceAccount and mintServiceAccountKey: not for a network the creator does not administer', async () => {
    const [a, b] = [await createNetworkRow(), await createNetworkRow()];
    const adminOfB = await principalOf((await personKey([{ networkId: b.id, role: 'administrator' }])).token);
    const readerOfA = await principalOf((await personKey([{ networkId: a.id, role: 'read_only' }])).token);
    const member = await personKey([{ networkId: a.id, role: 'administrator' }]);
    const [membership] = await database()
      .select()
      .from(memberships)
      .where(and(eq(memberships.networkId, a.id), eq(memberships.userId, member.person.id)));
    const { serviceAccount } = await serviceAccountKey(a.id, 'administrator');
    for (const creator of [adminOfB, readerOfA]) {
      const attempts = [
        () =>
          database().transaction((tx) => mintMemberKey({ tx, creator, networkId: a.id, memberId: membership!.id, name: 'x', role: 'administrator' })),
        () =>
          database().transaction((tx) =>
            createServiceAccount({ tx, principal: creator, networkId: a.id, name: 'x', role: 'administrator', key: { name: 'x' } }),
          ),
        () =>
          database().transaction((tx) =>
            mintServiceAccountKey({ tx, principal: creator, account: serviceAccount, name: 'x', role: 'administrator' }),
          ),
      ];
      for (const attempt of attempts) {
        const error = await refusal(attempt());
        expect(error.kind).toBe('forbidden');
        expect(error.detail).toMatch(/rule 6/);
      }
    }
    const keys = await database()
      .select()
      .from(apiKeys)
      .where(inArray(apiKeys.createdByKeyId, [adminOfB.keyId, readerOfA.keyId]));
    expect(keys).toEqual([]);
  });
});

describe('mintApiKey: advertised scopes are working scopes', () => {
  it('refuses a scope its owner does not hold (no membership, or a lower role): 409 naming the network', async () => {
    const a = await createNetworkRow();
    const stranger = await createPerson();
    const mint = (role: 'read_only' | 'administrator') =>
      database().transaction((tx) =>
        mintApiKey({ tx, name: 'k', owner: { userId: stranger.id }, creator: 'platform', scopes: [{ networkId: a.id, role }] }),
      );
    const none = await refusal(mint('read_only'));
    expect(none.kind).toBe('conflict');
    expect(none.detail).toContain(a.id);
    await database()
      .insert(memberships)
      .values({ id: newId('membership'), networkId: a.id, userId: stranger.id, role: 'read_only' });
    expect((await refusal(mint('administrator'))).kind).toBe('conflict');
    expect(await scopesOf((await mint('read_only')).token)).toEqual({ [a.id]: 'read_only' });
  });
});

describe('mintMemberKey and removeMember: removal is final', () => {
  it('mints a member key at most at the member’s role (400 above it)', async () => {
    const a = await createNetworkRow();
    const admin = await personKey([{ networkId: a.id, role: 'administrator' }]);
    const member = await personKey([{ networkId: a.id, role: 'read_only' }]);
    const creator = await principalOf(admin.token);
    const memberId = (await membershipOf(a.id, member.person.id)).id;
    const mint = (role?: 'administrator') =>
      database().transaction((tx) => mintMemberKey({ tx, creator, networkId: a.id, memberId, name: 'minted', role }));
    const above = await refusal(mint('administrator'));
    expect(above.kind).toBe('bad-request');
    expect(await scopesOf((await mint()).token)).toEqual({ [a.id]: 'read_only' });
  });

  it('a removed member’s keys lose the network at once and do not get it back when the person returns; no key can be minted for them meanwhile', async () => {
    const [a, b] = [await createNetworkRow(), await createNetworkRow()];
    const admin = await personKey([{ networkId: a.id, role: 'administrator' }]);
    const member = await personKey([
      { networkId: a.id, role: 'administrator' },
      { networkId: b.id, role: 'read_only' },
    ]);
    const creator = await principalOf(admin.token);
    const membership = await membershipOf(a.id, member.person.id);
    await database().transaction((tx) =>
      removeMember({ tx, networkId: a.id, memberId: membership.id, expectedVersion: undefined, actorKeyId: creator.keyId }),
    );
    expect(await scopesOf(member.token)).toEqual({ [b.id]: 'read_only' }); // the other network is untouched
    const minted = await refusal(
      database().transaction((tx) => mintMemberKey({ tx, creator, networkId: a.id, memberId: membership.id, name: 'back door' })),
    );
    expect(minted.kind).toBe('conflict');
    // The person is invited back (the membership active again): the old key stays without the network.
    await database().update(memberships).set({ status: 'active' }).where(eq(memberships.id, membership.id));
    expect(await scopesOf(member.token)).toEqual({ [b.id]: 'read_only' });
  });
});
