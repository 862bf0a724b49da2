import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectProblem, type Page, type Problem } from '@/tests/support/api';
import { useOwnServer } from '@/tests/support/own-server';
import { startSmtpReceiver } from '@/tests/support/smtp-receiver';
import { until } from '@/tests/support/until';
import { startWebhookReceiver } from '@/tests/support/webhook-receiver';

/**
 * Voice consent (issue 38, first slice; docs/voice-consent.md) over HTTP, with the real mail path:
 * the service (and its worker) mails the host a link to a real SMTP server on loopback, each test
 * reads the link off the wire and acts through the page's API with its token, as the console's
 * consent page does. The service believes X-Forwarded-For from loopback, so a test can say which
 * address a host writes from — and check that no address is kept.
 */
const QUOTA = 3;
let relay: Awaited<ReturnType<typeof startSmtpReceiver>>;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
let hookSecret = '';
beforeAll(async () => {
  relay = await startSmtpReceiver();
  hooks = await startWebhookReceiver(() => hookSecret);
});
const own = useOwnServer('voice-consents', () => ({
  SMTP_URL: relay.url,
  PUBLIC_URL: 'https://ads.acme.example',
  TRUSTED_PROXIES: 'loopback',
  WEBHOOK_ALLOW_PRIVATE: '1',
  QUOTA_PENDING_VOICE_CONSENTS_PER_NETWORK: String(QUOTA),
}));
afterAll(async () => {
  await relay?.close();
  await hooks?.close();
});

interface Consent {
  id: string;
  network_id: string;
  podcast_id: string;
  host_name: string;
  host_email: string;
  scope: 'all_campaigns' | 'advertisers';
  advertiser_ids: string[];
  status: 'pending' | 'granted' | 'refused' | 'revoked' | 'expired';
  expires_at: string | null;
  link_expires_at: string;
  granted_at: string | null;
  refused_at: string | null;
  statement: { version: number; sha256: string } | null;
  decision_user_agent: string | null;
  revoked_at: string | null;
  revoked_by: 'host' | 'administrator' | null;
  revocation_user_agent: string | null;
  requested_by_key_id: string | null;
  revoked_by_key_id: string | null;
  token?: string;
  email_id?: string;
}
interface LinkView {
  id: string;
  status: Consent['status'];
  host_name: string;
  network_name: string;
  podcast_name: string;
  scope: Consent['scope'];
  advertisers: Array<{ id: string; name: string }>;
  link_expires_at: string;
  granted_at: string | null;
  revoked_by: Consent['revoked_by'];
  statement: { version: number; sha256: string; text: string };
}

const HOST_BROWSER = 'Mozilla/5.0 (iPhone; CPU iPhone OS 18_0 like Mac OS X) Mobile/15E148 Safari/604.1';
/** The address the host writes from, as the trusted proxy says: it must be kept nowhere. */
const HOST_ADDRESS = '203.0.113.77';

/** A call through the host's link: its token as the bearer, from the host's phone. */
function asHost<T = LinkView>(method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) {
  return api<T>(method, path, {
    token,
    baseUrl: own.server.url,
    body,
    headers: { 'user-agent': HOST_BROWSER, 'x-forwarded-for': HOST_ADDRESS, ...headers },
  });
}
const view = (token: string | null) => asHost('GET', '/voice-consents/current', token);
const grant = (token: string, version = 1) => asHost('POST', '/voice-consents/current/grant', token, { statement_version: version });
const refuse = (token: string, version = 1) => asHost('POST', '/voice-consents/current/refuse', token, { statement_version: version });
const hostRevoke = (token: string) => asHost('POST', '/voice-consents/current/revoke', token);

/** A network with an advertiser or two and a podcast, made through /v1 by the operator; a key of each role on it. */
async function network(name = `Voices ${randomUUID().slice(0, 6)}`) {
  const n = (await own.call<{ id: string }>('POST', '/networks', { name })).body.id;
  const key = async (role: 'administrator' | 'read_only') =>
    (await own.call<{ token: string }>('POST', '/apikeys', { key_name: role, scopes: [{ network_id: n, role }] })).body.token;
  const admin = await key('administrator');
  const reader = await key('read_only');
  const call = <T = Consent>(method: string, path: string, body?: unknown, as = admin) => own.call<T>(method, path, body, as);
  const acme = (await call<{ id: string }>('POST', `/networks/${n}/advertisers`, { name: 'Acme Mattresses' })).body.id;
  const zed = (await call<{ id: string }>('POST', `/networks/${n}/advertisers`, { name: 'Zed Coffee' })).body.id;
  const podcast = (await call<{ id: string }>('POST', `/networks/${n}/podcasts`, { name: 'Night Owls', host_name: 'Sam Rivera' })).body.id;
  return { n, name, admin, reader, call, acme, zed, podcast };
}
type Network = Awaited<ReturnType<typeof network>>;

