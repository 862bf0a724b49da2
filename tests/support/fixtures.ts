import { randomBytes, randomUUID } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import type { PgInsertValue } from 'drizzle-orm/pg-core';
import { afterAll, beforeAll, inject } from 'vitest';
import { closeDatabase, database, openDatabase } from '@/db/client';
import { newId } from '@/db/ids';
import {
  creatives,
  events,
  flights,
  invitations,
  memberships,
  networks,
  offers,
  serviceAccounts,
  users,
  voiceConsents,
  webhookDeliveries,
  webhooks,
} from '@/db/schema';
import type { Mode } from '@/domain/modes';
import type { Role } from '@/domain/roles';
import { hashToken } from '@/server/auth/tokens';
import { loadAppSecret } from '@/server/secrets';
import { mintApiKey } from '@/server/services/keys/mint-api-key';
import { currentStatement } from '@/server/services/voice-consents/statement';

/** Open the run's database in this test file's process (for setup and for checks). */
export async function openTestDatabase() {
  const handle = openDatabase(inject('databaseUrl'), { max: 5 });
  await loadAppSecret(handle.db);
  return handle;
}

export const closeTestDatabase = closeDatabase;

/** The run's database, open in this test file's process for all its tests, closed after them. */
export function useTestDatabase(): void {
  beforeAll(openTestDatabase);
  afterAll(closeTestDatabase);
}

export async function createNetworkRow(name = `Network ${randomBytes(3).toString('hex')}`, mode: Mode = 'test') {
  const [row] = await database()
    .insert(networks)
    .values({ id: newId('network'), name, mode })
    .returning();
  return row!;
}

/** A person's membership row in a network. */
export async function membershipOf(networkId: string, userId: string) {
  const [row] = await database()
    .select()
    .from(memberships)
    .where(and(eq(memberships.networkId, networkId), eq(memberships.userId, userId)));
  return row!;
}

export async function createPerson(email = `p-${randomBytes(4).toString('hex')}@example.test`) {
  const [row] = await database()
    .insert(users)
    .values({ id: newId('user'), email, name: email })
    .returning();
  return row!;
}

/**
 * A person who is a member of each network with the given role, holding a key
 * scoped the same way (or with `keyRole` where the key should be narrower).
 */
export async function personKey(grants: Array<{ networkId: string; role: Role; keyRole?: Role }>, options: { expiresAt?: Date; name?: string } = {}) {
  const person = await createPerson();
  for (const g of grants) {
    await database()
      .insert(memberships)
      .values({ id: newId('membership'), networkId: g.networkId, userId: person.id, role: g.role });
  }
  const { key, token } = await mintApiKey({
    tx: database(),
    name: options.name ?? 'test key',
    owner: { userId: person.id },
    creator: 'platform',
    scopes: grants.map((g) => ({ networkId: g.networkId, role: g.keyRole ?? g.role })),
    expiresAt: options.expiresAt ?? null,
  });
  return { person, key, token };
}

/** A new network with the tokens of an administrator's key and a read_only member's key. */
export async function networkWithKeys() {
  const network = await createNetworkRow();
  const admin = await personKey([{ networkId: network.id, role: 'administrator' }]);
  const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
  return { id: network.id, admin: admin.token, reader: reader.token };
}

/**
 * Two new networks, an administrator of A, and a person who is a member of both (with `roles.a`
 * on A and `roles.b` on B) holding one key scoped to both: what a network's view of a key that
 * reaches beyond it, or a network administrator acting on such a key, is tested with.
 */
export async function keyOnTwoNetworks(roles: { a: Role; b: Role }) {
  const a = await createNetworkRow();
  const b = await createNetworkRow();
  const adminA = await personKey([{ networkId: a.id, role: 'administrator' }]);
  const both = await personKey([
    { networkId: a.id, role: roles.a },
    { networkId: b.id, role: roles.b },
  ]);
  return { a, b, adminA, both };
}

/** A new network and an administrator of it: the person, their key and its token. */
export async function adminOfNewNetwork() {
  const network = await createNetworkRow();
  return { network, ...(await personKey([{ networkId: network.id, role: 'administrator' }])) };
}

export async function serviceAccountKey(networkId: string, role: Role) {
  const [sa] = await database()
    .insert(serviceAccounts)
    .values({ id: newId('serviceAccount'), networkId, name: 'integration', role })
    .returning();
  const { key, token } = await mintApiKey({
    tx: database(),
    name: 'sa key',
    owner: { serviceAccountId: sa!.id },
    creator: 'platform',
    scopes: [{ networkId, role }],
  });
  return { serviceAccount: sa!, key, token };
}

/** An advertiser, campaign and opted-in podcast in a network, made directly in the database. */
export async function adInventory(
  networkId: string,
  options: { campaignStatus?: 'draft' | 'active' | 'paused' | 'completed' | 'archived'; optedIn?: boolean; script?: string; voice?: string } = {},
) {
  const { advertisers, campaigns, podcasts } = await import('@/db/schema');
  const [advertiser] = await database()
    .insert(advertisers)
    .values({ id: newId('advertiser'), networkId, name: 'Acme Mattresses' })
    .returning();
  const [campaign] = await database()
    .insert(campaigns)
    .values({
      id: newId('campaign'),
      networkId,
      advertiserId: advertiser!.id,
      name: 'Spring sale',
      script: options.script ?? 'Sleep better tonight with Acme. Use code POD for twenty percent off.',
      status: options.campaignStatus ?? 'active',
    })
    .returning();
  const [podcast] = await database()
    .insert(podcasts)
    .values({
      id: newId('podcast'),
      networkId,
      name: 'Night Owls',
      hostName: 'Sam',
      voice: options.voice ?? 'warm',
      optInStatus: options.optedIn === false ? 'not_opted_in' : 'opted_in',
      optedInAt: options.optedIn === false ? null : new Date(),
    })
    .returning();
  return { advertiser: advertiser!, campaign: campaign!, podcast: podcast! };
}

