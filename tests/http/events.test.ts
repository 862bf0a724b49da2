import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { recordEvent } from '@/server/services/events/record-event';
import { EVENT_DATA_EXAMPLES, EVENT_TYPE_NAMES } from '@/domain/events';
import { api } from '@/tests/support/api';
import { closeTestDatabase, createNetworkRow, openTestDatabase, personKey } from '@/tests/support/fixtures';

beforeAll(openTestDatabase);
afterAll(closeTestDatabase);

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

  it('lists the event types a webhook can subscribe to', async () => {
    const res = await api<{ items: Array<{ type: string; description: string }> }>('GET', '/event-types');
    expect(res.status).toBe(200);
    expect(res.body.items.map((i) => i.type)).toEqual(EVENT_TYPE_NAMES);
    expect(res.body.items.map((i) => i.type)).toEqual(
      expect.arrayContaining(['offer.accepted', 'offer.rejected', 'optin.completed', 'invitation.accepted', 'creative.ready', 'creative.failed']),
    );
  });
});
