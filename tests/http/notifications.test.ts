import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useOwnServer } from '@/tests/support/own-server';
import { startFakeVoiceVendor } from '@/tests/support/fake-voice-vendor';
import { adInventoryOverHttp, grantVoiceConsentOverHttp } from '@/tests/support/api';
import { startSmtpReceiver, type ReceivedMail } from '@/tests/support/smtp-receiver';
import { until } from '@/tests/support/until';

/**
 * Notification emails over the real mail path: the service (with its worker) mails administrators
 * and key owners through a real SMTP server on loopback, and each test reads what went over the
 * wire. The crons are run when a test says so, through graphile-worker's public `add_job`; time is
 * moved by changing the rows that say when something happened.
 */
let relay: Awaited<ReturnType<typeof startSmtpReceiver>>;
let vendor: Awaited<ReturnType<typeof startFakeVoiceVendor>>;
beforeAll(async () => {
  relay = await startSmtpReceiver();
  vendor = await startFakeVoiceVendor();
});
const own = useOwnServer('notifications', () => ({
  SMTP_URL: relay.url,
  PUBLIC_URL: 'https://ads.acme.example',
  WEBHOOK_ALLOW_PRIVATE: '1',
  SYNTH_PROVIDER: 'http',
  SYNTH_TEST_NETWORKS: 'provider', // every network is a test network under APP_ENV=test
  SYNTH_BASE_URL: vendor.url,
  SYNTH_API_KEY: 'vendor-secret',
  SYNTH_MAX_RETRIES: '0',
  SYNTH_JOB_MAX_ATTEMPTS: '1',
}));
afterAll(async () => {
  await vendor?.close();
  await relay?.close();
});

/** A new network and a person who administers it (invited by the operator), with their own key. */
async function administeredNetwork(email: string) {
  const network = await own.call<{ id: string }>('POST', '/networks', { name: `Network of ${email}` });
  return { n: network.body.id, ...(await join(network.body.id, email, 'administrator')) };
}

/** `email` invited to `n` (by `inviter`'s key, else the operator's) and accepted: their key and id. */
async function join(n: string, email: string, role: 'administrator' | 'read_only', inviter: string = own.token) {
  const invited = await own.call<{ token: string }>('POST', `/networks/${n}/invitations`, { email, role }, inviter);
  expect(invited.status).toBe(201);
  const accepted = await own.call<{ api_key: { token: string }; member: { id: string; user: { id: string } } }>(
    'POST',
    '/invitations/accept',
    { name: email.split('@')[0] },
    invited.body.token,
  );
  expect(accepted.status).toBe(201);
  return { key: accepted.body.api_key.token, personId: accepted.body.member.user.id, memberId: accepted.body.member.id };
}

const mailTo = (to: string, subject: RegExp): ReceivedMail[] =>
  relay.received.filter((m) => m.to.includes(to) && subject.test(m.parsed.subject ?? ''));
const arrives = (to: string, subject: RegExp) => until(() => mailTo(to, subject)[0], 30_000);

/** Runs a cron task now and waits until it and the emails it queued are done. */
async function runTask(task: string) {
  await own.sql`select graphile_worker.add_job(${task}, '{}'::json)`;
  await until(async () => {
    const [row] = await own.sql<Array<{ waiting: number }>>`
      select count(*)::int as waiting from graphile_worker.jobs where task_identifier in (${task}, 'send-email')`;
    return row!.waiting === 0 || undefined;
  }, 30_000);
}

/** Every send-email job has run. */
const mailSettled = () => runTask('prune-idempotency-keys');

/** A subscription of `n` whose only delivery failed 6 days ago: the next auto-disable run disables it. */
async function failingWebhook(n: string) {
  const hook = await own.call<{ id: string }>('POST', `/networks/${n}/webhooks`, { url: 'http://127.0.0.1:9/hooks', events: ['offer.accepted'] });
  expect(hook.status).toBe(201);
  const eventId = `evt_notice${Math.random().toString(36).slice(2, 10)}`;
  await own.sql`insert into events (id, network_id, type, data) values (${eventId}, ${n}, 'offer.accepted', '{}')`;
  await own.sql`insert into webhook_deliveries (id, network_id, webhook_id, event_id, event_type, body, status, created_at)
            values (gen_random_uuid(), ${n}, ${hook.body.id}, ${eventId}, 'offer.accepted', '{}', 'failed', now() - interval '6 days')`;
  return hook.body.id;
}

