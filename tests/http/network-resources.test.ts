/**
 * What creating and updating any versioned resource of a network promises over /v1, one row per
 * resource: 201 with ETag "1" and the resource's shape, the same read back with a read_only key,
 * bad input refused with 400 naming the field to fix, and bad values or fields of a PATCH refused
 * with 400. Each resource's own rules (defaults, lists, updates, deletes) are tested in its own file.
 */
import { describe, expect, it } from 'vitest';
import { api } from '@/tests/support/api';
import { networkWithKeys, useTestDatabase } from '@/tests/support/fixtures';
import { expectCreatedThenRead, expectFieldErrors } from '@/tests/support/resource-contract';

useTestDatabase();

type Net = Awaited<ReturnType<typeof networkWithKeys>>;

interface CreateContract {
  idPrefix: string;
  /** A full create and the resource it must answer (besides id, network, version and times). */
  created: { body: Record<string, unknown>; fields: Record<string, unknown> };
  /** The smallest valid body, which each refused case changes. */
  base: Record<string, unknown>;
  refused: Array<[fields: Record<string, unknown>, field: string]>;
  /** PATCH bodies refused with 400: bad values, and fields no update may set. */
  updateRefused: Array<Record<string, unknown>>;
}

/** A campaign names an advertiser of its network: one to name. */
async function advertiserOf(n: Net): Promise<string> {
  const res = await api<{ id: string }>('POST', `/networks/${n.id}/advertisers`, { token: n.admin, body: { name: 'Acme' } });
  expect(res.status).toBe(201);
  return res.body.id;
}

const RESOURCES: Record<string, (n: Net) => Promise<CreateContract>> = {
  advertisers: async () => ({
    idPrefix: 'adv',
    created: {
      body: { name: '  Acme Coffee ', website: 'https://acme.example', contact_email: 'ads@acme.example', categories: ['1165', '1165'] },
      // An ad category sent twice is kept once.
      fields: { name: 'Acme Coffee', website: 'https://acme.example', contact_email: 'ads@acme.example', categories: ['1165'], deleted_at: null },
    },
    base: { name: 'A' },
    refused: [
      [{ name: '   ' }, 'name'],
      [{ name: undefined }, 'name'],
      [{ name: 42 }, 'name'],
      [{ website: 'not a url' }, 'website'],
      [{ website: 'ftp://acme.example' }, 'website'],
      [{ contact_email: 'nobody' }, 'contact_email'],
      [{ contact_email: 7 }, 'contact_email'],
      [{ categories: ['9999'] }, 'categories'],
      [{ categories: '1165' }, 'categories'],
    ],
    updateRefused: [{ name: '' }, { website: 'acme' }, { network_id: 'net_x' }, { categories: ['nope'] }],
  }),
  podcasts: async () => ({
    idPrefix: 'pod',
    created: {
      body: { name: 'Daily Brew', host_name: 'Sam Host', rss_url: 'https://feeds.example/brew.xml', excluded_categories: ['1361'] },
      // Not opted in, and the default voice.
      fields: {
        name: 'Daily Brew',
        host_name: 'Sam Host',
        voice: 'default',
        rss_url: 'https://feeds.example/brew.xml',
        opt_in_status: 'not_opted_in',
        opted_in_at: null,
        excluded_categories: ['1361'],
        blocked_advertiser_ids: [],
      },
    },
    base: { name: 'P', host_name: 'H' },
    refused: [
      [{ name: '' }, 'name'],
      [{ host_name: '  ' }, 'host_name'],
      [{ host_name: undefined }, 'host_name'],
      [{ host_name: 3 }, 'host_name'],
      [{ voice: 'robot' }, 'voice'],
      [{ rss_url: 'feed' }, 'rss_url'],
      [{ rss_url: 'javascript:alert(1)' }, 'rss_url'],
      [{ excluded_categories: ['0'] }, 'excluded_categories'],
      [{ blocked_advertiser_ids: ['adv_00000000000000000000000000'] }, 'blocked_advertiser_ids'],
    ],
    // The opt-in state has its own operations.
    updateRefused: [{ voice: 'robot' }, { host_name: '' }, { opt_in_status: 'opted_in' }, { excluded_categories: 'all' }],
  }),
  campaigns: async (n) => {
    const advertiser_id = await advertiserOf(n);
    const terms = { name: 'Spring sale', advertiser_id, script: 'Acme coffee: wake up happy.', budget_cents: 500000, currency: 'USD' };
    return {
      idPrefix: 'cmp',
      created: {
        body: { ...terms, starts_at: '2026-12-01T00:00:00Z', ends_at: '2026-12-31T00:00:00.000Z' },
        // A draft; its times as the API shows time.
        fields: {
          ...terms,
          status: 'draft',
          starts_at: '2026-12-01T00:00:00.000Z',
          ends_at: '2026-12-31T00:00:00.000Z',
          competitive_separation: false,
          // None given: none to talk about, no line the script must hold.
          talking_points: [],
          required_lines: [],
        },
      },
      base: { name: 'C', advertiser_id },
      refused: [
        [{ name: ' ' }, 'name'],
        [{ name: 7 }, 'name'],
        [{ advertiser_id: undefined }, 'advertiser_id'],
        [{ script: 'x'.repeat(2001) }, 'script'],
        [{ status: 'paused' }, 'status'],
        [{ status: 'running' }, 'status'],
        [{ starts_at: 'tomorrow' }, 'starts_at'],
        [{ starts_at: '2026-12-02T00:00:00Z', ends_at: '2026-12-01T00:00:00Z' }, 'ends_at'],
        [{ starts_at: '2026-12-01T00:00:00Z', ends_at: '2026-12-01T00:00:00Z' }, 'ends_at'],
        [{ budget_cents: -1, currency: 'USD' }, 'budget_cents'],
        [{ budget_cents: 1.5, currency: 'USD' }, 'budget_cents'],
        [{ budget_cents: '100', currency: 'USD' }, 'budget_cents'],
        [{ budget_cents: 100 }, 'currency'],
        [{ budget_cents: 100, currency: 'usd' }, 'currency'],
        [{ budget_cents: 100, currency: 'EURO' }, 'currency'],
        [{ competitive_separation: 1 }, 'competitive_separation'],
      ],
      updateRefused: [{ name: ' ' }, { budget_cents: -1 }, { network_id: 'net_x' }, { competitive_separation: 'yes' }],
    };
  },
};

describe.each(Object.entries(RESOURCES))('creating %s', (resource, contractOf) => {
  it('creates with 201, ETag and the resource shape; reads it back', async () => {
    const n = await networkWithKeys();
    const { idPrefix, created } = await contractOf(n);
    await expectCreatedThenRead({ network: n, collection: `/networks/${n.id}/${resource}`, idPrefix, ...created });
  });

  it('refuses bad input with 400 naming the field', async () => {
    const n = await networkWithKeys();
    const { base, refused } = await contractOf(n);
    await expectFieldErrors({ collection: `/networks/${n.id}/${resource}`, token: n.admin, base, cases: refused });
  });

  it('refuses bad values and fields on update with 400', async () => {
    const n = await networkWithKeys();
    const { base, updateRefused } = await contractOf(n);
    const created = await api<{ id: string }>('POST', `/networks/${n.id}/${resource}`, { token: n.admin, body: base });
    expect(created.status, created.text).toBe(201);
    for (const body of updateRefused) {
      const res = await api('PATCH', `/networks/${n.id}/${resource}/${created.body.id}`, { token: n.admin, body });
      expect(res.status, JSON.stringify(body)).toBe(400);
    }
  });
});
