import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { useOwnServer } from '@/tests/support/own-server';
import { startWorkerProcess, type ServerProcess } from '@/tests/support/server-process';
import { startSmtpReceiver } from '@/tests/support/smtp-receiver';
import { api } from '@/tests/support/api';
import { until } from '@/tests/support/until';

/**
 * Email through a real mail path: the service's SMTP_URL points at a real SMTP server on loopback
 * (tests/support/smtp-receiver.ts), which reads what goes over the wire. The service runs without
 * a worker; a worker process started here sends — so an email queued while no worker runs is
 * sent once one does (the outbox is in the database, not in a process).
 */
interface Email {
  id: string;
  to: string;
  subject: string;
  status: string;
  sent_via: string | null;
  attempts: number;
  last_error: string | null;
  text: string | null;
  html: string | null;
  link: string | null;
}

/** How the relay answers a message to these recipients: undefined accepts it. */
let relayAnswer: (recipients: string[]) => number | undefined = () => undefined;
let relay: Awaited<ReturnType<typeof startSmtpReceiver>>;
let worker: ServerProcess | undefined;
beforeAll(async () => {
  relay = await startSmtpReceiver((recipients) => relayAnswer(recipients));
});
const MAIL_FROM = 'Acme Ads <ads@acme.example>';
// Two attempts per email (the job is made with the enqueuing service's MAIL_MAX_ATTEMPTS): enough for one "try later".
const own = useOwnServer('mail', () => ({
  WORKER: 'off',
  SMTP_URL: relay.url,
  MAIL_FROM,
  PUBLIC_URL: 'https://ads.acme.example',
  MAIL_MAX_ATTEMPTS: '2',
}));
afterAll(async () => {
  await worker?.stop();
  await relay?.close();
});
const startWorker = async () => {
  worker ??= await startWorkerProcess({ DATABASE_URL: own.databaseUrl, SMTP_URL: relay.url, MAIL_FROM, PUBLIC_URL: 'https://ads.acme.example' });
};

/** A network with an administrator named Rae (she accepted an invitation); returns the network and her key. */
async function networkWithRae(name: string) {
  const network = await own.call<{ id: string }>('POST', '/networks', { name });
  const invited = await own.call<{ token: string }>('POST', `/networks/${network.body.id}/invitations`, {
    email: `rae-${network.body.id}@example.com`,
    role: 'administrator',
  });
  const accepted = await own.call<{ api_key: { token: string } }>('POST', '/invitations/accept', { name: 'Rae Admin' }, invited.body.token);
  expect(accepted.status).toBe(201);
  return { n: network.body.id, rae: accepted.body.api_key.token };
}

const email = (id: string) => own.call<Email>('GET', `/emails/${id}`);
/** Rae invites `to` to network `n`; the id of the email that carries the invitation. */
const invite = async (n: string, rae: string, to: string) =>
  (await own.call<{ email_id: string }>('POST', `/networks/${n}/invitations`, { email: to, role: 'read_only' }, rae)).body.email_id;
const settled = (id: string) =>
  until(async () => {
    const res = await email(id);
    return res.body.status === 'queued' ? undefined : res.body;
  }, 30_000);

describe('invitation email over SMTP', () => {
  it('is queued with the invitation, sent when a worker runs, and carries the accept link, the network, the role and the inviter', async () => {
    const { n, rae } = await networkWithRae('Moonlight Audio');
    const invited = await own.call<{ token: string; email_id: string }>(
      'POST',
      `/networks/${n}/invitations`,
      { email: 'Sam@Example.com', role: 'read_only', expires_in_days: 3 },
      rae,
    );
    expect(invited.status).toBe(201);
    // No worker yet: the email waits in the outbox.
    expect((await email(invited.body.email_id)).body).toMatchObject({ status: 'queued', to: 'sam@example.com', sent_via: null });

    await startWorker();
    const sent = await settled(invited.body.email_id);
    expect(sent).toMatchObject({ status: 'sent', sent_via: 'smtp', attempts: 1, last_error: null });

    const link = `https://ads.acme.example/console/invitations/accept#token=${invited.body.token}`;
    const mail = relay.received.find((m) => m.to.includes('sam@example.com'))!;
    expect(mail.from).toBe('ads@acme.example');
    expect(mail.parsed.from?.text).toBe('"Acme Ads" <ads@acme.example>');
    expect(mail.parsed.subject).toBe('Rae Admin invited you to Moonlight Audio on Ad Network Service');
    expect(mail.parsed.messageId).toBe(`<${invited.body.email_id}@acme.example>`);
    expect(mail.parsed.text).toContain('Rae Admin invited you to join the network Moonlight Audio on Ad Network Service as a read-only member.');
    expect(mail.parsed.text).toContain(link);
    expect(mail.parsed.html).toContain(`href="${link}"`);
    expect(mail.parsed.html).toContain('Moonlight Audio');
    // The one secret it carries is the link's: neither key nor anything else of the service's.
    expect(mail.raw.toString()).not.toContain(rae);
    expect(mail.raw.toString()).not.toContain(own.token);
    // What the outbox shows is what went over the wire (test mode keeps the message).
    expect(sent).toMatchObject({ to: 'sam@example.com', text: mail.parsed.text, link });

    // The link works: it is the invitation's.
    const details = await own.call<{ network: { name: string }; role: string }>('GET', '/invitations/current', undefined, invited.body.token);
    expect(details.body).toMatchObject({ network: { name: 'Moonlight Audio' }, role: 'read_only' });
  }, 120_000);

  it('retries while the relay says "try later", fails after the last attempt, and fails at once when it refuses for good', async () => {
    await startWorker();
    const { n, rae } = await networkWithRae('Retry Radio');
    let refusedOnce = false;
    relayAnswer = (recipients) => {
      if (refusedOnce || !recipients.includes('later@example.com')) return undefined;
      refusedOnce = true;
      return 451;
    };
    const sent = await settled(await invite(n, rae, 'later@example.com'));
    expect(sent).toMatchObject({ status: 'sent', sent_via: 'smtp', attempts: 2, last_error: null });
    expect(relay.received.filter((m) => m.to.includes('later@example.com'))).toHaveLength(1);

    // A relay that says "try later" every time: failed after the last attempt (MAIL_MAX_ATTEMPTS), with its answer.
    relayAnswer = (recipients) => (recipients.includes('tired@example.com') ? 451 : undefined);
    const exhausted = await settled(await invite(n, rae, 'tired@example.com'));
    expect(exhausted).toMatchObject({ status: 'failed', attempts: 2 });
    expect(exhausted.last_error).toMatch(/451/);

    relayAnswer = (recipients) => (recipients.includes('nobody@example.com') ? 550 : undefined);
    const refusedId = await invite(n, rae, 'nobody@example.com');
    const failed = await settled(refusedId);
    expect(failed).toMatchObject({ status: 'failed', attempts: 1 });
    expect(failed.last_error).toMatch(/550/);
    relayAnswer = () => undefined;

    const listed = await own.call<{ items: Email[] }>('GET', '/emails?to=nobody@example.com');
    expect(listed.body.items.map((e) => [e.id, e.status])).toEqual([[refusedId, 'failed']]);
  }, 120_000);

  it('the outbox is for super_user keys only', async () => {
    const { rae } = await networkWithRae('Private Pod');
    const res = await own.call('GET', '/emails', undefined, rae);
    expect(res.status).toBe(403);
  }, 60_000);
});

