/**
 * The data every scenario works on, made as the product makes it: networks over the API with the
 * super_user key, a person who administers all of them with a key scoped to each (minted by the
 * product's own `mintApiKey`), and one advertiser per network over the API with that key.
 */
import { connect } from '@/db/client';
import { newId } from '@/db/ids';
import { memberships, users } from '@/db/schema';
import { api, type Api } from '@/scripts/bench/api';
import { mintApiKey } from '@/server/services/keys/mint-api-key';

export interface Seed {
  networkIds: string[];
  /** The person's key: administrator of every network, a scope on each. All load uses it. */
  token: string;
  /** One advertiser per network, in the order of `networkIds`. */
  advertiserIds: string[];
  /** The service's super_user bootstrap key (no scopes: the lightest key lookup). */
  superToken: string;
}

/** A database URL on the same server as `adminUrl`. */
export function databaseUrl(adminUrl: string, name: string): string {
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return u.toString();
}

/** Creates `count` resources, four requests at a time; their ids in order. */
async function createEach(count: number, create: (i: number) => Promise<{ id: string }>): Promise<string[]> {
  const ids: string[] = new Array(count);
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      ids[i] = (await create(i)).id;
    }
  };
  await Promise.all(Array.from({ length: 4 }, worker));
  return ids;
}

/** A person (administrator member of every network) and their key scoped to all of them, as the service makes them. */
async function createPersonKey(url: string, networkIds: string[]): Promise<string> {
  const handle = connect(url, { max: 1 });
  try {
    return await handle.db.transaction(async (tx) => {
      const userId = newId('user');
      await tx.insert(users).values({ id: userId, email: `bench-${userId}@example.test`, name: 'Bench reader' });
      await tx
        .insert(memberships)
        .values(networkIds.map((networkId) => ({ id: newId('membership'), networkId, userId, role: 'administrator' as const })));
      const { token } = await mintApiKey({
        tx,
        name: 'bench reader',
        owner: { userId },
        creator: 'platform',
        scopes: networkIds.map((networkId) => ({ networkId, role: 'administrator' as const })),
      });
      return token;
    });
  } finally {
    await handle.close();
  }
}

/** `networks` networks, the person's key, an advertiser in each; `superUser` is the service's bootstrap key. */
export async function seed(superUser: Api, dbUrl: string, networks: number): Promise<Seed> {
  const networkIds = await createEach(networks, (i) =>
    api<{ id: string }>(superUser, 'POST', '/networks', { name: `Bench network ${String(i + 1).padStart(3, '0')}` }),
  );
  const token = await createPersonKey(dbUrl, networkIds);
  const person: Api = { baseUrl: superUser.baseUrl, token };
  const advertiserIds = await createEach(networkIds.length, (i) =>
    api<{ id: string }>(person, 'POST', `/networks/${networkIds[i]}/advertisers`, { name: `Bench advertiser ${i + 1}` }),
  );
  return { networkIds, token, advertiserIds, superToken: superUser.token };
}
