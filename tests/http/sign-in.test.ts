import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { useOwnServer } from '@/tests/support/own-server';
import { softAuthenticator } from '@/tests/support/soft-authenticator';
import { startSmtpReceiver } from '@/tests/support/smtp-receiver';
import { until } from '@/tests/support/until';

/**
 * Signing in as a person, over the real mail path: the service (with its worker) mails sign-in
 * links to a real SMTP server on loopback (tests/support/smtp-receiver.ts); each test reads the
 * link from what went over the wire and follows it as the console does. The service believes
 * X-Forwarded-For from loopback, so each test asks from a client address of its own and the
 * per-address limit (3 an hour here) is the test's to spend.
 */
let relay: Awaited<ReturnType<typeof startSmtpReceiver>>;
beforeAll(async () => {
  relay = await startSmtpReceiver();
});
const own = useOwnServer('sign-in', () => ({
  SMTP_URL: relay.url,
  PUBLIC_URL: 'https://ads.acme.example',
  SIGN_IN_REQUESTS_PER_HOUR: '3',
  TRUSTED_PROXIES: 'loopback',
}));
afterAll(async () => {
  await relay?.close();
});

interface Session {
  person: { id: string; name: string; email: string };
  api_key: { id: string; token: string; session: boolean; scopes: Array<{ network_id: string; role: string }>; expires_at: string };
}

let clients = 0;
/** A client address of the test's own (X-Forwarded-For, believed from loopback). */
const newClient = () => `198.51.100.${++clients}`;

