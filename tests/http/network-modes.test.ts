import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { adInventoryOverHttp, expectProblem, grantVoiceConsentOverHttp, type Page, type Problem } from '@/tests/support/api';
import { startFakeVoiceVendor } from '@/tests/support/fake-voice-vendor';
import { useOwnServer } from '@/tests/support/own-server';
import { startSmtpReceiver } from '@/tests/support/smtp-receiver';
import { until } from '@/tests/support/until';

/**
 * Test and live networks in one live deployment (APP_ENV=live), over HTTP: a network's mode, its
 * keys' mode, who reaches it, its voice and its deliveries (docs/keys-and-roles.md#test-and-live).
 * Live mode mails invitation links only, so people join through the real mail path
 * (tests/support/smtp-receiver.ts); the voice vendor is a fake that counts its calls.
 */
let relay: Awaited<ReturnType<typeof startSmtpReceiver>>;
let vendor: Awaited<ReturnType<typeof startFakeVoiceVendor>>;
beforeAll(async () => {
  relay = await startSmtpReceiver();
  vendor = await startFakeVoiceVendor();
});
afterAll(async () => {
  await relay?.close();
  await vendor?.close();
});
const live = useOwnServer(
  'modes',
  () => ({
    APP_SECRET_KEY: 'live-mode-secret-key-for-this-test-only',
    SMTP_URL: relay.url,
    PUBLIC_URL: 'https://ads.acme.example',
    SYNTH_PROVIDER: 'http',
    SYNTH_BASE_URL: vendor.url,
    SYNTH_MAX_RETRIES: '0',
  }),
  { mode: 'live' },
);

interface Network {
  id: string;
  mode: 'test' | 'live';
  max_key_lifetime_days: number | null;
}
interface CreatedKey {
  id: string;
  token: string;
  environment: string;
  scopes: Array<{ network_id: string; role: string }>;
}

const fieldOf = (problem: Problem) => problem.errors?.[0]?.path;

const createNetwork = async (body: Record<string, unknown>) => {
  const res = await live.call<Network>('POST', '/networks', body);
  expect(res.status).toBe(201);
  return res.body;
};

/** Invites `email` to network `n` and accepts with the mailed token (live mode answers without it); the person's new key. */
async function join(n: string, email: string, as?: string): Promise<CreatedKey> {
  const before = relay.received.filter((m) => m.to.includes(email)).length;
  const invited = await live.call<{ email_id: string }>('POST', `/networks/${n}/invitations`, { email, role: 'administrator' });
  expect(invited.status).toBe(201);
  const mail = await until(() => relay.received.filter((m) => m.to.includes(email))[before], 30_000);
  const token = /#token=(inv_[0-9A-Za-z]{40})/.exec(mail.parsed.text ?? '')![1]!;
  const accepted = await live.call<{ api_key: CreatedKey }>(
    'POST',
    '/invitations/accept',
    as ? { invitation_token: token, key_name: 'second' } : { name: 'Pat Both' },
    as ?? token,
  );
  expect(accepted.status).toBe(201);
  return accepted.body.api_key;
}

/** Pat: an administrator of a live network and of a test network, with a key for each. */
async function personOnBoth() {
  const liveNet = await createNetwork({ name: 'Live Waves' });
  const testNet = await createNetwork({ name: 'Sandbox Waves', mode: 'test' });
  const email = `pat-${liveNet.id}@example.com`;
  const liveKey = await join(liveNet.id, email);
  const testKey = await join(testNet.id, email, liveKey.token);
  return { liveNet, testNet, email, liveKey, testKey };
}

