import { beforeAll, describe, expect, it } from 'vitest';
import { loadSqlParser, tenantRelations, unroutedReferences } from './tenant-statements';

// The checker behind tests/http/tenant-routing.test.ts, on statements written to break it.

beforeAll(loadSqlParser);

const tenant = tenantRelations();
const unrouted = (sql: string) => unroutedReferences(sql, tenant);

describe('tenant relations', () => {
  it('are the tables and views of db/schema/* with a network_id column', () => {
    expect([...tenant].sort()).toEqual(
      expect.arrayContaining([
        'advertisers',
        'api_key_scopes',
        'audit_log',
        'campaigns',
        'invitations',
        'memberships',
        'offers',
        'service_accounts',
        'webhook_attempts',
      ]),
    );
    for (const other of ['networks', 'users', 'api_keys', 'idempotency_keys', 'rate_limit_buckets']) expect(tenant.has(other)).toBe(false);
  });
});

describe('a statement names its network', () => {
  it('refuses a campaign looked up by id whose only network_id is inside a subquery on another table', () => {
    const planted =
      'select "id", "name" from "campaigns" where "campaigns"."id" = $1 and "campaigns"."advertiser_id" in ' +
      '(select "id" from "advertisers" where "advertisers"."network_id" = $2)';
    expect(unrouted(planted)).toEqual([{ relation: 'campaigns', how: 'read' }]);
    // The same lookup with the campaign's own network is fine.
    expect(unrouted(planted.replace('where "campaigns"."id" = $1', 'where "campaigns"."network_id" = $3 and "campaigns"."id" = $1'))).toEqual([]);
  });

  it('takes an equality with a parameter (cast or not, either side) on the relation’s own network_id, at the top of the AND tree', () => {
    expect(unrouted('select * from campaigns where network_id = $1 and id = $2')).toEqual([]);
    expect(unrouted('select * from campaigns c where $1::text = c.network_id and c.id = $2 for update')).toEqual([]);
    expect(unrouted('select * from campaigns where id = $1')).toEqual([{ relation: 'campaigns', how: 'read' }]);
    expect(unrouted('select * from campaigns where network_id = $1 or id = $2')).toEqual([{ relation: 'campaigns', how: 'read' }]);
    expect(unrouted("select * from campaigns where network_id = 'net_x' and id = $1")).toEqual([{ relation: 'campaigns', how: 'read' }]);
    expect(unrouted('select * from campaigns where network_id <> $1')).toEqual([{ relation: 'campaigns', how: 'read' }]);
    expect(unrouted('select * from campaigns where advertiser_id = $1 and id = $2')).toEqual([{ relation: 'campaigns', how: 'read' }]);
  });

  it('counts a join on network_id only with a reference that is itself constrained, and only on the side the ON clause filters', () => {
    const joined = 'select * from offers o join campaigns c on c.id = o.campaign_id and c.network_id = o.network_id where o.network_id = $1';
    expect(unrouted(joined)).toEqual([]);
    expect(unrouted('select * from offers o join campaigns c on c.id = o.campaign_id where o.network_id = $1')).toEqual([
      { relation: 'campaigns', how: 'read' },
    ]);
    // Another table's network_id does not route this one.
    expect(unrouted('select * from campaigns c join advertisers a on a.id = c.advertiser_id where a.network_id = $1')).toEqual([
      { relation: 'campaigns', how: 'read' },
    ]);
    expect(unrouted('select * from offers o join campaigns c on c.network_id = o.network_id and c.id = o.campaign_id')).toEqual([
      { relation: 'offers', how: 'read' },
      { relation: 'campaigns', how: 'read' },
    ]);
    // A LEFT JOIN's ON clause filters the joined side, never the preserved one.
    expect(
      unrouted('select * from campaigns c left join offers o on o.campaign_id = c.id and o.network_id = c.network_id where c.network_id = $1'),
    ).toEqual([]);
    expect(unrouted('select * from campaigns c left join offers o on c.network_id = $1 and o.network_id = c.network_id')).toEqual([
      { relation: 'campaigns', how: 'read' },
      { relation: 'offers', how: 'read' },
    ]);
  });

  it('checks subqueries, CTEs and derived tables as queries of their own; a correlated one may join on its outer reference', () => {
    const correlated =
      'select * from webhooks w where w.network_id = $1 and exists (select 1 from webhook_deliveries d where d.webhook_id = w.id and d.network_id = w.network_id)';
    expect(unrouted(correlated)).toEqual([]);
    expect(unrouted(correlated.replace(' and d.network_id = w.network_id', ''))).toEqual([{ relation: 'webhook_deliveries', how: 'read' }]);
    expect(unrouted('with c as (select * from campaigns where id = $1) select * from c')).toEqual([{ relation: 'campaigns', how: 'read' }]);
    expect(unrouted('with campaigns as (select 1 as id) select * from campaigns')).toEqual([]);
    expect(unrouted('select * from (select * from offers where id = $1) o where o.network_id = $2')).toEqual([{ relation: 'offers', how: 'read' }]);
    expect(unrouted('select (select count(*) from creatives where offer_id = $1) from networks where id = $2')).toEqual([
      { relation: 'creatives', how: 'read' },
    ]);
  });

  it('refuses an UPDATE or DELETE by id alone, and an INSERT that does not set network_id', () => {
    expect(unrouted('update offers set status = $1 where id = $2 and version = $3 returning *')).toEqual([{ relation: 'offers', how: 'update' }]);
    expect(unrouted('update offers set status = $1 where network_id = $4 and id = $2 returning *')).toEqual([]);
    expect(unrouted('delete from webhooks where id = $1')).toEqual([{ relation: 'webhooks', how: 'delete' }]);
    expect(unrouted('delete from webhooks w using events e where w.network_id = $1 and e.network_id = w.network_id and e.id = $2')).toEqual([]);
    expect(unrouted('insert into events (id, type, data) values ($1, $2, $3)')).toEqual([{ relation: 'events', how: 'insert' }]);
    expect(unrouted('insert into events (id, network_id, type, data) values ($1, $2, $3, $4) on conflict (id) do nothing')).toEqual([]);
    expect(unrouted('insert into idempotency_keys (api_key_id, key) values ($1, $2)')).toEqual([]);
  });

  it('parses what the service sends: CTEs with INSERT … ON CONFLICT, FOR UPDATE/SHARE, JSON functions, named arguments', () => {
    const statements = [
      `with lock as (select pg_try_advisory_xact_lock(7242031::int, hashtext($1::text || ' ' || $2::text)) as locked),
       claim as (insert into "idempotency_keys" ("api_key_id", "key") select $3, $4 from lock where locked on conflict do nothing returning "key")
       select (select locked from lock) as locked, exists (select 1 from claim) as inserted`,
      `with delivery as (insert into "webhook_deliveries" ("id", "webhook_id", "network_id") select r.id, r.webhook_id, $1
         from jsonb_to_recordset($2::jsonb) as r(id uuid, webhook_id text) returning id)
       select graphile_worker.add_job($3::text, $4::json, queue_name => $5::text, run_at => now() + make_interval(secs => $6::float8)) from delivery`,
      'select * from "memberships" where "memberships"."network_id" = $1 and "memberships"."user_id" = $2 for share',
      'select json_agg(json_build_object($1::text, o.id)) from offers o where o.network_id = $2 for update of o skip locked',
    ];
    for (const sql of statements) expect(unrouted(sql)).toEqual([]);
    expect(() => unrouted('select from where')).toThrow();
  });
});
