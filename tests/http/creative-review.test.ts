import { createHash, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { api, expectProblem, type ApiResponse, type Page, type Problem } from '@/tests/support/api';
import { startFakeVoiceVendor } from '@/tests/support/fake-voice-vendor';
import { useOwnServer } from '@/tests/support/own-server';
import { startSmtpReceiver } from '@/tests/support/smtp-receiver';
import { until } from '@/tests/support/until';
import { startWebhookReceiver } from '@/tests/support/webhook-receiver';

/**
 * The review of host-voiced creatives (issue 38; docs/creative-review.md) over HTTP, with the real
 * mail path: consent asked and granted through the emailed consent link, an offer accepted, the
 * creative synthesized and mastered, and its review link mailed to the host through a real SMTP
 * server on loopback. Each test reads the links off the wire and acts with their tokens, as the
 * console's pages do, or with an administrator's key on the host's behalf.
 *
 * The voice is the fake vendor's short tone (the http provider; what the local engine and the
 * vendor's speech make of a script is creative-audio.test.ts's and synthesis-upstream.test.ts's
 * subject): the review does not depend on what the audio says, and mastering a 0.6 s tone takes
 * ffmpeg three runs where a spoken script took seven and the engine's time besides — over 30
 * creatives in this file.
 *
 * Every test makes a network of its own (and a host with an email of its own), so they run at once
 * (`describe.concurrent`, up to vitest's maxConcurrency): most of a test's time is the worker
 * synthesizing and mastering, which the service shares fairly between networks. All but the last
 * suite's, which runs alone (it says why).
 */
let relay: Awaited<ReturnType<typeof startSmtpReceiver>>;
let hooks: Awaited<ReturnType<typeof startWebhookReceiver>>;
let vendor: Awaited<ReturnType<typeof startFakeVoiceVendor>>;
let hookSecret = '';
beforeAll(async () => {
  relay = await startSmtpReceiver();
  hooks = await startWebhookReceiver(() => hookSecret);
  vendor = await startFakeVoiceVendor({ format: 'wav' });
});
const own = useOwnServer('creative-review', () => ({
  SMTP_URL: relay.url,
  PUBLIC_URL: 'https://ads.acme.example',
  TRUSTED_PROXIES: 'loopback',
  WEBHOOK_ALLOW_PRIVATE: '1',
  SYNTH_PROVIDER: 'http',
  SYNTH_TEST_NETWORKS: 'provider', // every network is a test network under APP_ENV=test
  SYNTH_BASE_URL: vendor.url,
}));
afterAll(async () => {
  await relay?.close();
  await hooks?.close();
  await vendor?.close();
});

interface Review {
  reviewed_at: string;
  reviewed_by: 'host' | 'administrator';
  comment: string | null;
}
interface Creative {
  id: string;
  offer_id: string;
  campaign_id: string;
  podcast_id: string;
  status: 'awaiting_consent' | 'generating' | 'pending_approval' | 'approved' | 'changes_requested' | 'failed';
  revision: number;
  previous_revision_id: string | null;
  script: string;
  synthetic_voice: boolean;
  voice_consent_id: string | null;
  review: Review | null;
  review_link_expires_at: string | null;
  audio_url: string | null;
  formats: Array<{ format: string }>;
  duration_ms: number | null;
  version: number;
}
interface LinkView {
  creative: { id: string; revision: number; status: Creative['status']; script: string; duration_ms: number | null; review: Review | null };
  campaign: { name: string; advertiser_name: string; talking_points: string[]; required_lines: string[] };
  podcast_name: string;
  host_name: string;
  network_name: string;
  link_expires_at: string;
  revisions: Array<{ revision: number; status: Creative['status']; script: string; review: Review | null; created_at: string }>;
}
type Event = { type: string; data: Record<string, unknown> };

const REQUIRED = 'Use code NIGHT for 20% off.';
const TALKING_POINTS = ['Mention the 100-night trial', 'Say you sleep on one yourself'];
const SCRIPT = `Sleep better with Acme mattresses. ${REQUIRED} Terms apply.`;
/**
 * The host's phone, through the trusted proxy; each call from an address of its own, so that the
 * 404s the tests expect (superseded links) never add up to the address's lockout — except where a
 * test names the address to count them.
 */
const hostHeaders = () => ({
  'user-agent': 'Mozilla/5.0 (iPhone) Mobile Safari',
  'x-forwarded-for': `203.0.113.${1 + Math.floor(Math.random() * 254)}`,
});

/** A call through a host's link (consent or review): its token as the bearer, no API key. */
function asHost<T = LinkView>(method: string, path: string, token: string | null, body?: unknown, headers: Record<string, string> = {}) {
  return api<T>(method, path, { token, baseUrl: own.server.url, body, headers: { ...hostHeaders(), ...headers } });
}
const view = (token: string | null) => asHost('GET', '/creative-reviews/current', token);
const hostApprove = (token: string | null, headers: Record<string, string> = {}) =>
  asHost<Review>('POST', '/creative-reviews/current/approve', token, undefined, headers);
const hostRequestChanges = (token: string | null, body: { comment: string; script?: string }, headers: Record<string, string> = {}) =>
  asHost<Review>('POST', '/creative-reviews/current/request-changes', token, body, headers);
const hostAudio = (token: string | null) => audio('/creative-reviews/current/audio', token);

/** GET audio: the status, type and bytes. */
async function audio(path: string, token: string | null) {
  const res = await fetch(`${own.server.url}/v1${path}`, { headers: { ...hostHeaders(), ...(token ? { authorization: `Bearer ${token}` } : {}) } });
  return {
    status: res.status,
    type: res.headers.get('content-type'),
    cache: res.headers.get('cache-control'),
    bytes: Buffer.from(await res.arrayBuffer()),
  };
}
const isMp3 = (b: Buffer) => (b[0] === 0xff && (b[1]! & 0xe0) === 0xe0) || b.toString('ascii', 0, 3) === 'ID3';

const hostEmail = () => `sam-${randomUUID().slice(0, 8)}@hosts.example`;

/**
 * A network with an advertiser, a campaign with talking points and a required line, and an
 * opted-in podcast, made through /v1 by the operator; a key of each role on it.
 */
async function network(name = `Reviews ${randomUUID().slice(0, 6)}`) {
  const n = (await own.call<{ id: string }>('POST', '/networks', { name })).body.id;
  const key = async (role: 'administrator' | 'read_only') => {
    const made = await own.call<{ token: string; id: string }>('POST', '/apikeys', { key_name: role, scopes: [{ network_id: n, role }] });
    return { token: made.body.token, id: made.body.id };
  };
  const admin = await key('administrator');
  const reader = await key('read_only');
  const call = <T = Creative>(method: string, path: string, body?: unknown, as = admin.token, headers: Record<string, string> = {}) =>
    api<T>(method, path, { token: as, baseUrl: own.server.url, body, headers });
  const advertiser = (await call<{ id: string }>('POST', `/networks/${n}/advertisers`, { name: 'Acme Mattresses' })).body.id;
  const podcast = (await call<{ id: string }>('POST', `/networks/${n}/podcasts`, { name: 'Night Owls', host_name: 'Sam Rivera' })).body.id;
  expect((await call('POST', `/networks/${n}/podcasts/${podcast}/opt-in`)).status).toBe(200);
  const campaign = async (campaignName = 'Spring Sleep', script = SCRIPT) => {
    const made = await call<{ id: string }>('POST', `/networks/${n}/campaigns`, {
      name: campaignName,
      advertiser_id: advertiser,
      script,
      status: 'active',
      talking_points: TALKING_POINTS,
      required_lines: [REQUIRED],
    });
    expect(made.status, made.text).toBe(201);
    return made.body.id;
  };
  const firstCampaign = await campaign();
  return { n, name, admin, reader, call, advertiser, podcast, campaign: firstCampaign, newCampaign: campaign };
}
type Network = Awaited<ReturnType<typeof network>>;

/** The link of an email to `to` that matches `pattern`, off the wire: its token. */
async function mailedTokens(to: string, pattern: RegExp): Promise<string[]> {
  return relay.received
    .filter((m) => m.to.includes(to))
    .map((m) => pattern.exec(m.parsed.text ?? '')?.[1])
    .filter((t): t is string => t !== undefined);
}
const CONSENT_LINK = /https:\/\/ads\.acme\.example\/console\/voice-consent#token=(vcl_\w+)/;
const REVIEW_LINK = /https:\/\/ads\.acme\.example\/console\/creative-review#token=(crl_\w+)/;

/** Ask the host for consent (all campaigns), and grant it through the emailed link as the host does. Returns the consent's id and link. */
async function consent(net: Network, email = hostEmail()) {
  const asked = await net.call<{ id: string }>('POST', `/networks/${net.n}/podcasts/${net.podcast}/voice-consents`, {
    host_name: 'Sam Rivera',
    host_email: email,
    scope: 'all_campaigns',
  });
  expect(asked.status, asked.text).toBe(201);
  const [token] = await until(async () => {
    const found = await mailedTokens(email, CONSENT_LINK);
    return found.length ? found : undefined;
  }, 60_000);
  const granted = await asHost<{ status: string }>('POST', '/voice-consents/current/grant', token!, { statement_version: 1 });
  expect(granted.status, granted.text).toBe(200);
  return { id: asked.body.id, email, token: token! };
}

/** An offer of `campaign` to the podcast, accepted: its creative (revision 1). */
async function accept(net: Network, campaign = net.campaign): Promise<Creative> {
  const offer = await net.call<{ id: string }>('POST', `/networks/${net.n}/offers`, { campaign_id: campaign, podcast_id: net.podcast });
  expect(offer.status, offer.text).toBe(201);
  const accepted = await net.call<{ creative_id: string }>('POST', `/networks/${net.n}/offers/${offer.body.id}/accept`);
  expect(accepted.status, accepted.text).toBe(200);
  return (await net.call<Creative>('GET', `/networks/${net.n}/creatives/${accepted.body.creative_id}`)).body;
}

const creative = async (net: Network, id: string) => (await net.call<Creative>('GET', `/networks/${net.n}/creatives/${id}`)).body;

/**
 * Poll the creative until `done` holds (synthesis takes a few seconds, longer for several of one
 * network on a busy machine): every 250 ms, as each poll is a request the service spends CPU on
 * while ffmpeg (at a lower priority) masters the audio being waited for.
 */
async function waitForCreative(net: Network, id: string, done: (c: Creative) => boolean = (c) => c.status === 'pending_approval') {
  return until(
    async () => {
      const c = await creative(net, id);
      expect(c.status).not.toBe('failed');
      return done(c) ? c : undefined;
    },
    150_000,
    250,
  );
}

/** The review link mailed to `email` for revision `creativeId`, off the wire (the page's API says which revision a token opens). */
const tokenOwners = new Map<string, string>();
async function reviewToken(email: string, creativeId: string): Promise<string> {
  return until(async () => {
    for (const token of await mailedTokens(email, REVIEW_LINK)) {
      if (!tokenOwners.has(token)) {
        const opened = await view(token);
        tokenOwners.set(token, opened.status === 200 ? opened.body.creative.id : '');
      }
      if (tokenOwners.get(token) === creativeId) return token;
    }
    return undefined;
  }, 60_000);
}

/** A creative pending approval, with the host's review link: consent granted, offer accepted, synthesized, mailed. */
async function pendingCreative(net: Network, host?: Awaited<ReturnType<typeof consent>>, campaign = net.campaign) {
  const granted = host ?? (await consent(net));
  const made = await accept(net, campaign);
  const ready = await waitForCreative(net, made.id);
  return { creative: ready, consent: granted, token: await reviewToken(granted.email, made.id) };
}

const events = async (net: Network, type: string) =>
  (await net.call<Page<Event>>('GET', `/networks/${net.n}/events?type=${type}&limit=100`)).body.items.map((e) => e.data);
const creativeRow = async (id: string) => (await own.sql`select * from creatives where id = ${id}`)[0]!;

describe.concurrent('from acceptance to the host’s approval', () => {
  it('awaits consent, generates once granted, asks the host to review by email; the link works and the host approves', async () => {
    const net = await network('Moonlight Audio');
    const hook = await net.call<{ secret: string }>('POST', `/networks/${net.n}/webhooks`, {
      url: hooks.url,
      events: ['creative.ready', 'creative.approved'],
    });
    hookSecret = hook.body.secret;

    // No consent yet: the creative waits for one, and nothing is synthesized.
    const made = await accept(net);
    expect(made).toMatchObject({
      status: 'awaiting_consent',
      revision: 1,
      previous_revision_id: null,
      synthetic_voice: true,
      voice_consent_id: null,
      review: null,
      review_link_expires_at: null,
      audio_url: null,
      formats: [],
    });
    expectProblem(await net.call('GET', `/networks/${net.n}/creatives/${made.id}/audio`), 409, 'conflict');

    // The host grants through the emailed consent link: the creative is made under that consent.
    const host = await consent(net);
    const next = await creative(net, made.id);
    expect(['generating', 'pending_approval']).toContain(next.status);
    expect(next.voice_consent_id).toBe(host.id);
    const ready = await waitForCreative(net, made.id);
    expect(ready).toMatchObject({ status: 'pending_approval', voice_consent_id: host.id, review: null, audio_url: null });
    expect(ready.formats.map((f) => f.format)).toEqual(['mp3', 'wav']);
    const days = (Date.parse(ready.review_link_expires_at!) - Date.now()) / 86_400_000;
    expect(days).toBeGreaterThan(13.99);
    expect(days).toBeLessThanOrEqual(14);

    // The email: to the consent's host, with the review link and what it is for.
    const token = await reviewToken(host.email, made.id);
    expect(token).toMatch(/^crl_[0-9A-Za-z]{40}$/);
    const mail = relay.received.find((m) => m.to.includes(host.email) && m.parsed.text?.includes(token))!;
    expect(mail.parsed.subject).toBe('Review the Acme Mattresses ad in your voice for Night Owls');
    expect(mail.parsed.text).toContain(
      'Hello Sam Rivera, An ad for Acme Mattresses (Spring Sleep) on Night Owls was made by Moonlight Audio with the synthetic copy of your voice you consented to.',
    );
    expect(mail.parsed.html).toContain(`href="https://ads.acme.example/console/creative-review#token=${token}"`);
    // Only its SHA-256 is kept: not in the row, the answers, the events or the audit log.
    const row = await creativeRow(made.id);
    expect(row.review_token_hash).toBe(createHash('sha256').update(token).digest('hex'));
    const kept = [
      row,
      ...(await own.sql`select * from events where network_id = ${net.n}`),
      ...(await own.sql`select * from audit_log where network_id = ${net.n}`),
    ];
    expect(JSON.stringify(kept)).not.toContain(token.slice(4));
    expect((await net.call('GET', `/networks/${net.n}/creatives?podcast_id=${net.podcast}`)).text).not.toContain(token.slice(4));

    // What the host's page shows, and the audio it plays.
    const shown = await view(token);
    expect(shown.status).toBe(200);
    expect(shown.body).toEqual({
      creative: { id: made.id, revision: 1, status: 'pending_approval', script: SCRIPT, duration_ms: ready.duration_ms, review: null },
      campaign: { name: 'Spring Sleep', advertiser_name: 'Acme Mattresses', talking_points: TALKING_POINTS, required_lines: [REQUIRED] },
      podcast_name: 'Night Owls',
      host_name: 'Sam Rivera',
      network_name: 'Moonlight Audio',
      link_expires_at: ready.review_link_expires_at,
      revisions: [{ revision: 1, status: 'pending_approval', script: SCRIPT, review: null, created_at: expect.any(String) }],
    });
    const heard = await hostAudio(token);
    expect(heard.status).toBe(200);
    expect(heard.type).toBe('audio/mpeg');
    expect(heard.cache).toBe('private, no-store');
    expect(isMp3(heard.bytes)).toBe(true);
    // Reading and listening decide nothing.
    expect((await creativeRow(made.id)).status).toBe('pending_approval');

    // The host approves: the audio is offered for delivery from now on, to any key of the network.
    const approved = await hostApprove(token);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toEqual({ reviewed_at: expect.any(String), reviewed_by: 'host', comment: null });
    const after = await creative(net, made.id);
    expect(after).toMatchObject({ status: 'approved', review: approved.body });
    expect(after.audio_url).toBe(`https://ads.acme.example/v1/networks/${net.n}/creatives/${made.id}/audio`);
    const delivered = await audio(`/networks/${net.n}/creatives/${made.id}/audio`, net.reader.token);
    expect(delivered.status).toBe(200);
    expect(delivered.bytes.equals(heard.bytes)).toBe(true);

    // creative.approved: recorded, delivered, signed; the audit log says the host did it (no key).
    expect(await events(net, 'creative.approved')).toEqual([
      {
        creative_id: made.id,
        offer_id: made.offer_id,
        campaign_id: made.campaign_id,
        podcast_id: net.podcast,
        revision: 1,
        reviewed_by: 'host',
        audio_url: after.audio_url,
      },
    ]);
    const hooked = await until(
      () => hooks.received.find((r) => r.headers['x-service-event'] === 'creative.approved' && r.raw.toString().includes(made.id)),
      30_000,
    );
    expect(hooked.verified).toBe(true);
    const audit = await net.call<Page<{ action: string; actor_key_id: string | null; target_type: string; data: Record<string, unknown> }>>(
      'GET',
      `/networks/${net.n}/audit-log?target_id=${made.id}`,
    );
    expect(audit.body.items).toEqual([
      expect.objectContaining({
        action: 'creative.approved',
        actor_key_id: null,
        target_type: 'creative',
        data: { by: 'host', offer_id: made.offer_id, revision: 1 },
      }),
    ]);

    // Decided: the link still reads, but decides nothing more (409).
    expect((await view(token)).body.creative).toMatchObject({ status: 'approved', review: approved.body });
    expectProblem(await hostApprove(token), 409, 'conflict');
    expectProblem(await hostRequestChanges(token, { comment: 'Too late' }), 409, 'conflict');
    expectProblem(await net.call('POST', `/networks/${net.n}/creatives/${made.id}/approve`), 409, 'conflict');
  }, 180_000);

  it('an administrator approves on the host’s behalf: recorded as such, with the key; read_only keys may not', async () => {
    const net = await network();
    const { creative: ready, token } = await pendingCreative(net);
    const path = `/networks/${net.n}/creatives/${ready.id}`;
    expectProblem(await net.call('POST', `${path}/approve`, undefined, net.reader.token), 403, 'forbidden');
    expectProblem(await net.call('POST', `${path}/request-changes`, { comment: 'No' }, net.reader.token), 403, 'forbidden');

    const approved = await net.call<Creative>('POST', `${path}/approve`);
    expect(approved.status, approved.text).toBe(200);
    expect(approved.body).toMatchObject({ status: 'approved', review: { reviewed_by: 'administrator', comment: null } });
    expect(approved.body.version).toBeGreaterThan(ready.version);
    expect((await creativeRow(ready.id)).reviewed_by_key_id).toBe(net.admin.id);
    const audit = await net.call<Page<{ action: string; actor_key_id: string | null; data: Record<string, unknown> }>>(
      'GET',
      `/networks/${net.n}/audit-log?action=creative.approved`,
    );
    expect(audit.body.items.map((a) => [a.actor_key_id, a.data.by])).toEqual([[net.admin.id, 'administrator']]);
    expect((await events(net, 'creative.approved')).map((e) => e.reviewed_by)).toEqual(['administrator']);

    // Once decided, neither the administrator nor the host decides again: 409 naming the state.
    const again = await net.call<Problem>('POST', `${path}/approve`);
    expectProblem(again, 409, 'conflict');
    expect(again.body.detail).toContain('approved');
    expectProblem(await hostApprove(token), 409, 'conflict');
    expect((await view(token)).body.creative.review).toMatchObject({ reviewed_by: 'administrator' });
    expectProblem(await net.call('POST', `/networks/${net.n}/creatives/crv_00000000000000000000000000/approve`), 404, 'not-found');
  }, 180_000);
});

describe.concurrent('requesting changes makes the next revision', () => {
  it('with a new script (administrator) → revision 2, linked and synthesized; the host asks again, keeping it → revision 3; the host approves', async () => {
    const net = await network();
    const { creative: first, consent: host, token: firstToken } = await pendingCreative(net);
    const newScript = `Acme mattresses: sleep like you mean it. ${REQUIRED}`;

    const asked = await net.call<Creative>('POST', `/networks/${net.n}/creatives/${first.id}/request-changes`, {
      comment: 'Shorter, please.',
      script: `  ${newScript} `,
    });
    expect(asked.status, asked.text).toBe(201);
    const second = asked.body;
    expect(second).toMatchObject({
      offer_id: first.offer_id,
      campaign_id: first.campaign_id,
      podcast_id: net.podcast,
      revision: 2,
      previous_revision_id: first.id,
      script: newScript,
      synthetic_voice: true,
      voice_consent_id: host.id,
      review: null,
      audio_url: null,
    });
    expect(second.id).not.toBe(first.id);
    expect(['generating', 'pending_approval']).toContain(second.status);
    // The old revision: changes requested, recorded; its audio no longer served; its link superseded.
    expect(await creative(net, first.id)).toMatchObject({
      status: 'changes_requested',
      review: { reviewed_by: 'administrator', comment: 'Shorter, please.' },
      audio_url: null,
      formats: [],
    });
    expectProblem(await net.call('GET', `/networks/${net.n}/creatives/${first.id}/audio`), 409, 'conflict');
    expectProblem(await view(firstToken), 404, 'not-found');
    // The offer now names the newest revision.
    expect((await net.call<{ creative_id: string }>('GET', `/networks/${net.n}/offers/${first.offer_id}`)).body.creative_id).toBe(second.id);
    expect(await events(net, 'creative.changes_requested')).toEqual([
      {
        creative_id: first.id,
        offer_id: first.offer_id,
        campaign_id: first.campaign_id,
        podcast_id: net.podcast,
        revision: 1,
        reviewed_by: 'administrator',
        comment: 'Shorter, please.',
        new_creative_id: second.id,
        new_revision: 2,
      },
    ]);

    // Revision 2 is synthesized and mailed to the host with a link of its own.
    await waitForCreative(net, second.id);
    const secondToken = await reviewToken(host.email, second.id);
    expect(secondToken).not.toBe(firstToken);
    const shown = (await view(secondToken)).body;
    expect(shown.creative).toMatchObject({ id: second.id, revision: 2, script: newScript, status: 'pending_approval' });
    expect(shown.revisions.map((r) => [r.revision, r.status, r.review?.comment ?? null])).toEqual([
      [1, 'changes_requested', 'Shorter, please.'],
      [2, 'pending_approval', null],
    ]);

    // The host asks for changes from their link, keeping the script: revision 3, and this link is superseded.
    const hostAsked = await hostRequestChanges(secondToken, { comment: 'Slower on the code.' });
    expect(hostAsked.status, hostAsked.text).toBe(200);
    expect(hostAsked.body).toEqual({ reviewed_at: expect.any(String), reviewed_by: 'host', comment: 'Slower on the code.' });
    expectProblem(await view(secondToken), 404, 'not-found');
    const revisions = await net.call<Page<Creative>>('GET', `/networks/${net.n}/creatives/${first.id}/revisions`, undefined, net.reader.token);
    expect(revisions.status).toBe(200);
    expect(revisions.body.next_cursor).toBeNull();
    expect(revisions.body.items.map((c) => [c.revision, c.status, c.script, c.review?.reviewed_by ?? null])).toEqual([
      [1, 'changes_requested', SCRIPT, 'administrator'],
      [2, 'changes_requested', newScript, 'host'],
      [3, expect.stringMatching(/^(generating|pending_approval)$/), newScript, null],
    ]);
    const third = revisions.body.items[2]!;
    expect(third.previous_revision_id).toBe(second.id);
    // The same list from any revision.
    const fromThird = await net.call<Page<Creative>>('GET', `/networks/${net.n}/creatives/${third.id}/revisions`);
    expect(fromThird.body.items.map((c) => c.id)).toEqual([first.id, second.id, third.id]);
    const audit = await net.call<Page<{ action: string; actor_key_id: string | null; target_id: string; data: Record<string, unknown> }>>(
      'GET',
      `/networks/${net.n}/audit-log?action=creative.changes_requested`,
    );
    expect(audit.body.items.map((a) => [a.target_id, a.actor_key_id, a.data.by, a.data.script_changed])).toEqual([
      [first.id, net.admin.id, 'administrator', true],
      [second.id, null, 'host', false],
    ]);

    // Revision 3 is made, mailed, and the host approves it.
    await waitForCreative(net, third.id);
    const thirdToken = await reviewToken(host.email, third.id);
    expect((await hostApprove(thirdToken)).status).toBe(200);
    expect(await creative(net, third.id)).toMatchObject({ status: 'approved', revision: 3 });
    const queue = await net.call<Page<Creative>>('GET', `/networks/${net.n}/creatives?offer_id=${first.offer_id}&status=approved`);
    expect(queue.body.items.map((c) => c.id)).toEqual([third.id]);
  }, 240_000);

  it('a script lacking a required line is a 400 naming it — a new one, or the one kept when the campaign’s lines changed', async () => {
    const net = await network();
    const { creative: ready, token } = await pendingCreative(net);
    const path = `/networks/${net.n}/creatives/${ready.id}/request-changes`;
    const lacking = await net.call<Problem>('POST', path, { comment: 'Shorter', script: 'Sleep better with Acme. Use code night for 20% off.' });
    expectProblem(lacking, 400, 'bad-request');
    expect(lacking.body.detail).toContain(`“${REQUIRED}”`);
    expect(lacking.body.errors).toEqual([{ path: 'script', message: `Missing the required line: “${REQUIRED}”` }]);
    const fromHost = await hostRequestChanges(token, { comment: 'Shorter', script: 'Sleep better.' });
    expectProblem(fromHost, 400, 'bad-request');
    expect(fromHost.body as unknown as Problem).toMatchObject({ detail: expect.stringContaining(REQUIRED) });
    // Whitespace runs count as one space: the line is there.
    const spaced = `Acme.\n${REQUIRED.replaceAll(' ', '   ')}`;
    // A required line added to the campaign since: the kept script lacks it.
    const campaign = await net.call<{ version: number }>('GET', `/networks/${net.n}/campaigns/${net.campaign}`);
    const patched = await net.call('PATCH', `/networks/${net.n}/campaigns/${net.campaign}`, {
      script: `${SCRIPT} Not available in Maine.`,
      required_lines: [REQUIRED, 'Not available in Maine.'],
      version: campaign.body.version,
    });
    expect(patched.status, patched.text).toBe(200);
    const kept = await net.call<Problem>('POST', path, { comment: 'Again' });
    expectProblem(kept, 400, 'bad-request');
    expect(kept.body.detail).toContain('“Not available in Maine.”');
    // Nothing was decided by the refusals.
    expect((await creative(net, ready.id)).status).toBe('pending_approval');
    const fine = await net.call<Creative>('POST', path, { comment: 'Fine', script: `${spaced} Not   available in Maine.` });
    expect(fine.status, fine.text).toBe(201);
    // Bad input: no comment, a blank one, one too long, a script too long.
    const bad = async (body: unknown, field: string) => {
      const res = await net.call<Problem>('POST', `/networks/${net.n}/creatives/${fine.body.id}/request-changes`, body);
      expectProblem(res, 400, 'bad-request');
      expect(res.body.errors?.[0]?.path).toBe(field);
    };
    await bad({}, 'comment');
    await bad({ comment: '   ' }, 'comment');
    await bad({ comment: 'x'.repeat(2001) }, 'comment');
    await bad({ comment: 'ok', script: `${REQUIRED} ${'x'.repeat(5000)}` }, 'script');
  }, 180_000);

  it('campaigns carry talking points and required lines: bounded, and the script must contain each line (create and PATCH)', async () => {
    const net = await network();
    const base = { name: 'Summer', advertiser_id: net.advertiser, status: 'draft' };
    const create = (body: Record<string, unknown>) => net.call<Problem>('POST', `/networks/${net.n}/campaigns`, { ...base, ...body });
    const missing = await create({ script: 'Sleep better.', required_lines: ['Terms apply.'] });
    expectProblem(missing, 400, 'bad-request');
    expect(missing.body.detail).toContain('“Terms apply.”');
    expect(missing.body.errors).toEqual([{ path: 'script', message: 'Missing the required line: “Terms apply.”' }]);
    expectProblem(await create({ script: 'Sleep better. terms apply.', required_lines: ['Terms apply.'] }), 400, 'bad-request');
    for (const [body, field] of [
      [{ talking_points: Array.from({ length: 21 }, (_, i) => `Point ${i}`) }, 'talking_points'],
      [{ talking_points: [''] }, 'talking_points.0'],
      [{ talking_points: ['x'.repeat(501)] }, 'talking_points.0'],
      [{ required_lines: Array.from({ length: 11 }, (_, i) => `Line ${i}`), script: 'x' }, 'required_lines'],
      [{ required_lines: ['  '] }, 'required_lines.0'],
      [{ required_lines: 'Terms apply.' }, 'required_lines'],
    ] as const) {
      const res = await create(body);
      expectProblem(res, 400, 'bad-request');
      expect(res.body.errors?.[0]?.path, JSON.stringify(body)).toBe(field);
    }

    const made = await create({
      script: 'Sleep better.\nTerms   apply.',
      talking_points: ['  The 100-night trial '],
      required_lines: ['Terms apply.'],
    });
    expect(made.status, made.text).toBe(201);
    const campaign = made.body as unknown as { id: string; talking_points: string[]; required_lines: string[]; version: number };
    expect(campaign).toMatchObject({ talking_points: ['The 100-night trial'], required_lines: ['Terms apply.'] });
    const path = `/networks/${net.n}/campaigns/${campaign.id}`;
    expect((await net.call('GET', path)).body).toMatchObject({ talking_points: ['The 100-night trial'], required_lines: ['Terms apply.'] });
    // PATCH: checked on the script and lines as they would be.
    const dropped = await net.call<Problem>('PATCH', path, { script: 'Sleep better.' });
    expectProblem(dropped, 400, 'bad-request');
    expect(dropped.body.detail).toContain('“Terms apply.”');
    expectProblem(await net.call('PATCH', path, { required_lines: ['Terms apply.', 'Void in Maine.'] }), 400, 'bad-request');
    const both = await net.call<{ required_lines: string[]; talking_points: string[] }>('PATCH', path, {
      script: 'Sleep better. Terms apply. Void in Maine.',
      required_lines: ['Terms apply.', 'Void in Maine.'],
      talking_points: [],
    });
    expect(both.status, both.text).toBe(200);
    expect(both.body).toMatchObject({ required_lines: ['Terms apply.', 'Void in Maine.'], talking_points: [] });
    expect((await net.call('PATCH', path, { required_lines: [] })).status).toBe(200);
    expect((await net.call('PATCH', path, { script: 'Anything.' })).status).toBe(200);
  });

  it('a creative has at most 20 revisions: the request that would make the 21st is a 409', async () => {
    const net = await network();
    const { creative: ready } = await pendingCreative(net);
    // As if 19 requests had come before (each revision is a row; only the last is pending).
    await own.sql`update creatives set revision = 20 where id = ${ready.id}`;
    const refused = await net.call<Problem>('POST', `/networks/${net.n}/creatives/${ready.id}/request-changes`, { comment: 'Once more' });
    expectProblem(refused, 409, 'conflict');
    expect(refused.body.detail).toContain('(20)');
    expect((await creative(net, ready.id)).status).toBe('pending_approval');
    expect((await net.call('POST', `/networks/${net.n}/creatives/${ready.id}/approve`)).status).toBe(200);
  }, 180_000);

  it('an Idempotency-Key replays a decision’s answer: one revision, one event', async () => {
    const net = await network();
    const host = await consent(net);
    const [a, b] = await Promise.all([pendingCreative(net, host), pendingCreative(net, host, await net.newCampaign('Autumn'))]);
    const key = { 'idempotency-key': randomUUID() };
    const path = `/networks/${net.n}/creatives/${a.creative.id}/request-changes`;
    const first = await net.call<Creative>('POST', path, { comment: 'Again' }, net.admin.token, key);
    const again = await net.call<Creative>('POST', path, { comment: 'Again' }, net.admin.token, key);
    expect(first.status).toBe(201);
    expect(again.status).toBe(201);
    expect(again.headers.get('idempotent-replayed')).toBe('true');
    expect(again.body).toEqual(first.body);
    expect((await events(net, 'creative.changes_requested')).length).toBe(1);

    const hostKey = { 'idempotency-key': randomUUID() };
    const approved = await hostApprove(b.token, hostKey);
    const replayed = await hostApprove(b.token, hostKey);
    expect(approved.status).toBe(200);
    expect(replayed.status).toBe(200);
    expect(replayed.headers.get('idempotent-replayed')).toBe('true');
    expect(replayed.body).toEqual(approved.body);
    expect((await events(net, 'creative.approved')).length).toBe(1);

    // The host's request for changes supersedes its own link, yet its retry with the key replays the
    // answer; the dead link gets 404 for anything else — a read, another key, a link an administrator superseded.
    const c = await pendingCreative(net, host, await net.newCampaign('Winter'));
    const changesKey = { 'idempotency-key': randomUUID() };
    const asked = await hostRequestChanges(c.token, { comment: 'Slower, please' }, changesKey);
    const retried = await hostRequestChanges(c.token, { comment: 'Slower, please' }, changesKey);
    expect(asked.status, asked.text).toBe(200);
    expect(retried.status, retried.text).toBe(200);
    expect(retried.headers.get('idempotent-replayed')).toBe('true');
    expect(retried.body).toEqual(asked.body);
    expect((await events(net, 'creative.changes_requested')).length).toBe(2);
    expect((await hostRequestChanges(c.token, { comment: 'Slower, please' }, { 'idempotency-key': randomUUID() })).status).toBe(404);
    expect((await hostRequestChanges(c.token, { comment: 'Slower, please' })).status).toBe(404);
    expect((await hostApprove(c.token, changesKey)).status).toBe(422);
    expect((await view(c.token)).status).toBe(404);
    expect((await hostApprove(a.token, { 'idempotency-key': randomUUID() })).status).toBe(404);
  }, 240_000);
});

describe.concurrent('decisions racing on one revision: compare-and-set, exactly one wins', () => {
  it('approve ∥ request changes, approve ∥ approve, request changes ∥ request changes — by the host and administrators: one 2xx, the other 409', async () => {
    const net = await network();
    const host = await consent(net);
    const campaigns = [net.campaign];
    for (let i = 1; i < 6; i++) campaigns.push(await net.newCampaign(`Campaign ${i}`));
    const pending = await Promise.all(campaigns.map((c) => pendingCreative(net, host, c)));
    const adminApprove = (c: Creative) => net.call<Creative>('POST', `/networks/${net.n}/creatives/${c.id}/approve`);
    const adminRequest = (c: Creative) => net.call<Creative>('POST', `/networks/${net.n}/creatives/${c.id}/request-changes`, { comment: 'Admin' });
    const races: Array<[string, (p: (typeof pending)[number]) => Array<Promise<ApiResponse<unknown>>>]> = [
      ['admin approve ∥ admin request changes', (p) => [adminApprove(p.creative), adminRequest(p.creative)]],
      ['host approve ∥ admin approve', (p) => [hostApprove(p.token), adminApprove(p.creative)]],
      ['host request changes ∥ admin approve', (p) => [hostRequestChanges(p.token, { comment: 'Host' }), adminApprove(p.creative)]],
      ['admin request changes ∥ admin request changes', (p) => [adminRequest(p.creative), adminRequest(p.creative)]],
    ];
    for (const [i, p] of pending.entries()) {
      const [name, race] = races[i % races.length]!;
      const answers = await Promise.all(race(p));
      const statuses = answers.map((a) => a.status);
      expect(
        statuses.filter((s) => s === 200 || s === 201),
        `${name}: ${statuses.join(', ')}`,
      ).toHaveLength(1);
      expect(
        statuses.filter((s) => s === 409),
        `${name}: ${statuses.join(', ')}`,
      ).toHaveLength(1);
      // What the winner made, and only that: one decision, one event, at most one new revision.
      const row = await creativeRow(p.creative.id);
      expect(['approved', 'changes_requested']).toContain(row.status);
      const revisions = await own.sql`select id from creatives where offer_id = ${p.creative.offer_id}`;
      expect(revisions).toHaveLength(row.status === 'changes_requested' ? 2 : 1);
      const decided = await own.sql`select type from events where network_id = ${net.n}
        and type in ('creative.approved', 'creative.changes_requested') and data->>'creative_id' = ${p.creative.id}`;
      expect(decided.map((e) => e.type)).toEqual([row.status === 'approved' ? 'creative.approved' : 'creative.changes_requested']);
    }
  }, 300_000);

  it('the host’s approve ∥ an administrator’s request for changes: one wins; a host who lost finds the link superseded (404) or decided (409)', async () => {
    const net = await network();
    const host = await consent(net);
    const pending = await Promise.all(
      [net.campaign, await net.newCampaign('B'), await net.newCampaign('C')].map((c) => pendingCreative(net, host, c)),
    );
    for (const p of pending) {
      const [approved, asked] = await Promise.all([
        hostApprove(p.token),
        net.call('POST', `/networks/${net.n}/creatives/${p.creative.id}/request-changes`, { comment: 'Admin' }),
      ]);
      if (approved.status === 200) expect(asked.status).toBe(409);
      else {
        expect(asked.status).toBe(201);
        expect([404, 409]).toContain(approved.status);
      }
    }
  }, 300_000);
});

describe.concurrent('who hears the audio, in which state', () => {
  it('approved: any key of the network (while consent covers it) and the host; pending: administrators and the host; otherwise nobody', async () => {
    const net = await network();
    const host = await consent(net);
    const { creative: ready, token } = await pendingCreative(net, host);
    const path = `/networks/${net.n}/creatives/${ready.id}/audio`;
    const status = async (token: string | null) => (await audio(path, token)).status;

    // pending_approval: administrators (reviewing for the host) and the host's link.
    expect(await status(net.reader.token)).toBe(409);
    const byAdmin = await audio(path, net.admin.token);
    expect(byAdmin.status).toBe(200);
    expect(byAdmin.cache).toBe('private, no-store');
    expect((await hostAudio(token)).status).toBe(200);
    expect((await audio(`${path}?format=wav`, net.admin.token)).type).toBe('audio/wav');

    // approved: everyone of the network, and the host still.
    await net.call('POST', `/networks/${net.n}/creatives/${ready.id}/approve`);
    const byReader = await audio(path, net.reader.token);
    expect(byReader.status).toBe(200);
    expect(byReader.cache).toBe('private, max-age=3600');
    expect((await hostAudio(token)).status).toBe(200);

    // Awaiting consent, generating, changes requested: nobody.
    const other = await accept(net, await net.newCampaign('Other'));
    const changed = await waitForCreative(net, other.id);
    const next = await net.call<Creative>('POST', `/networks/${net.n}/creatives/${changed.id}/request-changes`, { comment: 'Again' });
    expect(await status(null)).toBe(401);
    expect((await audio(`/networks/${net.n}/creatives/${changed.id}/audio`, net.admin.token)).status).toBe(409);
    if (next.body.status === 'generating')
      expect((await audio(`/networks/${net.n}/creatives/${next.body.id}/audio`, net.admin.token)).status).toBe(409);

    // A consent that has ended covers nothing: approved audio is no longer offered (whether or not
    // the sweep of lapsed consents has withdrawn it yet).
    await own.sql`update voice_consents set expires_at = now() - interval '1 second' where id = ${host.id}`;
    expect(await status(net.reader.token)).toBe(409);
    expect(await status(net.admin.token)).toBe(409);
  }, 240_000);
});

describe.concurrent('revoking the consent withdraws the creatives made under it', () => {
  it('pending and approved creatives go back to awaiting consent: no audio, no link, named in voice_consent.revoked; a new grant makes them again', async () => {
    const net = await network();
    const host = await consent(net);
    const [approvedOne, pendingOne] = await Promise.all([pendingCreative(net, host), pendingCreative(net, host, await net.newCampaign('Other'))]);
    expect((await hostApprove(approvedOne.token)).status).toBe(200);

    // The host revokes from the consent link.
    const revoked = await asHost<{ status: string }>('POST', '/voice-consents/current/revoke', host.token);
    expect(revoked.status, revoked.text).toBe(200);
    for (const { creative: c, token } of [approvedOne, pendingOne]) {
      expect(await creative(net, c.id)).toMatchObject({
        status: 'awaiting_consent',
        voice_consent_id: null,
        review_link_expires_at: null,
        audio_url: null,
        formats: [],
      });
      expectProblem(await net.call('GET', `/networks/${net.n}/creatives/${c.id}/audio`), 409, 'conflict');
      expectProblem(await view(token), 404, 'not-found');
      expectProblem(await hostApprove(token), 404, 'not-found');
      expectProblem(await net.call('POST', `/networks/${net.n}/creatives/${c.id}/approve`), 409, 'conflict');
      expect(await own.sql`select 1 from creative_audio where creative_id = ${c.id}`).toHaveLength(0);
    }
    const [event] = await events(net, 'voice_consent.revoked');
    expect(event).toMatchObject({ consent_id: host.id, revoked_by: 'host', previous_status: 'granted', withdrawn_creatives: 2 });
    expect([...(event!.withdrawn_creative_ids as string[])].sort()).toEqual([approvedOne.creative.id, pendingOne.creative.id].sort());

    // A new consent: both are made again, and reviewed again.
    const again = await consent(net);
    for (const { creative: c } of [approvedOne, pendingOne]) {
      const remade = await waitForCreative(net, c.id);
      expect(remade).toMatchObject({ voice_consent_id: again.id, revision: c.revision });
      expect(await reviewToken(again.email, c.id)).toMatch(/^crl_/);
    }
  }, 300_000);
});

// Not at once with the others, and after them: it counts its refusals in its address's budget of
// failed attempts (AUTH_FAILURE_LIMIT_PER_MINUTE), which refills a token every 2 s, so its 23
// requests must not wait behind the other tests' work.
describe('the review link is single-purpose and answers 404 to anyone without it', () => {
  it('no token, a wrong one, another credential, another revision’s, an expired or withdrawn link: 404 on every operation, each a failed attempt', async () => {
    const net = await network();
    const host = await consent(net);
    const [mine, theirs] = await Promise.all([pendingCreative(net, host), pendingCreative(net, host, await net.newCampaign('Other'))]);
    const invitation = await own.call<{ token: string }>('POST', `/networks/${net.n}/invitations`, { email: hostEmail(), role: 'read_only' });
    const client = { 'x-forwarded-for': '198.51.100.23' };
    const wrong = [
      null,
      'crl_' + 'A'.repeat(40),
      mine.token.slice(0, -1),
      mine.token + 'x',
      'crl_short',
      net.admin.token,
      own.token,
      host.token,
      invitation.body.token,
    ];
    let refused = 0;
    for (const [i, token] of wrong.entries()) {
      const operations: Array<[string, string, unknown]> = [
        ['GET', '/creative-reviews/current', undefined],
        ['POST', '/creative-reviews/current/approve', undefined],
        // All four for a few: the address's budget (AUTH_FAILURE_LIMIT_PER_MINUTE, 30) must last the loop.
        ...(i < 2
          ? ([
              ['GET', '/creative-reviews/current/audio', undefined],
              ['POST', '/creative-reviews/current/request-changes', { comment: 'x' }],
            ] as Array<[string, string, unknown]>)
          : []),
      ];
      for (const [method, path, body] of operations) {
        expectProblem(await asHost(method, path, token, body, client), 404, 'not-found');
        refused++;
      }
    }
    // Each refusal counted against the address.
    const after = await asHost('GET', '/creative-reviews/current', 'crl_' + 'B'.repeat(40), undefined, client);
    expectProblem(after, 404, 'not-found');
    expect(Number(after.headers.get('ratelimit-remaining'))).toBeLessThan(30 - refused);
    // Nothing was decided; a link opens its own revision only.
    expect((await creativeRow(mine.creative.id)).status).toBe('pending_approval');
    expect((await view(theirs.token)).body.creative.id).toBe(theirs.creative.id);
    expect((await hostApprove(mine.token)).status).toBe(200);
    expect((await creativeRow(theirs.creative.id)).status).toBe('pending_approval');
    // The token is a credential for nothing else.
    expect((await own.call('GET', '/me', undefined, mine.token)).status).toBe(401);
    expect((await own.call('GET', `/networks/${net.n}/creatives`, undefined, mine.token)).status).toBe(401);
    expectProblem(await asHost('GET', '/voice-consents/current', mine.token), 404, 'not-found');

    // Past its end: 404 on every operation, whatever the state.
    await own.sql`update creatives set review_link_expires_at = now() - interval '1 second' where id = ${theirs.creative.id}`;
    expectProblem(await view(theirs.token), 404, 'not-found');
    expectProblem(await asHost('GET', '/creative-reviews/current/audio', theirs.token), 404, 'not-found');
    expectProblem(await hostApprove(theirs.token), 404, 'not-found');
    expect((await creativeRow(theirs.creative.id)).status).toBe('pending_approval');
    // An administrator still decides on the host's behalf.
    expect((await net.call('POST', `/networks/${net.n}/creatives/${theirs.creative.id}/approve`)).status).toBe(200);
  }, 240_000);
});
