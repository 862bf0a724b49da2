import { sql } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/postgres-js';
import postgres from 'postgres';
import { describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { database } from '@/db/client';
import { listEvents } from '@/server/services/events/list-events';
import { createNetworkRow, useTestDatabase } from '@/tests/support/fixtures';

// `GET …/events?object_id=` on a network with a long log: the events naming a rare object are
// found through events_data_values_idx, not by reading the network's events until a page is full
// (which, for an id named by no event, is all of them, on the database every tenant shares).

useTestDatabase();

const EVENTS = 20_000;

describe('the event log filtered by object', () => {
  it('finds a rare object among a network’s 20,000 events through the index', async () => {
    const network = await createNetworkRow();
    await database().execute(sql`
      insert into events (id, network_id, type, data)
      select 'evt_' || lpad(g::text, 26, '0') || ${network.id}, ${network.id}, 'creative.ready',
             jsonb_build_object('creative_id', 'crv_bulk' || g, 'offer_id', 'off_bulk' || (g / 3), 'duration_ms', g)
      from generate_series(1, ${EVENTS}) g`);
    await database().execute(sql`analyze events`);

    // The statement the service sends, as it sends it (a drizzle logger on a connection of our own).
    const sent: Array<{ query: string; params: unknown[] }> = [];
    const client = postgres(inject('databaseUrl'), { max: 1, onnotice: () => {} });
    try {
      const db = drizzle(client, { logger: { logQuery: (query, params) => sent.push({ query, params }) } });
      const found = await listEvents({
        db,
        networkId: network.id,
        filter: { objectId: 'off_bulk4000' },
        afterId: undefined,
        take: 51,
        order: 'desc',
      });
      expect(found.map((e) => e.data.creative_id)).toEqual(['crv_bulk12002', 'crv_bulk12001', 'crv_bulk12000']);
      expect(await listEvents({ db, networkId: network.id, filter: { objectId: 'off_named_by_none' }, afterId: undefined, take: 51 })).toEqual([]);

      const [statement] = sent;
      const [{ 'QUERY PLAN': plan }] = await client.unsafe<[{ 'QUERY PLAN': unknown }]>(
        `explain (format json) ${statement!.query}`,
        statement!.params as never[],
      );
      expect(JSON.stringify(plan)).toContain('"Index Name":"events_data_values_idx"');
    } finally {
      await client.end();
    }
  });
});
