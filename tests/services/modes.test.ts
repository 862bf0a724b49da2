import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { newId } from '@/db/ids';
import { memberships } from '@/db/schema';
import { authenticate } from '@/server/auth/principal';
import { generateApiKeyToken } from '@/server/auth/tokens';
import { bootstrapSuperUser, createSuperUserKey } from '@/server/services/keys/bootstrap';
import { mintApiKey } from '@/server/services/keys/mint-api-key';
import { mintMemberKey } from '@/server/services/members/mint-member-key';
import { newNetworkMode } from '@/server/services/networks/create-network';
import { createNetworkRow, createPerson, membershipOf, personKey, useTestDatabase } from '@/tests/support/fixtures';
import { refusal } from './refusal';

// Test and live (docs/keys-and-roles.md#test-and-live) on the services, in a test-mode process
// (APP_ENV=test). A live network here is one made before modes, in a database that was live:
// tests/http/network-modes.test.ts runs a live service.

useTestDatabase();

const principalOf = (token: string) => authenticate(`Bearer ${token}`);

describe('a key’s mode', () => {
  it('is its networks’ mode; a key spanning both is refused, a console session may span them', async () => {
    const live = await createNetworkRow(undefined, 'live');
    const test = await createNetworkRow(undefined, 'test');
    expect((await personKey([{ networkId: test.id, role: 'administrator' }])).token).toMatch(/^sk_test_/);
    expect((await personKey([{ networkId: live.id, role: 'administrator' }])).token).toMatch(/^sk_live_/);

    const person = await createPerson();
    const both = [live, test].map((n) => ({ networkId: n.id, role: 'read_only' as const }));
    await database()
      .insert(memberships)
      .values(both.map((s) => ({ id: newId('membership'), networkId: s.networkId, userId: person.id, role: s.role })));
    const mixed = await refusal(mintApiKey({ tx: database(), name: 'both', owner: { userId: person.id }, creator: 'platform', scopes: both }));
    expect(mixed).toMatchObject({ kind: 'bad-request' });
    expect(mixed.message).toMatch(/one mode/);
    const session = await mintApiKey({
      tx: database(),
      name: 'session',
      owner: { userId: person.id },
      creator: 'platform',
      scopes: both,
      session: true,
    });
    expect(session.key.environment).toBe('live');
  });

  it('is APP_ENV’s for a key without scopes; a live token is refused at the door of a test service (G13)', async () => {
    const token = await createSuperUserKey({ db: database(), name: 'operator' });
    expect(token).toMatch(/^sk_test_/);
    const live = await createNetworkRow(undefined, 'live');
    const livePerson = await personKey([{ networkId: live.id, role: 'administrator' }]);
    const refused = await refusal(principalOf(livePerson.token));
    expect(refused).toMatchObject({ kind: 'unauthorized' });
    expect(refused.message).toMatch(/live key.*test mode/);
  });

  it('bounds a test super_user key: no live network, no key for one', async () => {
    const operator = await principalOf(await createSuperUserKey({ db: database(), name: 'operator' }));
    expect((await refusal(Promise.resolve().then(() => newNetworkMode(operator, 'live')))).kind).toBe('bad-request');
    expect(newNetworkMode(operator, undefined)).toBe('test');

    const live = await createNetworkRow(undefined, 'live');
    const member = await personKey([{ networkId: live.id, role: 'administrator' }]);
    const membership = await membershipOf(live.id, member.person.id);
    const made = await refusal(
      database().transaction((tx) => mintMemberKey({ tx, creator: operator, networkId: live.id, memberId: membership.id, name: 'for them' })),
    );
    expect(made).toMatchObject({ kind: 'forbidden' });
    expect(made.message).toMatch(/test key/);
  });

  it('refuses a BOOTSTRAP_SUPERUSER_TOKEN of the other mode at start (G13)', async () => {
    await expect(bootstrapSuperUser({ db: database(), token: generateApiKeyToken('test'), environment: 'live' })).rejects.toThrow(
      /must start with sk_live_ when APP_ENV=live/,
    );
  });
});
