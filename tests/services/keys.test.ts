import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { newId } from '@/db/ids';
import { memberships } from '@/db/schema';
import { authenticate, type Principal } from '@/server/auth/principal';
import { createOwnKey } from '@/server/services/keys/create-own-key';
import { mintApiKey } from '@/server/services/keys/mint-api-key';
import { mintMemberKey } from '@/server/services/members/mint-member-key';
import { removeMember } from '@/server/services/members/remove-member';
import { closeTestDatabase, createNetworkRow, createPerson, openTestDatabase, personKey } from '@/tests/support/fixtures';
import { refusal } from './refusal';

// The credential rules of docs/keys-and-roles.md, on the services that enforce them (no server):
// rule 6 (a new key stays within its creator's access), rule 7 (only a super_user mints a
// super_user), advertised scopes are working scopes, and removal is final.
// tests/reliability/credentials-model.test.ts proves them over HTTP against random sequences.

beforeAll(openTestDatabase);
afterAll(closeTestDatabase);

/** What a token can do now, read the way every request reads it. */
const principalOf = (token: string): Promise<Principal> => authenticate(`Bearer ${token}`);
const scopesOf = async (token: string) => Object.fromEntries((await principalOf(token)).scopes);

async function membershipOf(networkId: string, userId: string) {
  const [row] = await database()
    .select()
    .from(memberships)
    .where(and(eq(memberships.networkId, networkId), eq(memberships.userId, userId)));
  return row!;
}

describe('createOwnKey (rules 6 and 7)', () => {
  it('mints a key within the caller’s access whose advertised scopes are its working scopes', async () => {
    const [a, b] = [await createNetworkRow(), await createNetworkRow()];
    const caller = await personKey([
      { networkId: a.id, role: 'administrator' },
      { networkId: b.id, role: 'read_only' },
    ]);
    const principal = await principalOf(caller.token);
    const minted = await database().transaction((tx) => createOwnKey({ tx, principal, name: 'narrower', scopes: [{ networkId: a.id, role: 'read_only' }] }));
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

describe('mintApiKey: advertised scopes are working scopes', () => {
  it('refuses a scope its owner does not hold (no membership, or a lower role): 409 naming the network', async () => {
    const a = await createNetworkRow();
    const stranger = await createPerson();
    const mint = (role: 'read_only' | 'administrator') =>
      database().transaction((tx) =>
        mintApiKey({ tx, name: 'k', environment: 'test', owner: { userId: stranger.id }, creator: 'platform', scopes: [{ networkId: a.id, role }] }),
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
      database().transaction((tx) => mintMemberKey({ tx, creator, networkId: a.id, memberId, name: 'minted', role, environment: 'test' }));
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
    await database().transaction((tx) => removeMember({ tx, networkId: a.id, memberId: membership.id, expectedVersion: undefined, actorKeyId: creator.keyId }));
    expect(await scopesOf(member.token)).toEqual({ [b.id]: 'read_only' }); // the other network is untouched
    const minted = await refusal(
      database().transaction((tx) => mintMemberKey({ tx, creator, networkId: a.id, memberId: membership.id, name: 'back door', environment: 'test' })),
    );
    expect(minted.kind).toBe('conflict');
    // The person is invited back (the membership active again): the old key stays without the network.
    await database().update(memberships).set({ status: 'active' }).where(eq(memberships.id, membership.id));
    expect(await scopesOf(member.token)).toEqual({ [b.id]: 'read_only' });
  });
});