describe('notification emails', () => {
  it('tells each administrator that a webhook was disabled, once a day, with a one-click List-Unsubscribe that works', async () => {
    const ann = await administeredNetwork('ann@notices.example');
    const bob = await join(ann.n, 'bob@notices.example', 'administrator');
    await join(ann.n, 'rita@notices.example', 'read_only');
    const hookId = await failingWebhook(ann.n);

    await runTask('auto-disable-webhooks');
    const mail = await arrives('ann@notices.example', /A webhook of Network of ann@notices\.example was disabled/);
    await arrives('bob@notices.example', /was disabled/);
    expect(mailTo('rita@notices.example', /was disabled/)).toEqual([]); // read-only members are not told
    expect(mail.parsed.text).toContain('http://127.0.0.1:9/hooks');
    expect(mail.parsed.text).toMatch(/Every delivery failed for \d+ days/);
    expect(mail.parsed.html).toContain(`href="https://ads.acme.example/console/n/${ann.n}/webhooks/${hookId}"`);
    expect(mail.parsed.text).toMatch(/You get this because you administer/);

    // RFC 8058: List-Unsubscribe with an https URL, and List-Unsubscribe-Post.
    const headers = mail.raw
      .toString('utf8')
      .split('\r\n\r\n')[0]!
      .replace(/\r\n\s+/g, ' ');
    expect(headers).toMatch(/^List-Unsubscribe-Post: List-Unsubscribe=One-Click$/m);
    const listUnsubscribe = /^List-Unsubscribe: <(https:\/\/ads\.acme\.example\/v1\/notifications\/unsubscribe\?token=[^>\s]+)>$/m.exec(headers)![1]!;
    // The footer's page carries the same token, in its fragment.
    const token = new URL(listUnsubscribe).searchParams.get('token')!;
    expect(mail.parsed.html).toContain(`https://ads.acme.example/console/notifications/unsubscribe#token=${token}`);

    // Enabled again and disabled again the same day: no second email.
    const hook = await own.call<{ version: number }>('GET', `/networks/${ann.n}/webhooks/${hookId}`);
    expect((await own.call('PATCH', `/networks/${ann.n}/webhooks/${hookId}`, { status: 'active', version: hook.body.version })).status).toBe(200);
    await runTask('auto-disable-webhooks');
    expect((await own.call<{ status: string }>('GET', `/networks/${ann.n}/webhooks/${hookId}`)).body.status).toBe('disabled');
    expect(mailTo('ann@notices.example', /was disabled/)).toHaveLength(1);

    // A mail client's one-click POST: a form, no key, the token in the URL.
    const oneClick = await fetch(listUnsubscribe.replace('https://ads.acme.example', own.server.url), {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(oneClick.status).toBe(200);
    expect(await oneClick.json()).toEqual({ kind: 'webhook_disabled', enabled: false });
    // A valid link spends its person's budget (RATE_LIMIT_OWNER_BURST, 400 by default), as their keys do.
    expect(oneClick.headers.get('ratelimit-limit')).toBe('400');
    const again = await own.call('POST', '/notifications/unsubscribe', { token }, null);
    expect(again.status).toBe(200); // the same change again
    expect(again.headers.get('ratelimit-limit')).toBe('400');
    const settings = await own.call<Record<string, boolean>>('GET', '/me/notifications', undefined, ann.key);
    expect(settings.body).toEqual({ webhook_disabled: false, key_expiring: true, creative_failed: true, invitation_accepted: true });

    // Ann is not told of the next one; Bob is.
    await failingWebhook(ann.n);
    await runTask('auto-disable-webhooks');
    await until(() => mailTo('bob@notices.example', /was disabled/)[1], 30_000);
    expect(mailTo('ann@notices.example', /was disabled/)).toHaveLength(1);
    void bob;
  }, 120_000);

  it('refuses a token it did not sign, and a form that is not the one-click form', async () => {
    const ann = await administeredNetwork('forger@notices.example');
    const forged = `${ann.personId}.webhook_disabled.${'A'.repeat(43)}`;
    const refused = await own.call<{ status: number; detail: string }>('POST', '/notifications/unsubscribe', { token: forged }, null);
    expect(refused.status).toBe(401);
    expect(refused.body.detail).toMatch(/not valid/);
    const form = await fetch(`${own.server.url}/v1/notifications/unsubscribe?token=${forged}`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'unsubscribe=yes',
    });
    expect(form.status).toBe(415);
    // Elsewhere the one-click form is just a body that is not JSON.
    const elsewhere = await fetch(`${own.server.url}/v1/networks?name=x`, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', authorization: `Bearer ${own.token}` },
      body: 'List-Unsubscribe=One-Click',
    });
    expect(elsewhere.status).toBe(415);
  });

  it('lets a person turn kinds off and on with their own key, not with a key minted for them', async () => {
    const ann = await administeredNetwork('settings@notices.example');
    const off = await own.call<Record<string, boolean>>('PATCH', '/me/notifications', { creative_failed: false, key_expiring: false }, ann.key);
    expect(off.status).toBe(200);
    expect(off.body).toEqual({ webhook_disabled: true, key_expiring: false, creative_failed: false, invitation_accepted: true });
    const on = await own.call<Record<string, boolean>>('PATCH', '/me/notifications', { key_expiring: true }, ann.key);
    expect(on.body).toMatchObject({ key_expiring: true, creative_failed: false });
    expect((await own.call('PATCH', '/me/notifications', { creative_failed: 'no' }, ann.key)).status).toBe(400);
    expect((await own.call('PATCH', '/me/notifications', { weekly_digest: false }, ann.key)).status).toBe(400);

    // A key an administrator minted for Ann does not speak for her.
    const minted = await own.call<{ token: string }>('POST', `/networks/${ann.n}/members/${ann.memberId}/keys`, { key_name: 'minted for ann' });
    expect(minted.status).toBe(201);
    expect((await own.call('GET', '/me/notifications', undefined, minted.body.token)).status).toBe(403);
    expect((await own.call('PATCH', '/me/notifications', { creative_failed: true }, minted.body.token)).status).toBe(403);
  });

  it('tells the owner and the administrators of a key that expires within 7 days, and again when it has expired', async () => {
    const ann = await administeredNetwork('keys@notices.example');
    const sam = await join(ann.n, 'sam@notices.example', 'read_only');
    const expiresAt = new Date(Date.now() + 3 * 86_400_000).toISOString();
    const key = await own.call<{ id: string; start: string }>(
      'POST',
      '/apikeys',
      { key_name: 'Sam’s CI', scopes: [{ network_id: ann.n, role: 'read_only' }], expires_at: expiresAt },
      sam.key,
    );
    expect(key.status).toBe(201);

    await runTask('notice-expiring-keys');
    const toSam = await arrives('sam@notices.example', /The API key “Sam’s CI” expires on/);
    await arrives('keys@notices.example', /The API key “Sam’s CI” expires on/);
    expect(toSam.parsed.text).toContain(`It works on Network of keys@notices.example`);
    expect(toSam.parsed.html).toContain(`https://ads.acme.example/console/n/${ann.n}/my-keys`);
    expect(mailTo('keys@notices.example', /Sam’s CI/)[0]!.parsed.html).toContain(`https://ads.acme.example/console/n/${ann.n}/api-keys`);
    await runTask('notice-expiring-keys');
    expect(mailTo('sam@notices.example', /Sam’s CI/)).toHaveLength(1);

    // It expires; a day has passed since the first notice.
    await own.sql`update api_keys set expires_at = now() - interval '1 hour' where id = ${key.body.id}`;
    await runTask('notice-expiring-keys');
    await mailSettled();
    expect(mailTo('sam@notices.example', /Sam’s CI/)).toHaveLength(1); // the same day: one of a kind
    await own.sql`update notifications_sent set day = day - 1 where subject_id = ${key.body.id}`;
    await runTask('notice-expiring-keys');
    await arrives('sam@notices.example', /The API key “Sam’s CI” has expired/);
    await runTask('notice-expiring-keys');
    expect(mailTo('sam@notices.example', /Sam’s CI/)).toHaveLength(2);

    // Session keys (12 hours) and revoked keys are not worth an email.
    const soon = new Date(Date.now() + 86_400_000).toISOString();
    const revoked = await own.call<{ id: string }>(
      'POST',
      '/apikeys',
      { key_name: 'Revoked soon', scopes: [{ network_id: ann.n, role: 'read_only' }], expires_at: soon },
      sam.key,
    );
    expect((await own.call('DELETE', `/apikeys/${revoked.body.id}`, undefined, sam.key)).status).toBe(200);
    await runTask('notice-expiring-keys');
    await mailSettled();
    expect(mailTo('sam@notices.example', /Revoked soon/)).toEqual([]);
  }, 120_000);

  it('tells administrators that a creative failed, and an inviter that their invitation was accepted', async () => {
    const ann = await administeredNetwork('creative@notices.example');
    vendor.setMode('reject');
    const call = <T>(method: string, path: string, body?: unknown) => own.call<T>(method, path, body);
    const { campaignId, podcastId } = await adInventoryOverHttp(call, ann.n, 'Acme makes mornings better.');
    await grantVoiceConsentOverHttp(call, ann.n, podcastId, { baseUrl: own.server.url }); // the host's voice: synthesis is tried (and fails)
    const offer = await own.call<{ id: string }>('POST', `/networks/${ann.n}/offers`, { campaign_id: campaignId, podcast_id: podcastId });
    expect((await own.call('POST', `/networks/${ann.n}/offers/${offer.body.id}/accept`)).status).toBe(200);
    const failed = await arrives('creative@notices.example', /A creative of Network of creative@notices\.example failed/);
    expect(failed.parsed.text).toMatch(/could not be made: .*voice service/i);
    vendor.setMode('ok');

    // Ann invites Joe with her own key; Joe accepts: Ann is told.
    await join(ann.n, 'joe@notices.example', 'read_only', ann.key);
    const accepted = await arrives('creative@notices.example', /joe@notices\.example joined Network of creative@notices\.example/);
    expect(accepted.parsed.text).toContain('as a read-only member');
    // With the kind turned off, the next acceptance is not mailed.
    expect((await own.call('PATCH', '/me/notifications', { invitation_accepted: false }, ann.key)).status).toBe(200);
    await join(ann.n, 'kim@notices.example', 'read_only', ann.key);
    await mailSettled();
    expect(mailTo('creative@notices.example', /joined/)).toHaveLength(1);
  }, 120_000);
});