describe('network modes (APP_ENV=live)', () => {
  it('makes a live network by default and a test one when asked; sample data goes into a test network only', async () => {
    expect(await createNetwork({ name: 'Default' })).toMatchObject({ mode: 'live', max_key_lifetime_days: 365 });
    expect(await createNetwork({ name: 'Sandbox', mode: 'test' })).toMatchObject({ mode: 'test', max_key_lifetime_days: null });
    expect(fieldOf(expectProblem(await live.call('POST', '/networks', { name: 'Bad', mode: 'staging' }), 400, 'bad-request'))).toBe('mode');
    expect(fieldOf(expectProblem(await live.call('POST', '/networks', { name: 'Full', sample_data: true }), 400, 'bad-request'))).toBe('sample_data');

    const sandbox = await createNetwork({ name: 'Filled', mode: 'test', sample_data: true });
    const count = async (what: string) => (await live.call<Page<unknown>>('GET', `/networks/${sandbox.id}/${what}?limit=100`)).body.items.length;
    expect(await count('advertisers')).toBe(3);
    expect(await count('campaigns')).toBe(4);
    expect(await count('podcasts')).toBe(5);
    expect(await count('offers')).toBe(8);
  });

  it('gives each key its network’s mode and keeps a test key off live networks', async () => {
    const { liveNet, testNet, liveKey, testKey } = await personOnBoth();
    expect(liveKey.token).toMatch(/^sk_live_/);
    expect(testKey).toMatchObject({ environment: 'test', scopes: [{ network_id: testNet.id, role: 'administrator' }] });
    expect(testKey.token).toMatch(/^sk_test_/);

    const account = await live.call<{ api_key: CreatedKey }>('POST', `/networks/${testNet.id}/service-accounts`, {
      name: 'CI bot',
      role: 'read_only',
    });
    expect(account.body.api_key.token).toMatch(/^sk_test_/);

    // A test key scoped to a live network (as one made before modes could be): the scope is refused, with why.
    await live.sql`insert into api_key_scopes (key_id, network_id, role) values (${testKey.id}, ${liveNet.id}, 'administrator')`;
    const refused = await live.call('GET', `/networks/${liveNet.id}/advertisers`, undefined, testKey.token);
    expect(expectProblem(refused, 403, 'forbidden').detail).toMatch(/live and this is a test key/);
    const me = await live.call<{ mode: string; scopes: Array<{ network_id: string }> }>('GET', '/me', undefined, testKey.token);
    expect(me.body.mode).toBe('test');
    expect(me.body.scopes.map((s) => s.network_id)).toEqual([testNet.id]);
    expect((await live.call('GET', `/networks/${testNet.id}/advertisers`, undefined, testKey.token)).status).toBe(200);

    // The live operator reaches both.
    expect((await live.call('GET', `/networks/${testNet.id}/advertisers`)).status).toBe(200);
    expect((await live.call('GET', `/networks/${liveNet.id}/advertisers`)).status).toBe(200);
  }, 120_000);

  it('keeps a test super_user key off live keys: it neither sees, rotates nor makes one', async () => {
    const sandbox = await createNetwork({ name: 'Operator sandbox', mode: 'test' });
    const made = await live.call<CreatedKey>('POST', '/apikeys', {
      key_name: 'sandbox operator',
      super_user: true,
      scopes: [{ network_id: sandbox.id, role: 'administrator' }],
    });
    expect(made.status).toBe(201);
    expect(made.body.token).toMatch(/^sk_test_/);
    const testOperator = made.body.token;
    const me = await live.call<{ key_id: string; mode: string }>('GET', '/me');
    expect(me.body.mode).toBe('live');
    expect((await live.call<{ mode: string }>('GET', '/me', undefined, testOperator)).body.mode).toBe('test');
    expect((await live.call('POST', `/apikeys/${me.body.key_id}/rotate`, {}, testOperator)).status).toBe(404);
    expect((await live.call('GET', `/apikeys/${me.body.key_id}`, undefined, testOperator)).status).toBe(404);
    const listed = await live.call<Page<{ environment: string }>>('GET', '/apikeys?limit=200', undefined, testOperator);
    expect(listed.body.items.length).toBeGreaterThan(0);
    expect(new Set(listed.body.items.map((k) => k.environment))).toEqual(new Set(['test']));
    expect(expectProblem(await live.call('POST', '/apikeys', { key_name: 'no scopes', scopes: [] }, testOperator), 403, 'forbidden').detail).toMatch(
      /live key/,
    );
    // Nor a live network: its networks are sandboxes.
    expect(expectProblem(await live.call('POST', '/networks', { name: 'Not for a test key' }, testOperator), 403, 'forbidden').detail).toMatch(
      /live network/,
    );
    expect((await live.call<Network>('POST', '/networks', { name: 'Its sandbox', mode: 'test' }, testOperator)).body.mode).toBe('test');
  });

  it('signs a person in with one live session that reaches their test networks too; a key it makes has one mode', async () => {
    const { liveNet, testNet, email } = await personOnBoth();
    const asked = await fetch(`${live.server.url}/v1/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email }),
    });
    expect(asked.status).toBe(202);
    const mail = await until(() => relay.received.find((m) => m.to.includes(email) && m.parsed.subject?.startsWith('Your sign-in link')), 30_000);
    const link = /#token=(sil_\w+)/.exec(mail.parsed.text ?? '')![1]!;
    const session = await live.call<{ api_key: CreatedKey }>('POST', '/sign-in', undefined, link);
    expect(session.status).toBe(201);
    expect(session.body.api_key.token).toMatch(/^sk_live_/);
    const sessionKey = session.body.api_key.token;
    for (const n of [liveNet.id, testNet.id]) {
      expect((await live.call('GET', `/networks/${n}/advertisers`, undefined, sessionKey)).status).toBe(200);
    }

    // The keys it makes are of one mode each.
    const both = [
      { network_id: liveNet.id, role: 'read_only' },
      { network_id: testNet.id, role: 'read_only' },
    ];
    const mixed = expectProblem(await live.call('POST', '/apikeys', { key_name: 'both', scopes: both }, sessionKey), 400, 'bad-request');
    expect(fieldOf(mixed)).toBe('scopes');
    expect(mixed.detail).toMatch(/one mode/);
    const onlyTest = await live.call<CreatedKey>('POST', '/apikeys', { key_name: 'sandbox', scopes: [both[1]] }, sessionKey);
    expect(onlyTest.status).toBe(201);
    expect(onlyTest.body.token).toMatch(/^sk_test_/);
  }, 120_000);

  it('marks every delivery of a test network as a test, and none of a live network', async () => {
    const marks: Record<string, unknown> = {};
    for (const network of [await createNetwork({ name: 'Live hooks' }), await createNetwork({ name: 'Test hooks', mode: 'test' })]) {
      const n = network.id;
      // A public address: live mode delivers over https to public hosts only. Nothing answers there; the delivery's record is what is checked.
      const hook = await live.call<{ id: string }>('POST', `/networks/${n}/webhooks`, {
        url: 'https://93.184.216.34/hook',
        events: ['optin.completed'],
      });
      expect(hook.status).toBe(201);
      const podcast = await live.call<{ id: string }>('POST', `/networks/${n}/podcasts`, { name: 'Pod', host_name: 'Sam' });
      expect((await live.call('POST', `/networks/${n}/podcasts/${podcast.body.id}/opt-in`)).status).toBe(200);
      const list = await live.call<Page<{ id: string; test: boolean }>>('GET', `/networks/${n}/webhooks/${hook.body.id}/deliveries`);
      const detail = await live.call<{ request: { headers: Record<string, string>; body: string } }>(
        'GET',
        `/networks/${n}/webhooks/${hook.body.id}/deliveries/${list.body.items[0]!.id}`,
      );
      marks[network.mode] = {
        test: list.body.items[0]!.test,
        header: detail.body.request.headers['X-Service-Test'],
        body: JSON.parse(detail.body.request.body).test,
      };
    }
    expect(marks).toEqual({ live: { test: false, header: undefined, body: undefined }, test: { test: true, header: 'true', body: true } });
  });

  it('synthesizes for a test network with the local engine: the voice vendor is never called', async () => {
    const previews: Record<string, number> = {};
    for (const network of [await createNetwork({ name: 'Live voice' }), await createNetwork({ name: 'Test voice', mode: 'test' })]) {
      const call = <T>(method: string, path: string, body?: unknown) => live.call<T>(method, path, body);
      const { campaignId, podcastId } = await adInventoryOverHttp(call, network.id);
      // The host's consent first (nothing is said in their voice without it), its link read off the wire: live mode answers without it.
      await grantVoiceConsentOverHttp(call, network.id, podcastId, {
        baseUrl: live.server.url,
        tokenFromMail: async (to) => {
          const mail = await until(() => relay.received.find((m) => m.to.includes(to)), 30_000);
          return /#token=(vcl_[0-9A-Za-z]{40})/.exec(mail.parsed.text ?? '')![1]!;
        },
      });
      const before = vendor.requests.length;
      const preview = await live.call('POST', `/networks/${network.id}/campaigns/${campaignId}/preview`, { podcast_id: podcastId });
      expect(preview.status).toBe(200);
      previews[network.mode] = vendor.requests.length - before;
    }
    expect(previews).toEqual({ live: 1, test: 0 });
  });
});
