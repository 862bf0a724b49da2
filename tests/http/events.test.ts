import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { recordEvent } from '@/server/services/events/record-event';
import { EVENT_DATA_EXAMPLES, EVENT_TYPE_NAMES } from '@/domain/events';
import { api } from '@/tests/support/api';
import { createNetworkRow, personKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

describe('event log', () => {
  it('records an event on the caller’s transaction: committed → listed, rolled back → absent', async () => {
    const network = await createNetworkRow();
    await database().transaction((tx) =>
      recordEvent({ tx, networkId: network.id, type: 'optin.completed', data: { ...EVENT_DATA_EXAMPLES['optin.completed'], podcast_id: 'pod_1' } }),
    );
    await database()
      .transaction(async (tx) => {
        await recordEvent({
          tx,
          networkId: network.id,
          type: 'offer.rejected',
          data: { ...EVENT_DATA_EXAMPLES['offer.rejected'], offer_id: 'off_1' },
        });
        throw new Error('roll back');
      })
      .catch(() => {});

    const { token } = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const res = await api<{ items: Array<Record<string, unknown>>; next_cursor: null }>('GET', `/networks/${network.id}/events`, { token });
    expect(res.status).toBe(200);
    expect(res.body.items).toHaveLength(1);
    expect(res.body.items[0]).toMatchObject({ network_id: network.id, type: 'optin.completed', data: { podcast_id: 'pod_1' } });
    expect(res.body.items[0]!.id).toMatch(/^evt_/);
    expect(res.body.next_cursor).toBeNull();
  });

  it('filters by type and pages in order', async () => {
    const network = await createNetworkRow();
    for (let i = 0; i < 3; i++) {
      await database().transaction((tx) =>
        recordEvent({ tx, networkId: network.id, type: 'creative.ready', data: { ...EVENT_DATA_EXAMPLES['creative.ready'], duration_ms: i } }),
      );
      await database().transaction((tx) =>
        recordEvent({
          tx,
          networkId: network.id,
          type: 'creative.failed',
          data: { ...EVENT_DATA_EXAMPLES['creative.failed'], failure_reason: String(i) },
        }),
      );
    }
    const first = await api<{ items: Array<{ data: { duration_ms: number }; type: string }>; next_cursor: string }>(
      'GET',
      `/networks/${network.id}/events?type=creative.ready&limit=2`,
    );
    expect(first.body.items.map((e) => e.data.duration_ms)).toEqual([0, 1]);
    const second = await api<{ items: Array<{ data: { duration_ms: number } }>; next_cursor: null }>(
      'GET',
      `/networks/${network.id}/events?type=creative.ready&limit=2&cursor=${encodeURIComponent(first.body.next_cursor)}`,
    );
    expect(second.body.items.map((e) => e.data.duration_ms)).toEqual([2]);
    expect(second.body.next_cursor).toBeNull();
    const bad = await api('GET', `/networks/${network.id}/events?type=no.such`);
    expect(bad.status).toBe(400);
  });

  it('filters by the object an event is about and by time; reads one event by id', async () => {
    const network = await createNetworkRow();
    const record = (type: 'offer.rejected' | 'creative.failed', data: Record<string, unknown>) =>
      database().transaction((tx) => recordEvent({ tx, networkId: network.id, type, data: { ...EVENT_DATA_EXAMPLES[type], ...data } as never }));
    await record('offer.rejected', { offer_id: 'off_a', reason: null });
    await record('creative.failed', { creative_id: 'crv_b', offer_id: 'off_a', failure_reason: 'x' });
    await record('offer.rejected', { offer_id: 'off_c', reason: 'off_a' });
    type Events = { items: Array<{ id: string; type: string; occurred_at: string; data: Record<string, unknown> }>; next_cursor: string | null };
    const list = async (query: string) => {
      const res = await api<Events>('GET', `/networks/${network.id}/events${query}`);
      expect(res.status).toBe(200);
      return res.body.items;
    };

    // Any field of data names the object, an id or not (a reason that quotes an id matches too: it is in the data).
    expect((await list('?object_id=off_a')).map((e) => e.type)).toEqual(['offer.rejected', 'creative.failed', 'offer.rejected']);
    expect((await list('?object_id=crv_b')).map((e) => e.type)).toEqual(['creative.failed']);
    expect((await list('?object_id=off_a&type=creative.failed&order=desc')).map((e) => e.data.creative_id)).toEqual(['crv_b']);
    expect(await list('?object_id=off_zzz')).toEqual([]);

    const all = await list('');
    const at = encodeURIComponent(all[1]!.occurred_at);
    expect((await list(`?since=${at}`)).map((e) => e.id)).toEqual(all.filter((e) => e.occurred_at >= all[1]!.occurred_at).map((e) => e.id));
    expect((await list(`?until=${at}`)).map((e) => e.id)).toEqual(all.filter((e) => e.occurred_at <= all[1]!.occurred_at).map((e) => e.id));
    expect(await list('?since=2999-01-01T00:00:00Z')).toEqual([]);
    expect((await api('GET', `/networks/${network.id}/events?since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z`)).status).toBe(400);
    expect((await api('GET', `/networks/${network.id}/events?until=soon`)).status).toBe(400);
    expect((await api('GET', `/networks/${network.id}/events?object_id=${'x'.repeat(101)}`)).status).toBe(400);

    const one = await api<Events['items'][number]>('GET', `/networks/${network.id}/events/${all[0]!.id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual(all[0]);
    expect((await api('GET', `/networks/${network.id}/events/evt_nope`)).status).toBe(404);
    // Another network's event is not found through this network, even for a key that may read both.
    const other = await createNetworkRow();
    expect((await api('GET', `/networks/${other.id}/events/${all[0]!.id}`)).status).toBe(404);
    const { token } = await personKey([{ networkId: other.id, role: 'read_only' }]);
    expect((await api('GET', `/networks/${network.id}/events/${all[0]!.id}`, { token })).status).toBe(403);
  });

  it('lists the event types a webhook can subscribe to', async () => {
    const res = await api<{ items: Array<{ type: string; description: string }> }>('GET', '/event-types');
    expect(res.status).toBe(200);
    expect(res.body.items.map((i) => i.type)).toEqual(EVENT_TYPE_NAMES);
    expect(res.body.items.map((i) => i.type)).toEqual(
      expect.arrayContaining(['offer.accepted', 'offer.rejected', 'optin.completed', 'invitation.accepted', 'creative.ready', 'creative.failed']),
    );
  });
});
