/**
 * The webhook list's health figures at volume: `node --import tsx scripts/bench/webhook-health.ts [N]`.
 * On a fresh database (the test Postgres, as tests/support/database.ts finds it): 50 subscriptions
 * with N deliveries each (default 2,000), last attempted at random over the past 30 hours (90 %
 * succeeded), then 30 calls of the list function with health for one page of 50; prints p50 and p90.
 * Not part of `npm run bench`; docs/webhooks.md quotes its results.
 */
import { connect } from '@/db/client';
import { migrateDatabase } from '@/db/migrate';
import { listWebhooksWithHealth } from '@/server/services/webhooks/health';
import { createTestDatabase } from '@/tests/support/database';

const perHook = Number(process.argv[2] ?? 2000);
const db = await createTestDatabase('healthbench');
try {
  await migrateDatabase(db.url);
  const h = connect(db.url, { max: 2 });
  const sql = h.sql;
  await sql`insert into networks (id, name, mode) values ('net_bench', 'bench', 'test')`;
  await sql`insert into webhooks (id, network_id, url, events, secret_sealed) select 'whk_' || lpad(g::text, 4, '0'), 'net_bench', 'https://example.com/h', '{offer.accepted}', 'x' from generate_series(1, 50) g`;
  await sql`insert into webhook_deliveries (id, webhook_id, network_id, event_type, test, body, status, attempt_count, last_attempt_at, created_at)
            select gen_random_uuid(), 'whk_' || lpad(w::text, 4, '0'), 'net_bench', 'offer.accepted', true, '{}',
                   case when random() < 0.9 then 'succeeded' else 'failed' end, 1,
                   now() - random() * interval '30 hours', now() - interval '31 hours'
              from generate_series(1, 50) w, generate_series(1, ${perHook}) d`;
  await sql`vacuum analyze webhook_deliveries`;
  const times: number[] = [];
  for (let i = 0; i < 30; i++) {
    const t0 = performance.now();
    await listWebhooksWithHealth({ db: h.db, networkId: 'net_bench', afterId: undefined, take: 51 });
    times.push(performance.now() - t0);
  }
  times.sort((a, b) => a - b);
  console.log(
    `${perHook} deliveries per subscription (${50 * perHook} total): list of 50 with health p50 ${times[15]!.toFixed(1)} ms, p90 ${times[27]!.toFixed(1)} ms`,
  );
  await h.close();
} finally {
  await db.drop();
}
process.exit(0);
