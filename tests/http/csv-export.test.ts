import { request } from 'node:http';
import { sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { database } from '@/db/client';
import { api } from '@/tests/support/api';
import { parseCsv } from '@/tests/support/csv';
import { createNetworkRow, personKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

/** `count` advertisers of the network, straight into the table (names in id order). */
async function advertisersOf(networkId: string, count: number, prefix = 'Advertiser') {
  await database().execute(sql`
    insert into advertisers (id, network_id, name, website)
    select 'adv_' || lpad(g::text, 26, '0') || ${networkId}, ${networkId}, ${prefix} || ' ' || g, 'https://example.com/' || g
    from generate_series(1, ${count}) g`);
}

const csvHeaders = (token?: string) => ({ accept: 'text/csv', ...(token ? { authorization: `Bearer ${token}` } : {}) });

describe('any list as CSV (Accept: text/csv)', () => {
  it('streams every page of the list, with its filters, as one file', async () => {
    const network = await createNetworkRow();
    await advertisersOf(network.id, 450);
    const res = await api('GET', `/networks/${network.id}/advertisers?limit=5`, { headers: { accept: 'text/csv' } });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="advertisers-\d{4}-\d{2}-\d{2}\.csv"$/);
    const rows = parseCsv(res.text);
    expect(rows[0]).toEqual([
      'id',
      'network_id',
      'name',
      'website',
      'contact_email',
      'categories',
      'version',
      'created_at',
      'updated_at',
      'deleted_at',
    ]);
    expect(rows).toHaveLength(451); // the header and every row, whatever `limit` said
    // The same rows, in the same order, as paging through the JSON.
    const ids: string[] = [];
    let cursor: string | null = null;
    do {
      const page: { body: { items: Array<{ id: string }>; next_cursor: string | null } } = await api<{
        items: Array<{ id: string }>;
        next_cursor: string | null;
      }>('GET', `/networks/${network.id}/advertisers?limit=200${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ''}`);
      ids.push(...page.body.items.map((a) => a.id));
      cursor = page.body.next_cursor;
    } while (cursor);
    expect(rows.slice(1).map((r) => r[0])).toEqual(ids);

    const events = await api('GET', `/networks/${network.id}/campaigns?status=active`, { headers: { accept: 'text/csv' } });
    expect(parseCsv(events.text)).toHaveLength(1); // the header alone: no active campaign
  });

  it('writes text as text: quotes, commas, line breaks, and no formulas', async () => {
    const network = await createNetworkRow();
    for (const name of ['=HYPERLINK("http://evil.example","x")', 'Smith, Jones & "Co"', 'Two\nlines', '-2+3', '@SUM(A1)']) {
      expect((await api('POST', `/networks/${network.id}/advertisers`, { body: { name } })).status).toBe(201);
    }
    const res = await api('GET', `/networks/${network.id}/advertisers`, { headers: { accept: 'text/csv' } });
    const names = parseCsv(res.text)
      .slice(1)
      .map((r) => r[2]);
    expect(names).toEqual(['\'=HYPERLINK("http://evil.example","x")', 'Smith, Jones & "Co"', 'Two\nlines', "'-2+3", "'@SUM(A1)"]);
  });

  it('answers as the JSON list would: the same 401, 403 and 400 (as problems), and JSON for anything but a list', async () => {
    const network = await createNetworkRow();
    const other = await createNetworkRow();
    const outsider = await personKey([{ networkId: other.id, role: 'administrator' }]);
    const forbidden = await api('GET', `/networks/${network.id}/advertisers`, { token: outsider.token, headers: { accept: 'text/csv' } });
    expect(forbidden.status).toBe(403);
    expect(forbidden.headers.get('content-type')).toMatch(/^application\/problem\+json/);
    expect((await api('GET', `/networks/${network.id}/advertisers`, { token: null, headers: { accept: 'text/csv' } })).status).toBe(401);
    const reader = await personKey([{ networkId: network.id, role: 'read_only' }]);
    expect((await api('GET', `/networks/${network.id}/audit-log`, { token: reader.token, headers: { accept: 'text/csv' } })).status).toBe(403);
    expect((await api('GET', `/networks/${network.id}/campaigns?status=nope`, { headers: { accept: 'text/csv' } })).status).toBe(400);
    // One object, or a client that prefers JSON: JSON as always.
    const one = await api('GET', `/networks/${network.id}`, { headers: { accept: 'text/csv' } });
    expect(one.headers.get('content-type')).toBe('application/json');
    const catalog = await api('GET', '/event-types', { headers: { accept: 'text/csv' } }); // a list that does not page
    expect(catalog.status).toBe(200);
    expect(catalog.headers.get('content-type')).toBe('application/json');
    const prefersJson = await api('GET', `/networks/${network.id}/advertisers`, { headers: { accept: 'application/json, text/csv;q=0.5' } });
    expect(prefersJson.headers.get('content-type')).toBe('application/json');
  });

  it('checks the key again for every page: revoked mid-export, the stream is cut, never finished', async () => {
    const network = await createNetworkRow();
    // Far more than the socket buffers hold while the client does not read (~45 k rows, ~7 MB).
    await advertisersOf(network.id, 45_000);
    const { token, key } = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const url = new URL(`${inject('baseUrl')}/v1/networks/${network.id}/advertisers`);
    const outcome = await new Promise<{ rows: number; complete: boolean }>((resolve, reject) => {
      const req = request(url, { headers: csvHeaders(token) }, (res) => {
        expect(res.statusCode).toBe(200);
        res.pause();
        let text = '';
        // The first page was authorized; the key is revoked while the client has read nothing.
        void api('DELETE', `/networks/${network.id}/apikeys/${key.id}`).then((revoked) => {
          expect(revoked.status).toBe(200);
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve({ rows: text.split('\r\n').length - 2, complete: res.complete }));
          res.on('aborted', () => resolve({ rows: text.split('\r\n').length - 2, complete: false }));
          res.on('error', () => resolve({ rows: text.split('\r\n').length - 2, complete: false }));
          res.resume();
        }, reject);
      });
      req.on('error', reject);
      req.end();
    });
    expect(outcome.complete).toBe(false);
    expect(outcome.rows).toBeGreaterThanOrEqual(200);
    expect(outcome.rows).toBeLessThan(45_000);
  }, 60_000);
});