/** A service in live mode (APP_ENV=live: its secret key from the environment, SMTP required), with its worker. */
const live = useOwnServer('maillive', () => ({ APP_SECRET_KEY: 'live-mode-secret-key-for-this-test-only', SMTP_URL: relay.url, MAIL_FROM }), {
  mode: 'live',
});

describe('live mode', () => {
  it('answers an invitation without its token: the emailed link is the only copy, and it works', async () => {
    expect(live.token).toMatch(/^sk_live_/);
    const network = await live.call<{ id: string }>('POST', '/networks', { name: 'Live Waves' });
    const invited = await live.call<{ token?: string; email_id: string }>('POST', `/networks/${network.body.id}/invitations`, {
      email: 'live-invitee@example.com',
      role: 'read_only',
    });
    expect(invited.status).toBe(201);
    expect(invited.body).not.toHaveProperty('token');
    expect(invited.text).not.toMatch(/inv_[0-9A-Za-z]{40}/);

    const sent = await until(async () => {
      const res = await live.call<Email>('GET', `/emails/${invited.body.email_id}`);
      return res.body.status === 'queued' ? undefined : res.body;
    }, 30_000);
    // Sent, and then no longer kept: live mode drops the message (and its link) once it is sent.
    expect(sent).toMatchObject({ status: 'sent', sent_via: 'smtp', text: null, html: null, link: null });

    const mail = relay.received.find((m) => m.to.includes('live-invitee@example.com'))!;
    const token = /#token=(inv_[0-9A-Za-z]{40})/.exec(mail.parsed.text ?? '')![1]!;
    const accepted = await live.call<{ api_key: { token: string } }>('POST', '/invitations/accept', { name: 'Lee Live' }, token);
    expect(accepted.status).toBe(201);
    expect(accepted.body.api_key.token).toMatch(/^sk_live_/);
  }, 120_000);

  it('gives a new network a key lifetime limit of a year, so its keys end (G14)', async () => {
    const network = await live.call<{ id: string; max_key_lifetime_days: number | null }>('POST', '/networks', { name: 'Live Limits' });
    expect(network.body.max_key_lifetime_days).toBe(365);
    const unlimited = await live.call<{ max_key_lifetime_days: number | null }>('POST', '/networks', {
      name: 'Live Forever',
      max_key_lifetime_days: null,
    });
    expect(unlimited.body.max_key_lifetime_days).toBeNull();
  });
});

describe('the development mailbox (no SMTP_URL, test mode)', () => {
  it('keeps the email, readable with its link, and names it in one log line with its subject and where to read it, not its link', async () => {
    // The shared service has no SMTP_URL.
    const network = await api<{ id: string }>('POST', '/networks', { body: { name: 'Mailbox FM' } });
    const invited = await api<{ token: string; email_id: string }>('POST', `/networks/${network.body.id}/invitations`, {
      body: { email: 'dev@example.com', role: 'read_only' },
    });
    const kept = await until(async () => {
      const res = await api<Email>('GET', `/emails/${invited.body.email_id}`);
      return res.body.status === 'sent' ? res.body : undefined;
    }, 30_000);
    expect(kept).toMatchObject({ sent_via: 'mailbox', to: 'dev@example.com', subject: expect.stringContaining('Mailbox FM') });
    expect(kept.link).toMatch(new RegExp(`/console/invitations/accept#token=${invited.body.token}$`));
    expect(kept.text).toContain(kept.link);
    const line = await until(() =>
      readFileSync(inject('serverLogFile'), 'utf8')
        .split('\n')
        .find((l) => l.includes(invited.body.email_id)),
    );
    expect(JSON.parse(line)).toMatchObject({
      msg: expect.stringContaining('development mailbox'),
      subject: kept.subject,
      read: expect.stringMatching(new RegExp(`/console/outbox\\?email=${kept.id}$`)),
    });
    expect(line).not.toContain(invited.body.token);
  }, 60_000);
});
