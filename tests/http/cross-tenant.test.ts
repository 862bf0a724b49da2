import { randomBytes } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { appRouter } from '@/server/routers';
import { api } from '@/tests/support/api';
import {
  adInventory,
  createNetworkRow,
  creativeRow,
  deliveryRow,
  eventRow,
  flightRow,
  invitationRow,
  membershipOf,
  offerRow,
  personKey,
  serviceAccountKey,
  useTestDatabase,
  voiceConsentRow,
  webhookRow,
} from '@/tests/support/fixtures';
import { reportReliability } from '@/tests/support/reliability';

useTestDatabase();

interface Route {
  name: string;
  method: string;
  path: string;
  params: string[];
}

/** Every network-scoped operation, straight from the router: a new endpoint joins this suite by itself. */
const networkRoutes: Route[] = Object.entries(appRouter._def.procedures)
  .map(([name, procedure]) => {
    const openapi = (procedure as unknown as { _def: { meta?: { openapi?: { method: string; path: string } } } })._def.meta?.openapi;
    return { name, method: openapi!.method, path: openapi!.path, params: [...openapi!.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!) };
  })
  .filter((r) => r.params.includes('networkId'));

/**
 * How to make a resource of each kind inside a network, by the path parameter
 * that names it. A route with a parameter missing here fails the suite: add
 * the fixture, so no endpoint escapes the cross-tenant checks.
 */
const fixtures: Record<string, (networkId: string) => Promise<string>> = {
  async memberId(networkId) {
    const { person } = await personKey([{ networkId, role: 'read_only' }]);
    return (await membershipOf(networkId, person.id)).id;
  },
  async keyId(networkId) {
    return (await personKey([{ networkId, role: 'read_only' }])).key.id;
  },
  async serviceAccountId(networkId) {
    return (await serviceAccountKey(networkId, 'read_only')).serviceAccount.id;
  },
  async advertiserId(networkId) {
    return (await adInventory(networkId)).advertiser.id;
  },
  async campaignId(networkId) {
    return (await adInventory(networkId)).campaign.id;
  },
  async flightId(networkId) {
    return (await flightRow(networkId, (await adInventory(networkId)).campaign)).id;
  },
  async podcastId(networkId) {
    return (await adInventory(networkId)).podcast.id;
  },
  async offerId(networkId) {
    return (await offerRow(networkId, await adInventory(networkId))).id;
  },
  async creativeId(networkId) {
    const offer = await offerRow(networkId, await adInventory(networkId));
    return (await creativeRow(networkId, offer)).id;
  },
  async webhookId(networkId) {
    return (await webhookRow(networkId)).id;
  },
  async deliveryId(networkId) {
    const to = { webhookId: (await webhookRow(networkId)).id, eventId: (await eventRow(networkId)).id };
    return (await deliveryRow(networkId, to, { status: 'failed' })).id;
  },
  async eventId(networkId) {
    return (await eventRow(networkId)).id;
  },
  async invitationId(networkId) {
    return (await invitationRow(networkId)).invitation.id;
  },
  async consentId(networkId) {
    return (await voiceConsentRow(networkId, (await adInventory(networkId)).podcast)).consent.id;
  },
};

/** A body that passes validation, for writes whose 404 would otherwise hide behind a 400. */
const validBodies: Record<string, unknown> = {
  'POST /networks/{networkId}/offers/{offerId}/delivery-reports': { date: '2026-12-01', impressions: 1, source: 'probe' },
  'PATCH /networks/{networkId}/members/{memberId}': { role: 'read_only' },
  'POST /networks/{networkId}/members/{memberId}/keys': { key_name: 'probe' },
  'POST /networks/{networkId}/service-accounts/{serviceAccountId}/keys': { key_name: 'probe' },
  'POST /networks/{networkId}/campaigns/{campaignId}/preview': { podcast_id: 'pod_00000000000000000000000000' },
  'POST /networks/{networkId}/campaigns/{campaignId}/flights': {
    name: 'Probe',
    starts_at: '2026-12-01T00:00:00Z',
    ends_at: '2026-12-02T00:00:00Z',
    placement: 'pre',
    pricing: { model: 'flat', amount_cents: 100, currency: 'USD' },
  },
  'POST /networks/{networkId}/flights/{flightId}/offers': { podcast_ids: ['pod_00000000000000000000000000'] },
  'POST /networks/{networkId}/webhooks/{webhookId}/recover': { since: new Date(Date.now() - 60_000).toISOString() },
  'POST /networks/{networkId}/webhooks/{webhookId}/test': { event_type: 'offer.accepted' },
  'POST /networks/{networkId}/creatives/{creativeId}/request-changes': { comment: 'Probe' },
  'POST /networks/{networkId}/podcasts/{podcastId}/voice-consents': { host_name: 'Probe', host_email: 'probe@example.test', scope: 'all_campaigns' },
};

