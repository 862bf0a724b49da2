import { randomBytes } from 'node:crypto';
import { and, eq } from 'drizzle-orm';
import { inject } from 'vitest';
import { closeDatabase, database, openDatabase } from '@/db/client';
import { newId } from '@/db/ids';
import { memberships, networks, serviceAccounts, users } from '@/db/schema';
import type { Role } from '@/domain/roles';
import { loadAppSecret } from '@/server/secrets';
import { mintApiKey } from '@/server/services/keys/mint-api-key';

/** Open the run's database in this test file's process (for setup and for checks). */
export async function openTestDatabase() {
  const handle = openDatabase(inject('databaseUrl'), { max: 5 });
  await loadAppSecret(handle.db);
  return handle;
}

export const closeTestDatabase = closeDatabase;

export async function createNetworkRow(name = `Network ${randomBytes(3).toString('hex')}`) {
  const [row] = await database()
    .insert(networks)
    .values({ id: newId('network'), name })
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
    environment: 'test',
    owner: { userId: person.id },
    creator: 'platform',
    scopes: grants.map((g) => ({ networkId: g.networkId, role: g.keyRole ?? g.role })),
    expiresAt: options.expiresAt ?? null,
  });
  return { person, key, token };
}

export async function serviceAccountKey(networkId: string, role: Role) {
  const [sa] = await database()
    .insert(serviceAccounts)
    .values({ id: newId('serviceAccount'), networkId, name: 'integration', role })
    .returning();
  const { key, token } = await mintApiKey({
    tx: database(),
    name: 'sa key',
    environment: 'test',
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