const hostEmail = () => `sam-${randomUUID().slice(0, 8)}@hosts.example`;

async function ask(net: Network, body: Record<string, unknown> = {}, podcast = net.podcast) {
  const res = await net.call<Consent>('POST', `/networks/${net.n}/podcasts/${podcast}/voice-consents`, {
    host_name: 'Sam Rivera',
    host_email: hostEmail(),
    scope: 'all_campaigns',
    ...body,
  });
  expect(res.status, res.text).toBe(201);
  return res.body as Consent & { token: string; email_id: string };
}

/** The consent link mailed to `to`, off the wire: its token. */
async function mailedToken(to: string): Promise<string> {
  const mail = await until(() => relay.received.find((m) => m.to.includes(to)), 30_000);
  return /https:\/\/ads\.acme\.example\/console\/voice-consent#token=(vcl_\w+)/.exec(mail.parsed.text ?? '')![1]!;
}

const consentRow = async (id: string) => (await own.sql`select * from voice_consents where id = ${id}`)[0]!;

describe('asking a host for voice consent', () => {
  it('mails the host a single-purpose link to the consent page; the answer is the pending consent, audited', async () => {
    const net = await network('Moonlight Audio');
    const email = hostEmail();
    const asked = await net.call<Consent>('POST', `/networks/${net.n}/podcasts/${net.podcast}/voice-consents`, {
      host_name: '  Sam Rivera ',
      host_email: email.toUpperCase(),
      scope: 'advertisers',
      advertiser_ids: [net.acme, net.zed, net.acme],
    });
    expect(asked.status).toBe(201);
    const consent = asked.body;
    expect(consent.id).toMatch(/^vcn_[0-9a-z]{26}$/);
    expect(consent).toMatchObject({
      network_id: net.n,
      podcast_id: net.podcast,
      host_name: 'Sam Rivera',
      host_email: email,
      scope: 'advertisers',
      advertiser_ids: [net.acme, net.zed],
      status: 'pending',
      expires_at: null,
      granted_at: null,
      statement: null,
      revoked_by: null,
    });
    expect(consent.token).toMatch(/^vcl_[0-9A-Za-z]{40}$/);
    const days = (Date.parse(consent.link_expires_at) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(29.99);
    expect(days).toBeLessThanOrEqual(30);

    // The email: to the host, with the link, who asks, for which podcast and what.
    const token = await mailedToken(email);
    expect(token).toBe(consent.token);
    const mail = relay.received.find((m) => m.to.includes(email))!;
    expect(mail.parsed.subject).toBe('Moonlight Audio asks for your consent to ads in your voice');
    expect(mail.parsed.text).toContain(
      'Hello Sam Rivera, Moonlight Audio asks for your consent to make host-read ads for Night Owls with a synthetic copy of your voice, for the campaigns of Acme Mattresses and Zed Coffee.',
    );
    expect(mail.parsed.html).toContain(`href="https://ads.acme.example/console/voice-consent#token=${token}"`);
    expect(mail.raw.toString()).not.toContain(net.admin);

    // Only the hash is stored; the outbox and the list show no token.
    const row = await consentRow(consent.id);
    expect(row.token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    expect(JSON.stringify(row)).not.toContain(token.slice(4));
    const listed = await net.call<Page<Consent>>('GET', `/networks/${net.n}/voice-consents`);
    expect(listed.text).not.toContain(token);
    const { token: _t, email_id: _e, ...shown } = consent;
    expect(listed.body.items).toEqual([shown]);

    const audit = await net.call<Page<{ action: string; actor_key_id: string; data: Record<string, unknown> }>>(
      'GET',
      `/networks/${net.n}/audit-log?target_id=${consent.id}`,
    );
    expect(audit.body.items).toEqual([
      expect.objectContaining({ action: 'voice_consent.requested', actor_key_id: consent.requested_by_key_id, target_type: 'voice_consent' }),
    ]);
    expect(audit.text).not.toContain(token);
  });

  it('refuses bad requests: 400 for the scope’s advertisers and a past expiry, 404 for another network’s podcast', async () => {
    const net = await network();
    const other = await network();
    const path = `/networks/${net.n}/podcasts/${net.podcast}/voice-consents`;
    const base = { host_name: 'Sam', host_email: hostEmail() };
    const bad = async (body: Record<string, unknown>, field: string) => {
      const res = await net.call<Problem>('POST', path, { ...base, ...body });
      expectProblem(res, 400, 'bad-request');
      expect(res.body.errors?.[0]?.path).toBe(field);
    };
    await bad({ scope: 'advertisers' }, 'advertiser_ids');
    await bad({ scope: 'advertisers', advertiser_ids: [] }, 'advertiser_ids');
    await bad({ scope: 'all_campaigns', advertiser_ids: [net.acme] }, 'advertiser_ids');
    await bad({ scope: 'advertisers', advertiser_ids: [other.acme] }, 'advertiser_ids');
    await bad({ scope: 'everything' }, 'scope');
    await bad({ scope: 'all_campaigns', host_email: 'not an address' }, 'host_email');
    await bad({ scope: 'all_campaigns', expires_at: new Date(Date.now() - 1000).toISOString() }, 'expires_at');
    // An advertiser deleted since is no longer the network's to consent for.
    expect((await net.call('DELETE', `/networks/${net.n}/advertisers/${net.zed}`)).status).toBe(200);
    await bad({ scope: 'advertisers', advertiser_ids: [net.zed] }, 'advertiser_ids');
    expectProblem(
      await net.call('POST', `/networks/${net.n}/podcasts/${other.podcast}/voice-consents`, { ...base, scope: 'all_campaigns' }),
      404,
      'not-found',
    );
  });

  it('a link of a consent with an end ends with it; a read_only key reads consents but cannot ask or revoke (403)', async () => {
    const net = await network();
    const end = new Date(Date.now() + 3 * 86_400_000);
    const consent = await ask(net, { expires_at: end.toISOString() });
    expect(consent.expires_at).toBe(end.toISOString());
    expect(consent.link_expires_at).toBe(end.toISOString());

    const body = { host_name: 'Sam', host_email: hostEmail(), scope: 'all_campaigns' };
    expectProblem(await net.call('POST', `/networks/${net.n}/podcasts/${net.podcast}/voice-consents`, body, net.reader), 403, 'forbidden');
    expectProblem(await net.call('POST', `/networks/${net.n}/voice-consents/${consent.id}/revoke`, undefined, net.reader), 403, 'forbidden');
    expect((await net.call('GET', `/networks/${net.n}/voice-consents`, undefined, net.reader)).status).toBe(200);
    expect((await net.call('GET', `/networks/${net.n}/voice-consents/${consent.id}`, undefined, net.reader)).body.status).toBe('pending');
  });

  it('bounds pending requests: QUOTA_PENDING_VOICE_CONSENTS_PER_NETWORK (409 quota-exceeded), and one pending per podcast and address (409)', async () => {
    const net = await network();
    const email = hostEmail();
    const first = await ask(net, { host_email: email });
    // The same host, the same podcast, while the first waits: no second email.
    const again = await net.call<Problem>('POST', `/networks/${net.n}/podcasts/${net.podcast}/voice-consents`, {
      host_name: 'Sam',
      host_email: email,
      scope: 'all_campaigns',
    });
    expectProblem(again, 409, 'conflict');
    expect(again.body.detail).toContain(first.id);

    await ask(net);
    await ask(net);
    const over = await net.call<Problem>('POST', `/networks/${net.n}/podcasts/${net.podcast}/voice-consents`, {
      host_name: 'Sam',
      host_email: hostEmail(),
      scope: 'all_campaigns',
    });
    expectProblem(over, 409, 'quota-exceeded');
    expect(over.body.detail).toContain(`(${QUOTA}, QUOTA_PENDING_VOICE_CONSENTS_PER_NETWORK)`);
    // A decided request frees its slot, and the host may be asked again.
    await grant(first.token);
    expect((await ask(net, { host_email: email })).status).toBe('pending');
    expect((await ask(await network())).status).toBe('pending');
  });
});

describe('the host decides through the link', () => {
  it('grants: the state, the statement’s version and SHA-256, when and the user agent are recorded — no IP; the event is delivered', async () => {
    const net = await network('Grant Radio');
    const hook = await net.call<{ id: string; secret: string }>('POST', `/networks/${net.n}/webhooks`, {
      url: hooks.url,
      events: ['voice_consent.granted', 'voice_consent.revoked'],
    });
    hookSecret = hook.body.secret;
    const email = hostEmail();
    const consent = await ask(net, { host_email: email, scope: 'advertisers', advertiser_ids: [net.zed] });
    const token = await mailedToken(email);

    // What the page shows first: who asks, for what, and the statement to read.
    const shown = await view(token);
    expect(shown.status).toBe(200);
    expect(shown.body).toMatchObject({
      id: consent.id,
      status: 'pending',
      host_name: 'Sam Rivera',
      network_name: 'Grant Radio',
      podcast_name: 'Night Owls',
      scope: 'advertisers',
      advertisers: [{ id: net.zed, name: 'Zed Coffee' }],
      granted_at: null,
    });
    const statement = shown.body.statement;
    expect(statement.version).toBe(1);
    expect(statement.sha256).toBe(createHash('sha256').update(statement.text, 'utf8').digest('hex'));
    expect(statement.text).toContain('It does not keep my IP address.');
    // Reading decides nothing.
    expect((await consentRow(consent.id)).status).toBe('pending');

    const before = Date.now();
    const granted = await grant(token);
    expect(granted.status).toBe(200);
    expect(granted.body).toMatchObject({ status: 'granted', statement: { version: 1, sha256: statement.sha256 } });

    const read = await net.call<Consent>('GET', `/networks/${net.n}/voice-consents/${consent.id}`);
    expect(read.body).toMatchObject({
      status: 'granted',
      statement: { version: 1, sha256: statement.sha256 },
      decision_user_agent: HOST_BROWSER,
      refused_at: null,
      revoked_at: null,
    });
    expect(Date.parse(read.body.granted_at!)).toBeGreaterThanOrEqual(before - 1000);
    // No address anywhere: not in the consent's row, its audit rows or its events.
    const row = await consentRow(consent.id);
    const audit = await own.sql`select * from audit_log where target_id = ${consent.id} order by id`;
    const events = await own.sql`select * from events where network_id = ${net.n}`;
    for (const kept of [row, ...audit, ...events]) {
      expect(JSON.stringify(kept)).not.toContain(HOST_ADDRESS);
      expect(JSON.stringify(kept)).not.toContain('127.0.0.1');
    }
    expect(Object.keys(row).filter((column) => /ip|address/i.test(column))).toEqual([]);
    expect(audit.map((a) => [a.action, a.actor_key_id])).toEqual([
      ['voice_consent.requested', read.body.requested_by_key_id],
      ['voice_consent.granted', null],
    ]);

    // voice_consent.granted: in the event log, and delivered, signed.
    const logged = await net.call<Page<{ type: string; data: Record<string, unknown> }>>(
      'GET',
      `/networks/${net.n}/events?type=voice_consent.granted`,
    );
    expect(logged.body.items.map((e) => e.data)).toEqual([
      {
        consent_id: consent.id,
        podcast_id: net.podcast,
        host_name: 'Sam Rivera',
        scope: 'advertisers',
        advertiser_ids: [net.zed],
        expires_at: null,
        statement_version: 1,
        statement_sha256: statement.sha256,
      },
    ]);
    const delivered = await until(
      () => hooks.received.find((r) => r.headers['x-service-event'] === 'voice_consent.granted' && r.raw.toString().includes(consent.id)),
      30_000,
    );
    expect(delivered.verified).toBe(true);

    // Decided: neither grant nor refuse again (409); the page now shows the statement decided on.
    expectProblem(await grant(token), 409, 'conflict');
    expectProblem(await refuse(token), 409, 'conflict');
    expect((await view(token)).body).toMatchObject({ status: 'granted', statement: { sha256: statement.sha256 } });
  });

  it('refuses: recorded as a grant is, final for that request; only the current statement can be decided on', async () => {
    const net = await network();
    const consent = await ask(net);
    expectProblem(await refuse(consent.token, 7), 400, 'bad-request');
    expectProblem(await grant(consent.token, 0), 400, 'bad-request');
    const refused = await refuse(consent.token);
    expect(refused.status).toBe(200);
    expect(refused.body.status).toBe('refused');
    const read = (await net.call<Consent>('GET', `/networks/${net.n}/voice-consents/${consent.id}`)).body;
    expect(read).toMatchObject({ status: 'refused', granted_at: null, statement: { version: 1 }, decision_user_agent: HOST_BROWSER });
    expect(read.refused_at).not.toBeNull();
    expectProblem(await grant(consent.token), 409, 'conflict');
    expectProblem(await hostRevoke(consent.token), 409, 'conflict');
    expectProblem(await net.call('POST', `/networks/${net.n}/voice-consents/${consent.id}/revoke`), 409, 'conflict');
    // No event for a refusal; the audit log has it.
    expect((await net.call<Page<unknown>>('GET', `/networks/${net.n}/events`)).body.items).toEqual([]);
  });

  it('the host revokes from the same link after granting: voice_consent.revoked, by host, with the user agent', async () => {
    const net = await network();
    const consent = await ask(net);
    expectProblem(await hostRevoke(consent.token), 409, 'conflict'); // nothing granted yet
    expect((await grant(consent.token)).status).toBe(200);
    const revoked = await hostRevoke(consent.token);
    expect(revoked.status).toBe(200);
    expect(revoked.body).toMatchObject({ status: 'revoked', revoked_by: 'host' });
    const read = (await net.call<Consent>('GET', `/networks/${net.n}/voice-consents/${consent.id}`)).body;
    expect(read).toMatchObject({ status: 'revoked', revoked_by: 'host', revocation_user_agent: HOST_BROWSER, revoked_by_key_id: null });
    const events = await net.call<Page<{ type: string; data: Record<string, unknown> }>>('GET', `/networks/${net.n}/events`);
    expect(events.body.items.map((e) => [e.type, e.data])).toEqual([
      ['voice_consent.granted', expect.objectContaining({ consent_id: consent.id })],
      [
        'voice_consent.revoked',
        // Nothing was made under it: no creative withdrawn.
        {
          consent_id: consent.id,
          podcast_id: net.podcast,
          revoked_by: 'host',
          previous_status: 'granted',
          withdrawn_creative_ids: [],
          withdrawn_creatives: 0,
        },
      ],
    ]);
    expectProblem(await hostRevoke(consent.token), 409, 'conflict');
  });

  it('an administrator revokes a granted consent or a pending request; audited with their key', async () => {
    const net = await network();
    const granted = await ask(net);
    await grant(granted.token);
    const pending = await ask(net);
    for (const consent of [granted, pending]) {
      const res = await net.call<Consent>('POST', `/networks/${net.n}/voice-consents/${consent.id}/revoke`);
      expect(res.status).toBe(200);
      expect(res.body).toMatchObject({ status: 'revoked', revoked_by: 'administrator', revocation_user_agent: null });
      expect(res.body.revoked_by_key_id).toBe(res.body.requested_by_key_id);
      expectProblem(await net.call('POST', `/networks/${net.n}/voice-consents/${consent.id}/revoke`), 409, 'conflict');
    }
    // The withdrawn request can no longer be granted through its link.
    expectProblem(await grant(pending.token), 409, 'conflict');
    expect((await view(pending.token)).body.status).toBe('revoked');
    const events = await net.call<Page<{ type: string; data: { previous_status?: string } }>>('GET', `/networks/${net.n}/events`);
    expect(events.body.items.map((e) => [e.type, e.data.previous_status])).toEqual([
      ['voice_consent.granted', undefined],
      ['voice_consent.revoked', 'granted'],
      ['voice_consent.revoked', 'pending'],
    ]);
    const audit = await net.call<Page<{ action: string; actor_key_id: string | null; data: { by?: string } }>>(
      'GET',
      `/networks/${net.n}/audit-log?action=voice_consent.revoked`,
    );
    expect(audit.body.items.map((a) => [a.actor_key_id, a.data.by])).toEqual([
      [granted.requested_by_key_id, 'administrator'],
      [granted.requested_by_key_id, 'administrator'],
    ]);
    expectProblem(await net.call('POST', `/networks/${net.n}/voice-consents/vcn_00000000000000000000000000/revoke`), 404, 'not-found');
  });

  it('lists by podcast and status, expired derived: a pending request past its link’s end, a granted consent past expires_at', async () => {
    const net = await network();
    const second = (await net.call<{ id: string }>('POST', `/networks/${net.n}/podcasts`, { name: 'Day Larks', host_name: 'Kim' })).body.id;
    const stale = await ask(net);
    const lapsing = await ask(net, {}, second);
    await grant(lapsing.token);
    const fresh = await ask(net, {}, second);
    await own.sql`update voice_consents set link_expires_at = now() - interval '1 second' where id = ${stale.id}`;
    await own.sql`update voice_consents set expires_at = now() - interval '1 second', link_expires_at = now() - interval '1 second' where id = ${lapsing.id}`;

    const ids = async (query: string) =>
      (await net.call<Page<Consent>>('GET', `/networks/${net.n}/voice-consents?${query}`)).body.items.map((c) => [c.id, c.status]);
    expect(await ids('status=expired')).toEqual([
      [stale.id, 'expired'],
      [lapsing.id, 'expired'],
    ]);
    expect(await ids('status=pending')).toEqual([[fresh.id, 'pending']]);
    expect(await ids('status=granted')).toEqual([]);
    expect(await ids(`podcast_id=${second}`)).toEqual([
      [lapsing.id, 'expired'],
      [fresh.id, 'pending'],
    ]);
    expect(await ids(`podcast_id=${second}&status=pending&limit=1`)).toEqual([[fresh.id, 'pending']]);
    // An expired request can no longer be revoked by an administrator either: nothing is in force.
    expectProblem(await net.call('POST', `/networks/${net.n}/voice-consents/${stale.id}/revoke`), 409, 'conflict');
  });
});

describe('the link is single-purpose and answers 404 to anyone without it', () => {
  it('an expired link answers 404 on every operation of the page’s API, and decides nothing', async () => {
    const net = await network();
    const consent = await ask(net);
    await own.sql`update voice_consents set link_expires_at = now() - interval '1 second' where id = ${consent.id}`;
    for (const res of [await view(consent.token), await grant(consent.token), await refuse(consent.token), await hostRevoke(consent.token)]) {
      expectProblem(res, 404, 'not-found');
    }
    expect((await consentRow(consent.id)).status).toBe('pending');
  });

  it('a granted consent’s link ends with the link’s time: the host can then revoke only through the network', async () => {
    const net = await network();
    const consent = await ask(net);
    await grant(consent.token);
    await own.sql`update voice_consents set link_expires_at = now() - interval '1 second' where id = ${consent.id}`;
    expectProblem(await hostRevoke(consent.token), 404, 'not-found');
    expect((await net.call<Consent>('GET', `/networks/${net.n}/voice-consents/${consent.id}`)).body.status).toBe('granted');
  });

  it('no token, a wrong one, another credential: 404, each a failed attempt of the address', async () => {
    const net = await network();
    const consent = await ask(net);
    const invitation = await own.call<{ token: string }>('POST', `/networks/${net.n}/invitations`, { email: hostEmail(), role: 'read_only' });
    const client = { 'x-forwarded-for': '198.51.100.9' };
    const wrong = [
      null,
      'vcl_' + 'A'.repeat(40),
      consent.token.slice(0, -1),
      consent.token + 'x',
      net.admin,
      own.token,
      invitation.body.token,
      'vcl_short',
    ];
    for (const token of wrong) {
      const res = await asHost('GET', '/voice-consents/current', token, undefined, client);
      expectProblem(res, 404, 'not-found');
      expect(Number(res.headers.get('ratelimit-remaining'))).toBeGreaterThanOrEqual(0);
      expectProblem(await asHost('POST', '/voice-consents/current/grant', token, { statement_version: 1 }, client), 404, 'not-found');
    }
    // Each refusal counted against the address (AUTH_FAILURE_LIMIT_PER_MINUTE's budget shrinks).
    const after = await asHost('GET', '/voice-consents/current', 'vcl_' + 'B'.repeat(40), undefined, client);
    expect(Number(after.headers.get('ratelimit-remaining'))).toBeLessThan(30 - wrong.length * 2);
    // Nothing was decided, and the link is a credential for nothing else.
    expect((await consentRow(consent.id)).status).toBe('pending');
    expect((await own.call('GET', '/me', undefined, consent.token)).status).toBe(401);
    expect((await own.call('GET', `/networks/${net.n}/voice-consents`, undefined, consent.token)).status).toBe(401);
    expect((await own.call('GET', '/invitations/current', undefined, consent.token)).status).toBe(401);
  });

  it('a link for one consent acts on that consent only', async () => {
    const net = await network();
    const mine = await ask(net);
    const theirs = await ask(net);
    expect((await view(mine.token)).body.id).toBe(mine.id);
    expect((await grant(mine.token)).body.id).toBe(mine.id);
    expect((await consentRow(theirs.id)).status).toBe('pending');
    expect((await view(theirs.token)).body).toMatchObject({ id: theirs.id, status: 'pending' });
    expect((await hostRevoke(mine.token)).body.id).toBe(mine.id);
    expect((await consentRow(theirs.id)).status).toBe('pending');
  });

  it('an Idempotency-Key on a decision replays its answer to the same link', async () => {
    const net = await network();
    const consent = await ask(net);
    const key = { 'idempotency-key': randomUUID() };
    const first = await asHost('POST', '/voice-consents/current/grant', consent.token, { statement_version: 1 }, key);
    const again = await asHost('POST', '/voice-consents/current/grant', consent.token, { statement_version: 1 }, key);
    expect(first.status).toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
  });
});

describe('decisions racing on one consent: compare-and-set, the loser 409', () => {
  const TRIALS = 6;

  it('grant ∥ refuse: exactly one wins, the other is a 409, and the consent is what the winner made it', async () => {
    const net = await network();
    for (let i = 0; i < TRIALS; i++) {
      const consent = await ask(net);
      const [a, b] = await Promise.all([grant(consent.token), refuse(consent.token)]);
      const statuses = [a.status, b.status].sort();
      expect(statuses).toEqual([200, 409]);
      const winner = a.status === 200 ? 'granted' : 'refused';
      expect((await consentRow(consent.id)).status).toBe(winner);
    }
    const events = await net.call<Page<{ type: string }>>('GET', `/networks/${net.n}/events?limit=200`);
    const grants = (await own.sql`select count(*)::int as n from voice_consents where network_id = ${net.n} and status = 'granted'`)[0]!.n;
    expect(events.body.items.filter((e) => e.type === 'voice_consent.granted')).toHaveLength(grants);
  });

  it('grant ∥ an administrator’s revoke: a consistent end — granted, or revoked with the events and answers that say in which order', async () => {
    const net = await network();
    for (let i = 0; i < TRIALS; i++) {
      const consent = await ask(net);
      const [granted, revoked] = await Promise.all([
        grant(consent.token),
        net.call<Consent>('POST', `/networks/${net.n}/voice-consents/${consent.id}/revoke`),
      ]);
      expect([200, 409]).toContain(granted.status);
      expect([200, 409]).toContain(revoked.status);
      expect(granted.status === 200 || revoked.status === 200).toBe(true);
      const row = await consentRow(consent.id);
      const events = (
        await own.sql`select type, data from events where network_id = ${net.n} and data->>'consent_id' = ${consent.id} order by id`
      ).map((e) => [e.type, (e.data as { previous_status?: string }).previous_status]);
      if (revoked.status === 409) {
        // The grant won; the revocation read pending and lost the compare-and-set (or read granted… and then it would have won).
        expect(row.status).toBe('granted');
        expect(events).toEqual([['voice_consent.granted', undefined]]);
      } else if (granted.status === 200) {
        expect(row.status).toBe('revoked');
        expect(events).toEqual([
          ['voice_consent.granted', undefined],
          ['voice_consent.revoked', 'granted'],
        ]);
      } else {
        expect(row.status).toBe('revoked');
        expect(row.granted_at).toBeNull();
        expect(events).toEqual([['voice_consent.revoked', 'pending']]);
      }
    }
  });

  it('the host’s revoke ∥ an administrator’s: exactly one revocation', async () => {
    const net = await network();
    for (let i = 0; i < TRIALS; i++) {
      const consent = await ask(net);
      await grant(consent.token);
      const [host, admin] = await Promise.all([
        hostRevoke(consent.token),
        net.call('POST', `/networks/${net.n}/voice-consents/${consent.id}/revoke`),
      ]);
      expect([host.status, admin.status].sort()).toEqual([200, 409]);
      const row = await consentRow(consent.id);
      expect(row.revoked_by).toBe(host.status === 200 ? 'host' : 'administrator');
      const revocations = await own.sql`select 1 from events where type = 'voice_consent.revoked' and data->>'consent_id' = ${consent.id}`;
      expect(revocations).toHaveLength(1);
    }
  });
});