function fill(path: string, values: Record<string, string>): string {
  return path.replace(/\{(\w+)\}/g, (_, name: string) => values[name]!);
}

let keyOfA: string;
let networkA: string;
let idsInB: Record<string, string>;

beforeAll(async () => {
  const a = await createNetworkRow('Tenant A');
  const b = await createNetworkRow('Tenant B');
  networkA = a.id;
  keyOfA = (await personKey([{ networkId: a.id, role: 'administrator' }])).token;
  idsInB = { networkId: b.id };
  const needed = new Set(networkRoutes.flatMap((r) => r.params).filter((p) => p !== 'networkId'));
  for (const param of needed) {
    const make = fixtures[param];
    if (make) idsInB[param] = await make(b.id);
  }
});

const probes = { foreignNetwork: 0, foreignResource: 0 };

describe('cross-tenant isolation, for every network-scoped endpoint', () => {
  it('knows how to make every kind of resource the routes name', () => {
    const missing = networkRoutes.flatMap((r) => r.params).filter((p) => p !== 'networkId' && !fixtures[p]);
    expect(missing, 'add a fixture for these path parameters').toEqual([]);
    expect(networkRoutes.length).toBeGreaterThan(5);
  });

  it('a key of network A gets 403 on every path of network B', async () => {
    const failures: string[] = [];
    for (const route of networkRoutes) {
      const res = await api(route.method, fill(route.path, idsInB), {
        token: keyOfA,
        body: route.method === 'GET' || route.method === 'DELETE' ? undefined : {},
      });
      if (res.status !== 403) failures.push(`${route.method} ${route.path} → ${res.status}`);
    }
    expect(failures).toEqual([]);
    probes.foreignNetwork = networkRoutes.length;
  });

  it('a key of network A gets 404 when it addresses B’s resources through A’s paths', async () => {
    const failures: string[] = [];
    for (const route of networkRoutes.filter((r) => r.params.length > 1)) {
      const key = `${route.method} ${route.path}`;
      const body = route.method === 'GET' || route.method === 'DELETE' ? undefined : (validBodies[key] ?? {});
      const res = await api(route.method, fill(route.path, { ...idsInB, networkId: networkA }), { token: keyOfA, body });
      if (res.status !== 404) failures.push(`${key} → ${res.status}`);
    }
    expect(failures).toEqual([]);
    probes.foreignResource = networkRoutes.filter((r) => r.params.length > 1).length;
    reportReliability('cross-tenant', {
      claim: "every network-scoped operation, called with another network's key: 403 on its paths, 404 for its resources through one's own",
      figures: { 'operations probed (403)': probes.foreignNetwork, 'operations probed (404)': probes.foreignResource, leaks: 0 },
    });
  });
});

/** The query a read cannot be called without (the leak scan calls every read of a network). */
const requiredQueries: Record<string, string> = { '/networks/{networkId}/search': '?q=Keys' };

/** Every operation, from the router, with its path parameters. */
const allRoutes: Route[] = Object.entries(appRouter._def.procedures).map(([name, procedure]) => {
  const openapi = (procedure as unknown as { _def: { meta: { openapi: { method: string; path: string } } } })._def.meta.openapi;
  return { name, method: openapi.method, path: openapi.path, params: [...openapi.path.matchAll(/\{(\w+)\}/g)].map((m) => m[1]!) };
});

