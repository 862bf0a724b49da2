/**
 * What the raw SQL of the hot paths costs each way (docs/PERFORMANCE.md, "Raw SQL on the hot
 * paths"): the per-request key lookup of server/auth/principal.ts written four ways, 20,000
 * lookups at concurrency 16 on a 10-connection pool, five interleaved rounds.
 *
 *   npx tsx scripts/bench/statement.ts
 *
 * Uses a fresh database on the local Postgres (TEST_DATABASE_ADMIN_URL, as the tests do).
 */
import { performance } from 'node:perf_hooks';
import { eq, and, isNull, or, sql } from 'drizzle-orm';
import { connect } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { newId } from '@/db/ids';
import { apiKeyAccess, apiKeys, memberships, networks, serviceAccounts, users } from '@/db/schema';
import { generateApiKeyToken, hashToken } from '@/server/auth/tokens';
import { createTestDatabase } from '@/tests/support/database';
import { statement } from '@/db/statement';

const db0 = await createTestDatabase('bench');
try {
  await migrateDatabase(db0.url);
  const h = connect(db0.url, { max: 10 });
  const user = newId('user');
  await h.db.insert(users).values({ id: user, email: 'a@b.c', name: 'a' });
  const hashes: string[] = [];
  for (let n = 0; n < 3; n++) {
    const net = newId('network');
    await h.db.insert(networks).values({ id: net, name: 'n', mode: 'test' });
    await h.db.insert(memberships).values({ id: newId('membership'), networkId: net, userId: user, role: 'administrator' });
  }
  for (let i = 0; i < 200; i++) {
    const token = generateApiKeyToken('test');
    hashes.push(hashToken(token));
    await h.db
      .insert(apiKeys)
      .values({ id: newId('apiKey'), name: 'k', tokenHash: hashToken(token), start: token.slice(0, 12), environment: 'test', userId: user });
  }

  const raw = async (tokenHash: string) =>
    (
      await h.sql`
    select k.id, k.name, k.super_user, k.user_id, k.service_account_id, k.identifies_owner,
      (k.last_used_at is null or k.last_used_at < now() - interval '1 minute') as last_used_stale,
      (k.expires_at is not null and k.expires_at <= now()) as expired,
      (k.revoked_at is not null and k.revoked_at <= now()) as revoked,
      coalesce((
        select json_agg(json_build_object('network_id', a.network_id, 'role', a.role) order by a.network_id)
        from api_key_access a
        where a.key_id = k.id and a.role is not null
      ), '[]'::json) as scopes
    from api_keys k
    left join service_accounts owner_sa on owner_sa.id = k.service_account_id
    where k.token_hash = ${tokenHash} and (k.service_account_id is null or owner_sa.deleted_at is null)`
    )[0];

  const k = apiKeys,
    a = apiKeyAccess,
    sa = serviceAccounts;
  /** The lookup as Drizzle's `sql`, the token hash a value (bound per query) or a placeholder (a prepared statement). */
  const findKeySql = (tokenHash: string | ReturnType<typeof sql.placeholder>) => sql`
    select ${k.id}, ${k.name}, ${k.superUser}, ${k.userId}, ${k.serviceAccountId}, ${k.identifiesOwner},
      (${k.lastUsedAt} is null or ${k.lastUsedAt} < now() - interval '1 minute') as last_used_stale,
      (${k.expiresAt} is not null and ${k.expiresAt} <= now()) as expired,
      (${k.revokedAt} is not null and ${k.revokedAt} <= now()) as revoked,
      coalesce((
        select json_agg(json_build_object('network_id', ${a.networkId}, 'role', ${a.role}) order by ${a.networkId})
        from ${a}
        where ${a.keyId} = ${k.id} and ${a.role} is not null
      ), '[]'::json) as scopes
    from ${k}
    left join ${sa} on ${sa.id} = ${k.serviceAccountId}
    where ${k.tokenHash} = ${tokenHash} and (${k.serviceAccountId} is null or ${sa.deletedAt} is null)`;
  const drizzleSql = async (tokenHash: string) => (await h.db.execute(findKeySql(tokenHash)))[0];

  const findKeyStatement = statement<Record<string, unknown>, { tokenHash: string }>(findKeySql(sql.placeholder('tokenHash')));
  const compiled = async (tokenHash: string) => (await findKeyStatement(h.sql, { tokenHash }))[0];
  const scopesSub = sql<unknown>`coalesce((select json_agg(json_build_object('network_id', ${a.networkId}, 'role', ${a.role}) order by ${a.networkId}) from ${a} where ${a.keyId} = ${k.id} and ${a.role} is not null), '[]'::json)`;
  const builder = async (tokenHash: string) =>
    (
      await h.db
        .select({
          id: k.id,
          name: k.name,
          superUser: k.superUser,
          userId: k.userId,
          serviceAccountId: k.serviceAccountId,
          identifiesOwner: k.identifiesOwner,
          lastUsedStale: sql<boolean>`(${k.lastUsedAt} is null or ${k.lastUsedAt} < now() - interval '1 minute')`,
          expired: sql<boolean>`(${k.expiresAt} is not null and ${k.expiresAt} <= now())`,
          revoked: sql<boolean>`(${k.revokedAt} is not null and ${k.revokedAt} <= now())`,
          scopes: scopesSub,
        })
        .from(k)
        .leftJoin(sa, eq(sa.id, k.serviceAccountId))
        .where(and(eq(k.tokenHash, tokenHash), or(isNull(k.serviceAccountId), isNull(sa.deletedAt))))
    )[0];

  async function run(name: string, fn: (h: string) => Promise<unknown>, total = 20000, concurrency = 16) {
    let i = 0;
    const t0 = performance.now();
    await Promise.all(
      Array.from({ length: concurrency }, async () => {
        while (i < total) await fn(hashes[i++ % hashes.length]!);
      }),
    );
    const s = (performance.now() - t0) / 1000;
    return { name, perSecond: Math.round(total / s) };
  }
  const variants: Array<[string, (h: string) => Promise<unknown>]> = [
    ['postgres.js tagged template', raw],
    ['drizzle sql`` with schema objects', drizzleSql],
    ['drizzle query builder', builder],
    ['statement(): drizzle sql`` rendered once, postgres.js prepared', compiled],
  ];
  for (const [, fn] of variants) await run('warm', fn, 2000);
  console.log(JSON.stringify(await raw(hashes[0]!)) === JSON.stringify(await compiled(hashes[0]!)) ? 'same row' : 'DIFFERENT ROW');
  const results: Record<string, number[]> = {};
  for (let round = 0; round < 5; round++) for (const [name, fn] of variants) (results[name] ??= []).push((await run(name, fn)).perSecond);
  for (const [name, r] of Object.entries(results)) console.log(`${name}: ${r.join(', ')} lookups/s (median ${[...r].sort((x, y) => x - y)[2]})`);
  await h.close();
} finally {
  await db0.drop();
}