async function askForLink(email: string, client = newClient()) {
  const res = await fetch(`${own.server.url}/v1/sign-in/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': client },
    body: JSON.stringify({ email }),
  });
  return { status: res.status, headers: res.headers, body: (await res.json()) as Record<string, unknown> };
}

/** The sign-in links mailed to `to` so far, newest last. */
const linksTo = (to: string) =>
  relay.received
    .filter((mail) => mail.to.includes(to) && mail.parsed.subject?.startsWith('Your sign-in link'))
    .map((mail) => /https:\/\/ads\.acme\.example\/console\/sign-in\/email#token=(sil_\w+)/.exec(mail.parsed.text ?? '')![1]!);

/** Asks for a link for `email` and waits for it to arrive; returns its token. */
async function mailedLink(email: string): Promise<string> {
  const before = linksTo(email).length;
  expect((await askForLink(email)).status).toBe(202);
  return until(() => linksTo(email)[before], 30_000);
}

const signIn = (linkToken: string) => own.call<Session>('POST', '/sign-in', undefined, linkToken);

/** A person, new to the service, made a member of a new network by accepting its invitation (test mode: the answer has the token). */
async function member(email: string, role: 'administrator' | 'read_only', name = 'Sam Rivera') {
  const network = await own.call<{ id: string }>('POST', '/networks', { name: `Network of ${email}` });
  const invited = await own.call<{ token: string }>('POST', `/networks/${network.body.id}/invitations`, { email, role });
  const accepted = await own.call<{ api_key: { token: string }; member: { user: { id: string } } }>(
    'POST',
    '/invitations/accept',
    { name },
    invited.body.token,
  );
  expect(accepted.status).toBe(201);
  return { n: network.body.id, key: accepted.body.api_key.token, personId: accepted.body.member.user.id };
}

/** Every request-sign-in job has run (graphile-worker's public `jobs` view). */
const requestsHandled = () =>
  until(async () => {
    const [row] = await own.sql<
      Array<{ waiting: number }>
    >`select count(*)::int as waiting from graphile_worker.jobs where task_identifier = 'request-sign-in'`;
    return row!.waiting === 0 || undefined;
  }, 30_000);

describe('email sign-in', () => {
  it('mails a one-time link to a known address; following it gives a session key over every membership, once', async () => {
    const email = 'sam@sign-in.example';
    const first = await member(email, 'administrator');
    // A second network, joined with Sam's own key.
    const second = await own.call<{ id: string }>('POST', '/networks', { name: 'Second Sign-in Network' });
    const invited = await own.call<{ token: string }>('POST', `/networks/${second.body.id}/invitations`, { email, role: 'read_only' });
    expect((await own.call('POST', '/invitations/accept', { invitation_token: invited.body.token }, first.key)).status).toBe(201);

    const asked = await askForLink('  Sam@Sign-In.example ');
    expect(asked.status).toBe(202);
    expect(asked.body).toEqual({ email, link_expires_in_seconds: 900 });
    const link = await until(() => linksTo(email)[0], 30_000);
    const mail = relay.received.find((m) => m.to.includes(email) && m.parsed.subject === 'Your sign-in link for Ad Network Service')!;
    expect(mail.parsed.text).toContain('Hello Sam Rivera');
    expect(mail.parsed.html).toContain(`href="https://ads.acme.example/console/sign-in/email#token=${link}"`);

    const before = Date.now();
    const session = await signIn(link);
    expect(session.status).toBe(201);
    expect(session.body.person).toEqual({ id: first.personId, name: 'Sam Rivera', email });
    expect(session.body.api_key).toMatchObject({ session: true, key_name: 'Console session', owner: { type: 'person', id: first.personId } });
    expect(session.body.api_key.scopes).toEqual(
      [
        { network_id: first.n, role: 'administrator' },
        { network_id: second.body.id, role: 'read_only' },
      ].sort((a, b) => a.network_id.localeCompare(b.network_id)),
    );
    // 12 hours (SESSION_LIFETIME_HOURS' default and most).
    const lifetime = Date.parse(session.body.api_key.expires_at) - before;
    expect(lifetime).toBeGreaterThan(12 * 3_600_000 - 60_000);
    expect(lifetime).toBeLessThanOrEqual(12 * 3_600_000 + 5_000);

    const me = await own.call<{ session: boolean; expires_at: string; owner: { id: string } }>('GET', '/me', undefined, session.body.api_key.token);
    expect(me.body).toMatchObject({ session: true, expires_at: session.body.api_key.expires_at, owner: { id: first.personId } });
    // A session's key works like any key of the person: it writes where they administer.
    expect((await own.call('POST', `/networks/${first.n}/advertisers`, { name: 'Session Advertiser' }, session.body.api_key.token)).status).toBe(201);
    expect((await own.call('POST', `/networks/${second.body.id}/advertisers`, { name: 'Nope' }, session.body.api_key.token)).status).toBe(403);

    // Once.
    const again = await signIn(link);
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ detail: expect.stringMatching(/already been used/) });
    // A session is not rotated: it ends.
    const rotated = await own.call('POST', `/apikeys/${session.body.api_key.id}/rotate`, {}, session.body.api_key.token);
    expect(rotated.status).toBe(409);
  }, 120_000);

  it('answers the same for an address nobody has, and mails nothing', async () => {
    const unknown = await askForLink('nobody@sign-in.example');
    await member('known@sign-in.example', 'read_only');
    const known = await askForLink('known@sign-in.example');
    expect(unknown.status).toBe(known.status);
    expect(Object.keys(unknown.body)).toEqual(Object.keys(known.body));
    await until(() => linksTo('known@sign-in.example')[0], 30_000);
    await requestsHandled();
    expect(relay.received.filter((m) => m.to.includes('nobody@sign-in.example'))).toEqual([]);
    expect((await own.call<{ items: unknown[] }>('GET', '/emails?to=nobody@sign-in.example')).body.items).toEqual([]);
  }, 120_000);

  it('refuses an unknown or malformed link token (401), and an expired link (409)', async () => {
    expect((await signIn(`sil_${'x'.repeat(40)}`)).status).toBe(401);
    expect((await signIn('sil_short')).status).toBe(401);
    expect((await own.call('POST', '/sign-in', undefined, null)).status).toBe(401);
    const email = 'late@sign-in.example';
    await member(email, 'read_only');
    const link = await mailedLink(email);
    // Sixteen minutes later (the link works for 15).
    await own.sql`update sign_in_links set expires_at = now() - interval '1 minute', created_at = created_at - interval '16 minutes' where user_id = (select id from users where email = ${email})`;
    const late = await signIn(link);
    expect(late.status).toBe(409);
    expect(late.body).toMatchObject({ detail: expect.stringMatching(/expired/) });
  }, 120_000);

  it('signing out ends the session at once; its invitations stay good, a revoked session’s do not', async () => {
    const email = 'rae@sign-in.example';
    const { n } = await member(email, 'administrator', 'Rae Admin');
    const session = (await signIn(await mailedLink(email))).body.api_key.token;
    const sent = await own.call<{ token: string }>(
      'POST',
      `/networks/${n}/invitations`,
      { email: 'kept@sign-in.example', role: 'read_only' },
      session,
    );
    expect(sent.status).toBe(201);

    const out = await own.call('POST', '/sign-out', {}, session);
    expect(out.status).toBe(200);
    expect(out.body).toMatchObject({ signed_out: true });
    expect((await own.call('GET', '/me', undefined, session)).status).toBe(401);
    // Rae still administers the network: what her session sent is still hers to have sent.
    expect((await own.call('POST', '/invitations/accept', { name: 'Kept' }, sent.body.token)).status).toBe(201);

    // A session revoked (say, it leaked) takes its invitations with it.
    const leaked = await own.call<Session>('POST', '/sign-in', undefined, await mailedLink(email));
    const token = leaked.body.api_key.token;
    const risky = await own.call<{ token: string }>(
      'POST',
      `/networks/${n}/invitations`,
      { email: 'risky@sign-in.example', role: 'administrator' },
      token,
    );
    expect((await own.call('DELETE', `/apikeys/${leaked.body.api_key.id}`, undefined, token)).status).toBe(200);
    expect((await own.call('POST', '/invitations/accept', {}, risky.body.token)).status).toBe(409);

    // Only a session signs out: another key is revoked instead.
    const plain = await own.call('POST', '/sign-out', {}, own.token);
    expect(plain.status).toBe(400);
    expect(plain.body).toMatchObject({ detail: expect.stringMatching(/DELETE \/v1\/apikeys/) });
  }, 120_000);

  it('the first sign-in proves the address: keys made before it no longer prove who the person is', async () => {
    const email = 'proof@sign-in.example';
    const { key } = await member(email, 'read_only');
    const other = await own.call<{ id: string }>('POST', '/networks', { name: 'Proof Network' });
    const invite = async () =>
      (await own.call<{ token: string }>('POST', `/networks/${other.body.id}/invitations`, { email, role: 'read_only' })).body.token;

    const first = await invite();
    const session = (await signIn(await mailedLink(email))).body.api_key.token;
    // The key from test mode's accept (the inviter could have accepted it) keeps its access…
    expect((await own.call('GET', '/me', undefined, key)).status).toBe(200);
    // …but accepts nothing for the person any more; the session, from the mailbox, does.
    const refused = await own.call('POST', '/invitations/accept', { invitation_token: first }, key);
    expect(refused.status).toBe(403);
    expect(refused.body).toMatchObject({ detail: expect.stringMatching(/does not prove who you are/) });
    expect((await own.call('POST', '/invitations/accept', { invitation_token: first }, session)).status).toBe(201);
    // The person is told which earlier keys still work, so they can revoke one they do not know.
    const told = await until(
      () => relay.received.find((m) => m.to.includes(email) && /made before you signed in/.test(m.parsed.subject ?? '')),
      30_000,
    );
    expect(told.parsed.text).toMatch(/One API key of your account was made before/);
    expect(told.parsed.text).toContain(`“first key” (${key.slice(0, 12)}…)`);
  }, 120_000);

  it('limits links per client address and per email address (429 with Retry-After)', async () => {
    const client = newClient();
    for (const who of ['a', 'b', 'c']) expect((await askForLink(`${who}@limits.example`, client)).status).toBe(202);
    const refused = await askForLink('d@limits.example', client);
    expect(refused.status).toBe(429);
    expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);

    for (let i = 0; i < 3; i++) expect((await askForLink('target@limits.example')).status).toBe(202);
    expect((await askForLink('target@limits.example')).status).toBe(429);
    // A malformed address is a 400, after the client's bucket is spent.
    expect((await askForLink('not-an-address')).status).toBe(400);
  }, 60_000);
});

/**
 * Passkeys, with an authenticator in software (tests/support/soft-authenticator.ts) standing for
 * the person's device and browser at the service's origin (PUBLIC_URL).
 */
describe('passkeys', () => {
  const origin = 'https://ads.acme.example';

  /** A request as a browser at a client address of its own. */
  async function send<T = Record<string, unknown>>(method: string, path: string, body: unknown, token: string | null, client = newClient()) {
    const res = await fetch(`${own.server.url}/v1${path}`, {
      method,
      headers: {
        'x-forwarded-for': client,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: res.status, headers: res.headers, body: (await res.json()) as T & { detail?: string } };
  }

  interface Options {
    challenge_id: string;
    options: { challenge: string; rpId: string; rp: { id: string }; user: { id: string } };
  }
  interface Passkey {
    id: string;
    name: string;
    last_used_at: string | null;
  }

  /** A person signed in by email, with a passkey `authenticator` made and registered. */
  async function withPasskey(email: string, authenticator = softAuthenticator(origin)) {
    const person = await member(email, 'administrator', 'Pat Key');
    const session = (await signIn(await mailedLink(email))).body.api_key.token;
    const options = await send<Options>('POST', '/me/passkeys/options', {}, session);
    expect(options.status).toBe(200);
    expect(options.body.options.rp.id).toBe('ads.acme.example');
    const response = authenticator.create(options.body.options);
    const added = await send<Passkey>('POST', '/me/passkeys', { challenge_id: options.body.challenge_id, name: 'Work laptop', response }, session);
    expect(added.status).toBe(201);
    return { ...person, session, authenticator, passkey: added.body, registration: { challenge_id: options.body.challenge_id, response } };
  }

  async function signInWith(authenticator: ReturnType<typeof softAuthenticator>, client = newClient(), clientOrigin = origin) {
    const options = await send<Options>('POST', '/sign-in/passkey/options', {}, null, client);
    expect(options.status).toBe(200);
    const response = authenticator.get({ challenge: options.body.options.challenge, rpId: options.body.options.rpId }, undefined, clientOrigin);
    const sent = { challenge_id: options.body.challenge_id, response };
    return { ...(await send<Session>('POST', '/sign-in/passkey', sent, null, client)), sent };
  }

  it('a session adds a passkey; it signs the person in as an emailed link does, each challenge once', async () => {
    const { n, personId, session, authenticator, passkey, registration } = await withPasskey('pat@passkey.example');
    expect(passkey).toMatchObject({ id: expect.stringMatching(/^pky_/), name: 'Work laptop', last_used_at: null });
    // The registration's challenge is used up.
    const twice = await send('POST', '/me/passkeys', { ...registration, name: 'Again' }, session);
    expect(twice.status).toBe(409);

    const signedIn = await signInWith(authenticator);
    expect(signedIn.status).toBe(201);
    expect(signedIn.body.person).toEqual({ id: personId, name: 'Pat Key', email: 'pat@passkey.example' });
    expect(signedIn.body.api_key).toMatchObject({ session: true, scopes: [{ network_id: n, role: 'administrator' }] });
    const me = await send<{ session: boolean; owner: { id: string } }>('GET', '/me', undefined, signedIn.body.api_key.token);
    expect(me.body).toMatchObject({ session: true, owner: { id: personId } });

    // A replayed signature finds its challenge used.
    const replayed = await send('POST', '/sign-in/passkey', signedIn.sent, null);
    expect(replayed.status).toBe(409);
    const listed = await send<{ items: Passkey[]; next_cursor: null }>('GET', '/me/passkeys', undefined, session);
    expect(listed.body.items).toEqual([expect.objectContaining({ id: passkey.id, last_used_at: expect.any(String) })]);

    // The person is told by email, in case it was not them.
    const notice = await until(
      () => relay.received.find((m) => m.to.includes('pat@passkey.example') && m.parsed.subject?.startsWith('A passkey was added')),
      30_000,
    );
    expect(notice.parsed.text).toContain('a passkey named “Work laptop” was added to your account');
    expect(notice.parsed.text).toContain('https://ads.acme.example/console');
  }, 120_000);

  it('a session adds a passkey only within 15 minutes of signing in: a leaked session key cannot make a lasting way in', async () => {
    const email = 'stale@passkey.example';
    await member(email, 'administrator');
    const session = (await signIn(await mailedLink(email))).body.api_key;
    const options = await send<Options>('POST', '/me/passkeys/options', {}, session.token);
    expect(options.status).toBe(200);
    // Sixteen minutes on, the same session's registration is refused, and so are new options.
    await own.sql`update api_keys set created_at = created_at - interval '16 minutes' where id = ${session.id}`;
    const response = softAuthenticator(origin).create(options.body.options);
    const late = await send('POST', '/me/passkeys', { challenge_id: options.body.challenge_id, name: 'Late', response }, session.token);
    expect(late.status).toBe(403);
    expect(late.body.detail).toMatch(/within 15 minutes of signing in/);
    expect((await send('POST', '/me/passkeys/options', {}, session.token)).status).toBe(403);
    expect((await send<{ items: Passkey[] }>('GET', '/me/passkeys', undefined, session.token)).body.items).toEqual([]);
  }, 120_000);

  it('only a console session manages passkeys: a pasted key of the person, or the operator’s, gets 403', async () => {
    const { key } = await member('paste@passkey.example', 'administrator');
    for (const token of [key, own.token]) {
      const refused = await send('POST', '/me/passkeys/options', {}, token);
      expect(refused.status).toBe(403);
      expect(refused.body.detail).toMatch(/console session/);
      expect((await send('GET', '/me/passkeys', undefined, token)).status).toBe(403);
    }
  }, 60_000);

  it('refuses another origin’s signature, an unknown passkey and a removed one (401, failed attempts)', async () => {
    const { session, authenticator, passkey } = await withPasskey('rem@passkey.example');
    const client = newClient();
    const phished = await signInWith(authenticator, client, 'https://ads.acme.example.evil.test');
    expect(phished.status).toBe(401);
    const stranger = softAuthenticator(origin);
    stranger.create({ challenge: 'AAAA', rp: { id: 'ads.acme.example' }, user: { id: 'dXNy' } });
    const unknown = await signInWith(stranger, client);
    expect(unknown.status).toBe(401);
    // Each counted against the address's failed-authentication budget.
    expect(Number(unknown.headers.get('ratelimit-remaining'))).toBeLessThan(Number(phished.headers.get('ratelimit-remaining')));

    // Another person cannot remove it; its owner can, and then it signs nobody in.
    const other = await withPasskey('other@passkey.example');
    expect((await send('DELETE', `/me/passkeys/${passkey.id}`, undefined, other.session)).status).toBe(404);
    expect((await send('DELETE', `/me/passkeys/${passkey.id}`, undefined, session)).status).toBe(200);
    expect((await send<{ items: Passkey[] }>('GET', '/me/passkeys', undefined, session)).body.items).toEqual([]);
    expect((await signInWith(authenticator)).status).toBe(401);
  }, 120_000);
});