describe('keys across people and networks, for every route that takes a key id or returns keys', () => {
  /**
   * Person P joins network A (read_only) by accepting A's invitation, and network B
   * (administrator) by accepting B's with the key A's acceptance gave: P got both keys
   * themselves, so each proves who P is and only the networks keep them apart (a key an
   * administrator minted would be kept from P's keys by the identity rule alone). A's
   * administrator also minted P a key on A (so one of P's keys is in A's hands), and the operator
   * has a super_user key and a key of its own scoped to A. Nothing reached through A may touch or
   * show anything of B or of the operator.
   */
  let a: string;
  let b: string;
  let adminOfA: string;
  let keyOfPinA: { id: string; token: string };
  let mintedForPinA: { id: string; token: string };
  let keyOfPinB: { id: string; token: string };
  let operatorKeys: string[];

  /** Invite P's email to a network and accept, with the token alone (a newcomer) or with one of P's keys. */
  async function join(networkId: string, inviter: string | undefined, email: string, role: 'read_only' | 'administrator', withKey?: string) {
    const invitation = await api<{ token: string }>('POST', `/networks/${networkId}/invitations`, { token: inviter, body: { email, role } });
    expect(invitation.status).toBe(201);
    const accepted = withKey
      ? await api<Accepted>('POST', '/invitations/accept', { token: withKey, body: { invitation_token: invitation.body.token } })
      : await api<Accepted>('POST', '/invitations/accept', { token: invitation.body.token, body: {} });
    expect(accepted.status).toBe(201);
    return accepted.body;
  }
  type Accepted = { member: { id: string }; api_key: { id: string; token: string } };

  beforeAll(async () => {
    a = (await createNetworkRow('Keys A')).id;
    b = (await createNetworkRow('Keys B')).id;
    adminOfA = (await personKey([{ networkId: a, role: 'administrator' }])).token;
    const email = `p-${randomBytes(4).toString('hex')}@example.test`;
    const inA = await join(a, adminOfA, email, 'read_only');
    keyOfPinA = inA.api_key;
    keyOfPinB = (await join(b, undefined, email, 'administrator', keyOfPinA.token)).api_key;
    const minted = await api<{ id: string; token: string }>('POST', `/networks/${a}/members/${inA.member.id}/keys`, {
      token: adminOfA,
      body: { key_name: 'minted by A' },
    });
    expect(minted.status).toBe(201);
    mintedForPinA = minted.body;
    const superKey = await api<{ key_id: string }>('GET', '/me');
    const operatorScoped = await api<{ id: string }>('POST', '/apikeys', {
      body: { key_name: 'operator on A', scopes: [{ network_id: a, role: 'administrator' }] },
    });
    expect(operatorScoped.status).toBe(201);
    operatorKeys = [superKey.body.key_id, operatorScoped.body.id];
  });

  const keyRoutes = () => allRoutes.filter((r) => r.params.includes('keyId'));

  it('answers 404 on every key-id route for a key beyond the caller: another network’s, the operator’s', async () => {
    expect(keyRoutes().length).toBeGreaterThanOrEqual(5);
    const failures: string[] = [];
    for (const route of keyRoutes()) {
      // Own-key routes are called with P's keys on A (the one P got, the one A minted); network routes by A's administrator, on A.
      const callers = route.params.includes('networkId') ? [adminOfA] : [keyOfPinA.token, mintedForPinA.token];
      for (const token of callers) {
        for (const target of [keyOfPinB.id, ...operatorKeys]) {
          const body = route.method === 'POST' ? {} : undefined;
          const res = await api(route.method, fill(route.path, { networkId: a, keyId: target }), { token, body });
          if (res.status !== 404)
            failures.push(
              `${route.method} ${route.path} on ${target} with ${token === adminOfA ? 'A’s administrator' : token === keyOfPinA.token ? 'P’s key on A' : 'the key A minted for P'} → ${res.status}`,
            );
        }
      }
    }
    expect(failures).toEqual([]);
    expect((await api('GET', '/me', { token: keyOfPinB.token })).status).toBe(200);
  });

  it('shows nothing of another network in any answer read through network A', async () => {
    const leaks: string[] = [];
    const reads = allRoutes.filter((r) => r.method === 'GET' && r.params.length === 1 && r.params[0] === 'networkId');
    expect(reads.length).toBeGreaterThan(10);
    // Every read must answer 200: an error answer proves nothing about leaks (and is a fault of its own).
    for (const route of reads) {
      const res = await api('GET', `${fill(route.path, { networkId: a })}${requiredQueries[route.path] ?? ''}`, { token: adminOfA });
      if (res.status !== 200) leaks.push(`${route.path} answered ${res.status}, not 200`);
      else if (res.text.includes(b)) leaks.push(`${route.path} mentions network B`);
    }
    // Search finds keys by name or exact id: through A, neither P's key on B nor the operator's.
    for (const q of [keyOfPinB.id, ...operatorKeys, 'operator on A']) {
      const res = await api('GET', `/networks/${a}/search?q=${encodeURIComponent(q)}`, { token: adminOfA });
      if (res.status !== 200) leaks.push(`search for ${q} answered ${res.status}, not 200`);
      else if ([keyOfPinB.id, ...operatorKeys].some((id) => res.text.includes(id))) leaks.push(`search for ${q} found ${res.text.slice(0, 200)}`);
    }
    for (const { token, id } of [keyOfPinA, mintedForPinA]) {
      for (const path of ['/apikeys', `/apikeys/${id}`, '/me']) {
        const res = await api('GET', path, { token });
        if (res.status !== 200) leaks.push(`${path} with ${id} answered ${res.status}, not 200`);
        else if (res.text.includes(b)) leaks.push(`${path} with ${id} mentions network B: ${res.text.slice(0, 200)}`);
      }
    }
    expect(leaks).toEqual([]);
    const listed = await api<{ items: Array<{ id: string; scopes: Array<{ network_id: string }> }> }>('GET', `/networks/${a}/apikeys`, {
      token: adminOfA,
    });
    expect(listed.body.items.map((k) => k.id)).not.toEqual(expect.arrayContaining([operatorKeys[1]]));
    for (const item of listed.body.items) expect(item.scopes.every((s) => s.network_id === a)).toBe(true);
  });
});

