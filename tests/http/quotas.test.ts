/**
 * Quotas (issue 33; server/services/quotas.ts): webhook subscriptions and pending invitations per
 * network, active API keys per owner. Refused at the limit with 409 `quota-exceeded`, and never
 * exceeded by creations racing for the last slot. A server of this file's own, with quotas of 3.
 */
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { api, type Problem } from '@/tests/support/api';
import { useOwnServer } from '@/tests/support/own-server';

const QUOTA = 3;
const RACERS = 12;

const quotaService = useOwnServer(
  'quotas',
  {
    WORKER: 'off',
    WEBHOOK_ALLOW_PRIVATE: '1',
    QUOTA_WEBHOOKS_PER_NETWORK: String(QUOTA),
    QUOTA_PENDING_INVITATIONS_PER_NETWORK: String(QUOTA),
    QUOTA_API_KEYS_PER_OWNER: String(QUOTA),
  },
  { startTimeoutMs: 240_000 },
);

const call = <T = Problem>(method: string, path: string, body?: unknown, as = quotaService.token) =>
  api<T>(method, path, { token: as, baseUrl: quotaService.server.url, body, headers: method === 'POST' ? { 'idempotency-key': randomUUID() } : {} });

async function newNetwork(): Promise<string> {
  const res = await call<{ id: string }>('POST', '/networks', { name: 'Quotas' });
  expect(res.status).toBe(201);
  return res.body.id;
}

function expectQuotaExceeded(res: { status: number; headers: Headers; body: Problem }, setting: string) {
  expect(res.status).toBe(409);
  expect(res.headers.get('content-type')).toMatch(/^application\/problem\+json/);
  expect(res.body.type).toMatch(/\/errors\/quota-exceeded$/);
  expect(res.body.title).toBe('Quota exceeded');
  expect(res.body.detail).toContain(`(${QUOTA}, ${setting})`);
}

/** QUOTA creations one after another, each answered 201, then one more refused by the quota: the ids made, and that refusal. */
async function fillQuota(create: () => Promise<{ status: number; headers: Headers; body: { id: string } & Problem }>, setting: string) {
  const made: string[] = [];
  for (let i = 0; i < QUOTA; i++) {
    const res = await create();
    expect(res.status).toBe(201);
    made.push(res.body.id);
  }
  const refused = await create();
  expectQuotaExceeded(refused, setting);
  return { made, refused };
}

/** RACERS creations at once: how many got 201, and every other answer is the quota's 409. */
async function race(create: () => Promise<{ status: number; headers: Headers; body: Problem }>, setting: string): Promise<number> {
  const answers = await Promise.all(Array.from({ length: RACERS }, create));
  for (const res of answers.filter((r) => r.status !== 201)) expectQuotaExceeded(res, setting);
  return answers.filter((r) => r.status === 201).length;
}

const webhook = (networkId: string) =>
  call<{ id: string } & Problem>('POST', `/networks/${networkId}/webhooks`, { url: 'http://127.0.0.1:9/hooks', events: ['offer.accepted'] });
const invitation = (networkId: string) =>
  call<{ id: string } & Problem>('POST', `/networks/${networkId}/invitations`, { email: `${randomUUID()}@example.test`, role: 'read_only' });

describe('webhook subscriptions per network (QUOTA_WEBHOOKS_PER_NETWORK)', () => {
  it('are refused at the quota with 409 quota-exceeded, disabled ones counting; deleting one frees a slot', async () => {
    const network = await newNetwork();
    const { made, refused } = await fillQuota(() => webhook(network), 'QUOTA_WEBHOOKS_PER_NETWORK');
    expect(refused.body.detail).toMatch(/^This network has 3 webhook subscriptions, its quota/);

    expect((await call('PATCH', `/networks/${network}/webhooks/${made[0]}`, { status: 'disabled' })).status).toBe(200);
    expect((await webhook(network)).status).toBe(409);
    expect((await call('DELETE', `/networks/${network}/webhooks/${made[0]}`)).status).toBeLessThan(300);
    expect((await webhook(network)).status).toBe(201);
    // Another network's quota is its own.
    expect((await webhook(await newNetwork())).status).toBe(201);
  });

  it(`are not exceeded by ${RACERS} creations at once`, async () => {
    const network = await newNetwork();
    expect(await race(() => webhook(network), 'QUOTA_WEBHOOKS_PER_NETWORK')).toBe(QUOTA);
    const list = await call<{ items: unknown[] }>('GET', `/networks/${network}/webhooks`);
    expect(list.body.items).toHaveLength(QUOTA);
  });
});

