/**
 * Signing in as a person, raced through two web processes on one database (tests/support/web-pair.ts):
 *
 * - a passkey sign-in ∥ the removal of that passkey, 20 trials: no session signed in with it is
 *   committed after the removal has answered, the sign-in answers 201 or 401 and the removal 200,
 *   never a 5xx (a deadlock between the sign-in's locks and the removal's would be one);
 * - two sign-ins with one emailed link through both processes, 10 trials: exactly one session.
 *
 * "Committed after the answer" is Postgres's own order (`commitsSoFar` / `committedAfter`), as in
 * credential-races.test.ts. No timing is asserted.
 */
import { describe, expect, it } from 'vitest';
import { api, type ApiResponse } from '@/tests/support/api';
import { reportReliability } from '@/tests/support/reliability';
import { softAuthenticator } from '@/tests/support/soft-authenticator';
import { until } from '@/tests/support/until';
import { commitsSoFar, committedAfter, inEnvelope, useWebPair } from '@/tests/support/web-pair';

const PASSKEY_TRIALS = 20;
const LINK_TRIALS = 10;
/** How much later (ms) the removal is sent than the sign-in, trial by trial (negative: earlier). */
const REMOVAL_OFFSETS_MS = [0, 2, 4, 6, 8, 10, 13, 16];

type Side = 0 | 1;
type Answer = ApiResponse<Record<string, unknown>>;