/** An open offer of the campaign to the podcast (`adInventory`'s), or as `values` say. */
export async function offerRow(
  networkId: string,
  of: { campaign: { id: string }; podcast: { id: string } },
  values: Partial<typeof offers.$inferInsert> = {},
) {
  const [row] = await database()
    .insert(offers)
    .values({ id: newId('offer'), networkId, campaignId: of.campaign.id, podcastId: of.podcast.id, ...values })
    .returning();
  return row!;
}

/** A live flight of the campaign: flat, pre-roll, running through 2026 (no campaign dates to fit), unless `values` say otherwise. */
export async function flightRow(networkId: string, campaign: { id: string }, values: Partial<typeof flights.$inferInsert> = {}) {
  const [row] = await database()
    .insert(flights)
    .values({
      id: newId('flight'),
      networkId,
      campaignId: campaign.id,
      name: 'Pre-roll, December',
      startsAt: new Date('2026-12-01T00:00:00Z'),
      endsAt: new Date('2026-12-31T00:00:00Z'),
      placement: 'pre',
      pricingModel: 'flat',
      amountCents: 50_000,
      currency: 'USD',
      ...values,
    })
    .returning();
  return row!;
}

/** A creative of the offer: failed, with no audio, unless `values` say otherwise. */
export async function creativeRow(
  networkId: string,
  { id: offerId, campaignId, podcastId }: { id: string; campaignId: string; podcastId: string },
  values: Partial<typeof creatives.$inferInsert> = {},
) {
  const [row] = await database()
    .insert(creatives)
    .values({ id: newId('creative'), networkId, offerId, campaignId, podcastId, script: 'x', voice: 'default', status: 'failed', ...values })
    .returning();
  return row!;
}

/** A subscription to offer.accepted at a TEST-NET address (nothing is sent), its secret a placeholder. */
export async function webhookRow(networkId: string, values: Partial<typeof webhooks.$inferInsert> = {}) {
  const [row] = await database()
    .insert(webhooks)
    .values({
      id: newId('webhook'),
      networkId,
      url: 'https://203.0.113.10/hooks',
      events: ['offer.accepted'],
      secretSealed: 'v1.unused.unused.unused',
      ...values,
    })
    .returning();
  return row!;
}

/** An offer.accepted event with no data, written directly (no fan-out). */
export async function eventRow(networkId: string) {
  const [row] = await database()
    .insert(events)
    .values({ id: newId('event'), networkId, type: 'offer.accepted', data: {} })
    .returning();
  return row!;
}

/** A delivery of the event to the subscription, with no job: pending unless `values` say otherwise. */
export async function deliveryRow(
  networkId: string,
  to: { webhookId: string; eventId: string },
  values: Partial<PgInsertValue<typeof webhookDeliveries>> = {},
) {
  const [row] = await database()
    .insert(webhookDeliveries)
    .values({ id: randomUUID(), networkId, ...to, eventType: 'offer.accepted', body: '{}', ...values })
    .returning();
  return row!;
}

/** A pending read_only invitation to the network, valid for a day, and its token. */
export async function invitationRow(networkId: string) {
  const token = `inv_${randomBytes(20).toString('hex')}`;
  const [row] = await database()
    .insert(invitations)
    .values({
      id: newId('invitation'),
      networkId,
      email: `invited-${randomBytes(3).toString('hex')}@example.test`,
      role: 'read_only',
      tokenHash: hashToken(token),
      expiresAt: new Date(Date.now() + 86_400_000),
    })
    .returning();
  return { invitation: row!, token };
}

/**
 * A voice consent for the podcast's host, asked for all campaigns and pending for 30 days unless
 * `values` say otherwise (a granted one needs `grantedAt` and the statement's `statementVersion` and
 * `statementSha256`), and its link's token.
 */
export async function voiceConsentRow(networkId: string, podcast: { id: string }, values: Partial<typeof voiceConsents.$inferInsert> = {}) {
  const token = `vcl_${randomBytes(20).toString('hex')}`;
  const [row] = await database()
    .insert(voiceConsents)
    .values({
      id: newId('voiceConsent'),
      networkId,
      podcastId: podcast.id,
      hostName: 'Sam',
      hostEmail: `host-${randomBytes(3).toString('hex')}@example.test`,
      scope: 'all_campaigns',
      tokenHash: hashToken(token),
      linkExpiresAt: new Date(Date.now() + 30 * 86_400_000),
      ...values,
    })
    .returning();
  return { consent: row!, token };
}

/**
 * A consent the podcast's host has granted, on the current statement, for all campaigns unless
 * `values` say otherwise: what a creative needs to be synthesized (consent-gate.ts) when a test
 * calls acceptOffer directly. Over HTTP, `grantVoiceConsentOverHttp` (tests/support/api.ts).
 */
export async function grantedConsentRow(networkId: string, podcast: { id: string }, values: Partial<typeof voiceConsents.$inferInsert> = {}) {
  const statement = currentStatement();
  return voiceConsentRow(networkId, podcast, {
    status: 'granted',
    grantedAt: new Date(Date.now() - 1000), // before the transaction that asks for it, whatever the clocks
    statementVersion: statement.version,
    statementSha256: statement.sha256,
    ...values,
  });
}