describe('pending invitations per network (QUOTA_PENDING_INVITATIONS_PER_NETWORK)', () => {
  it('are refused at the quota; revoking one frees a slot', async () => {
    const network = await newNetwork();
    const { made, refused } = await fillQuota(() => invitation(network), 'QUOTA_PENDING_INVITATIONS_PER_NETWORK');
    expect(refused.body.detail).toMatch(/^This network has 3 pending invitations, its quota/);
    expect((await call('DELETE', `/networks/${network}/invitations/${made[0]}`)).status).toBe(200);
    expect((await invitation(network)).status).toBe(201);
  });

  it(`are not exceeded by ${RACERS} invitations at once`, async () => {
    const network = await newNetwork();
    expect(await race(() => invitation(network), 'QUOTA_PENDING_INVITATIONS_PER_NETWORK')).toBe(QUOTA);
    const list = await call<{ items: Array<{ status: string }> }>('GET', `/networks/${network}/invitations`);
    expect(list.body.items.filter((i) => i.status === 'pending')).toHaveLength(QUOTA);
  });
});

describe('active API keys per owner (QUOTA_API_KEYS_PER_OWNER)', () => {
  async function serviceAccount(network: string) {
    const res = await call<{ id: string; api_key: { id: string; token: string } }>('POST', `/networks/${network}/service-accounts`, {
      name: 'robot',
      role: 'read_only',
    });
    expect(res.status).toBe(201);
    return res.body;
  }
  const mintFor = (network: string, account: string) =>
    call<{ id: string } & Problem>('POST', `/networks/${network}/service-accounts/${account}/keys`, { key_name: 'more' });

  it('are refused at the quota, however the key would be made; a revoked key frees its slot', async () => {
    const network = await newNetwork();
    const account = await serviceAccount(network); // its first key is one
    for (let i = 1; i < QUOTA; i++) expect((await mintFor(network, account.id)).status).toBe(201);
    const minted = await mintFor(network, account.id);
    expectQuotaExceeded(minted, 'QUOTA_API_KEYS_PER_OWNER');
    expect(minted.body.detail).toMatch(/has 3 active API keys/);
    // The account's own key asking for one more for itself: the same quota.
    const own = await call('POST', '/apikeys', { key_name: 'mine' }, account.api_key.token);
    expectQuotaExceeded(own, 'QUOTA_API_KEYS_PER_OWNER');

    // A rotation replaces a key: at the quota it still works, and the owner still holds 3 active keys.
    const rotated = await call<{ id: string; token: string }>('POST', `/networks/${network}/apikeys/${account.api_key.id}/rotate`, {});
    expect(rotated.status).toBe(201);
    expectQuotaExceeded(await mintFor(network, account.id), 'QUOTA_API_KEYS_PER_OWNER');

    expect((await call('DELETE', `/networks/${network}/apikeys/${rotated.body.id}`)).status).toBe(200);
    expect((await mintFor(network, account.id)).status).toBe(201);
  });

  it(`are not exceeded by ${RACERS} mints at once (a person's own keys: no row lock of theirs serialises them)`, async () => {
    const network = await newNetwork();
    const invited = await invitation(network);
    const accepted = await call<{ api_key: { token: string } }>(
      'POST',
      '/invitations/accept',
      { name: 'Racer' },
      (invited.body as unknown as { token: string }).token,
    );
    expect(accepted.status).toBe(201); // the person's first key
    const own = accepted.body.api_key.token;
    expect(await race(() => call<Problem>('POST', '/apikeys', { key_name: 'race' }, own), 'QUOTA_API_KEYS_PER_OWNER')).toBe(QUOTA - 1);
    const keys = await call<{ items: unknown[] }>('GET', '/apikeys', undefined, own);
    expect(keys.body.items).toHaveLength(QUOTA);
  });
});