describe('roles within a network, for every operation that writes', () => {
  /** Writes a read_only key may make, each with the reason; every other write needs administrator. */
  const readOnlyWrites: Record<string, string> = {
    'POST /networks/{networkId}/campaigns/{campaignId}/preview': 'a preview changes nothing',
  };

  it('a read_only key of the network gets 403 on every write it may not make, before validation', async () => {
    const n = (await createNetworkRow('Roles')).id;
    const reader = (await personKey([{ networkId: n, role: 'read_only' }])).token;
    const ids: Record<string, string> = { networkId: n };
    const writes = networkRoutes.filter((r) => r.method !== 'GET');
    for (const param of new Set(writes.flatMap((r) => r.params).filter((p) => p !== 'networkId'))) ids[param] = await fixtures[param]!(n);
    const failures: string[] = [];
    for (const route of writes) {
      const key = `${route.method} ${route.path}`;
      const res = await api(route.method, fill(route.path, ids), { token: reader, body: route.method === 'DELETE' ? undefined : {} });
      const allowed = key in readOnlyWrites;
      if (allowed ? res.status === 403 : res.status !== 403) failures.push(`${key} → ${res.status}`);
    }
    expect(writes.length).toBeGreaterThan(20);
    expect(failures).toEqual([]);
  });
});

describe('brand safety stays inside its network', () => {
  it('a podcast cannot block another network’s advertiser (400), and a flight’s eligible podcasts and their reasons are its own network’s only', async () => {
    const a = (await createNetworkRow('Brand A')).id;
    const b = (await createNetworkRow('Brand B')).id;
    const adminOfA = (await personKey([{ networkId: a, role: 'administrator' }])).token;
    const adminOfB = (await personKey([{ networkId: b, role: 'administrator' }])).token;
    const inA = await adInventory(a);
    const inB = await adInventory(b);
    const blockForeign = await api<{ errors: Array<{ path: string }> }>('PATCH', `/networks/${a}/podcasts/${inA.podcast.id}`, {
      token: adminOfA,
      body: { blocked_advertiser_ids: [inB.advertiser.id] },
    });
    expect(blockForeign.status).toBe(400);
    expect(blockForeign.body.errors.map((e) => e.path)).toEqual(['blocked_advertiser_ids']);
    // B's podcast holds an accepted offer of a competitor in the same category, asking for separation: nothing of it counts in A.
    for (const [n, token, inventory] of [
      [a, adminOfA, inA],
      [b, adminOfB, inB],
    ] as const) {
      expect((await api('PATCH', `/networks/${n}/advertisers/${inventory.advertiser.id}`, { token, body: { categories: ['1004'] } })).status).toBe(
        200,
      );
      expect(
        (await api('PATCH', `/networks/${n}/campaigns/${inventory.campaign.id}`, { token, body: { competitive_separation: true } })).status,
      ).toBe(200);
    }
    const offerInB = await offerRow(b, inB);
    expect((await api('POST', `/networks/${b}/offers/${offerInB.id}/accept`, { token: adminOfB })).status).toBe(200);
    const flightInA = await flightRow(a, inA.campaign);
    const eligible = await api<{ items: Array<{ podcast: { id: string }; eligible: boolean }> }>(
      'GET',
      `/networks/${a}/flights/${flightInA.id}/eligible-podcasts`,
      { token: adminOfA },
    );
    expect(eligible.status).toBe(200);
    expect(eligible.body.items).toEqual([expect.objectContaining({ podcast: expect.objectContaining({ id: inA.podcast.id }), eligible: true })]);
    for (const id of [b, inB.podcast.id, inB.campaign.id, inB.advertiser.id]) expect(eligible.text).not.toContain(id);
    // An offer of A's campaign to B's podcast is not a brand-safety question: B's podcast is not A's (400).
    const across = await api('POST', `/networks/${a}/offers`, {
      token: adminOfA,
      body: { campaign_id: inA.campaign.id, podcast_id: inB.podcast.id },
    });
    expect(across.status).toBe(400);
  });
});