const pair = useWebPair('sign-in-races');
const problems: string[] = [];

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function call(side: Side, method: string, path: string, token: string | null, body?: unknown): Promise<Answer> {
  const answer = await api<Record<string, unknown>>(method, path, { token, body, baseUrl: pair.urls[side] });
  const what = `${method} ${path} through process ${side + 1} → ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status >= 500) problems.push(`5xx: ${what}`);
  if (answer.status >= 400 && !inEnvelope(answer)) problems.push(`outside the envelope: ${what}`);
  return answer;
}

function expectStatus(answer: Answer, status: number, what: string): Record<string, unknown> {
  expect(answer.status, `${what}: ${answer.text.slice(0, 300)}`).toBe(status);
  return answer.body;
}

/** A new person, a member of a new network (an invitation accepted): their id and address. */
async function newPerson(label: string) {
  const network = expectStatus(await call(0, 'POST', '/networks', pair.superToken, { name: `sign-in races: ${label}` }), 201, 'a network');
  const email = `${label}-${Math.random().toString(36).slice(2, 10)}@races.example`;
  const invited = expectStatus(
    await call(1, 'POST', `/networks/${network.id}/invitations`, pair.superToken, { email, role: 'read_only' }),
    201,
    'inviting',
  );
  const accepted = expectStatus(await call(0, 'POST', '/invitations/accept', invited.token as string, { name: label }), 201, 'accepting');
  return { email, personId: (accepted.member as { user: { id: string } }).user.id };
}

/** Asks for a sign-in link for `email` and reads it from the development mailbox (newest first), as the operator. */
async function mailedLink(email: string): Promise<string> {
  const newest = async () =>
    ((await call(0, 'GET', `/emails?to=${encodeURIComponent(email)}`, pair.superToken)).body.items as Array<{ id: string; kind: string }>).find(
      (e) => e.kind === 'sign_in',
    )?.id;
  const before = await newest();
  expectStatus(await call(1, 'POST', '/sign-in/email', null, { email }), 202, 'asking for a link');
  const id = await until(async () => {
    const latest = await newest();
    return latest !== before ? latest : undefined;
  }, 30_000);
  const mail = await call(0, 'GET', `/emails/${id}`, pair.superToken);
  return /#token=(sil_\w+)/.exec(String(mail.body.link))![1]!;
}

describe('signing in, raced across two web processes', () => {
  it(`a passkey sign-in ∥ the passkey's removal, ${PASSKEY_TRIALS} trials: no session committed after the removal answered`, async () => {
    const person = await newPerson('passkey');
    const session = expectStatus(await call(0, 'POST', '/sign-in', await mailedLink(person.email)), 201, 'signing in by email');
    const sessionToken = (session.api_key as { token: string }).token;
    const authenticator = softAuthenticator(pair.origin);
    const outcomes: Record<string, number> = {};
    let lateSessions = 0;
    for (let trial = 0; trial < PASSKEY_TRIALS; trial++) {
      const side = (trial % 2) as Side;
      const options = expectStatus(await call(side, 'POST', '/me/passkeys/options', sessionToken, {}), 200, 'registration options');
      const made = authenticator.create(options.options as Parameters<typeof authenticator.create>[0]);
      const passkey = expectStatus(
        await call((1 - side) as Side, 'POST', '/me/passkeys', sessionToken, {
          challenge_id: options.challenge_id,
          name: `trial ${trial}`,
          response: made,
        }),
        201,
        'registering',
      );
      const challenge = expectStatus(await call(side, 'POST', '/sign-in/passkey/options', null, {}), 200, 'sign-in options');
      const { challenge: text, rpId } = challenge.options as { challenge: string; rpId: string };
      const signed = authenticator.get({ challenge: text, rpId });

      const offset = REMOVAL_OFFSETS_MS[trial % REMOVAL_OFFSETS_MS.length]!;
      const signIn = sleep(Math.max(0, -offset)).then(() =>
        call(side, 'POST', '/sign-in/passkey', null, { challenge_id: challenge.challenge_id, response: signed }),
      );
      const removal = await sleep(Math.max(0, offset)).then(() =>
        call((1 - side) as Side, 'DELETE', `/me/passkeys/${passkey.id as string}`, sessionToken),
      );
      const snapshot = await commitsSoFar(pair.sql);
      const signedIn = await signIn;
      const late = await committedAfter(pair.sql, snapshot, 'api_keys', 'user_id', person.personId);
      lateSessions += late.length;
      const outcome = `removal ${removal.status}, sign-in ${signedIn.status}`;
      outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
      expect(removal.status, `trial ${trial}: the removal must answer 200: ${removal.text}`).toBe(200);
      expect([201, 401], `trial ${trial}: the sign-in answers 201 or 401: ${signedIn.text}`).toContain(signedIn.status);
      expect(late, `trial ${trial}: sessions committed after the removal answered`).toEqual([]);
      // A person keeps 10 sessions (an 11th ends the oldest: the one adding passkeys): end the new one.
      if (signedIn.status === 201) {
        expectStatus(await call(side, 'POST', '/sign-out', (signedIn.body.api_key as { token: string }).token), 200, 'signing out');
      }
      // The passkey is gone for good.
      const again = expectStatus(await call(side, 'POST', '/sign-in/passkey/options', null, {}), 200, 'sign-in options');
      const replay = authenticator.get({ challenge: (again.options as { challenge: string }).challenge, rpId });
      expect((await call((1 - side) as Side, 'POST', '/sign-in/passkey', null, { challenge_id: again.challenge_id, response: replay })).status).toBe(
        401,
      );
    }
    expect(problems).toEqual([]);
    console.log(`passkey sign-in ∥ removal: ${JSON.stringify(outcomes)}`);
    reportReliability('sign-in-race-passkey-removal', {
      claim:
        `${PASSKEY_TRIALS} passkey sign-ins raced against the passkey's removal through the other web process: no session was committed ` +
        'after the removal answered; every removal answered 200 and every sign-in 201 or 401, no 5xx',
      figures: { trials: PASSKEY_TRIALS, outcomes: JSON.stringify(outcomes), 'sessions committed after the removal answered': lateSessions },
    });
  });

  it(`one emailed link used through both processes at once, ${LINK_TRIALS} trials: exactly one session`, async () => {
    const person = await newPerson('link');
    const outcomes: Record<string, number> = {};
    for (let trial = 0; trial < LINK_TRIALS; trial++) {
      const link = await mailedLink(person.email);
      const answers = await Promise.all([call(0, 'POST', '/sign-in', link), call(1, 'POST', '/sign-in', link)]);
      const statuses = answers.map((a) => a.status).sort();
      outcomes[statuses.join(' and ')] = (outcomes[statuses.join(' and ')] ?? 0) + 1;
      expect(statuses, `trial ${trial}`).toEqual([201, 409]);
    }
    const [sessions] = await pair.sql<Array<{ n: number }>>`select count(*)::int as n from api_keys where user_id = ${person.personId} and session`;
    expect(sessions!.n).toBe(LINK_TRIALS);
    expect(problems).toEqual([]);
    reportReliability('sign-in-race-one-link', {
      claim: `${LINK_TRIALS} emailed links each used by two sign-ins at once, one through each web process: each gave exactly one session (201 and 409)`,
      figures: { trials: LINK_TRIALS, outcomes: JSON.stringify(outcomes), sessions: sessions!.n },
    });
  });
});
