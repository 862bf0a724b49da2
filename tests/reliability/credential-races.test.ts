/**
 * Credentials are linearizable (docs/SECURITY.md invariant 7; spec rule 8: "Revocation is immediate:
 * in-flight and later requests with the token get 401"), with two web processes on one database —
 * the scale-out README.md documents: the run's service and a second `WORKER=off npm start`
 * (tests/support/web-pair.ts). Requests are raced through both processes, as an outside probe did
 * (issue 33):
 *
 * - rotation ∥ revocation of the same key, 40 trials: once both have answered, the revoked old
 *   token answers 401 through both processes, and still does at the end. A rotation that lost
 *   answers 409 (or 401 when the key rotated itself), never a 2xx that brings the old key back
 *   for its grace period. A rotation that won hands out a working replacement.
 * - 100 concurrent mints of administrator keys for a service account ∥ the removal, the
 *   revocation of the key, or the demotion of the administrator minting them (three cases): no
 *   key is committed after the removing request has answered.
 * - 150 writes (advertisers) ∥ the revocation of the key writing them: none committed after the
 *   revocation answered.
 *
 * "Committed after the answer" is measured exactly: right after the answer arrives the test takes
 * Postgres's snapshot (`pg_current_snapshot()`, every transaction committed by then), and once
 * everything has settled it counts the rows whose inserting transaction is not in it
 * (tests/support/web-pair.ts, `committedAfter`). No timing is asserted; only these invariants, no
 * 5xx, and the error envelope on every refusal.
 */
import { beforeEach, describe, expect, it } from 'vitest';
import { api, type ApiResponse } from '@/tests/support/api';
import { reportReliability } from '@/tests/support/reliability';
import { commitsSoFar, committedAfter, inEnvelope, useWebPair } from '@/tests/support/web-pair';

const ROTATION_TRIALS = 40;
const MINTS = 100;
const WRITES = 150;
/** The rotation's grace period: long enough that a resurrected key would still answer at the end. */
const GRACE_SECONDS = 3600;
/**
 * How much later (ms) the revocation is sent than the rotation in successive trials (negative:
 * the rotation is sent later). Spread so that some trials land the revocation's commit inside
 * the rotation's read-then-write, where the hole was.
 */
const REVOCATION_OFFSETS_MS = [-4, -2, -1, 0, 1, 2, 3, 5];

type Side = 0 | 1;
type Answer = ApiResponse<Record<string, unknown>>;

const pair = useWebPair('races');

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The current test's answers, for the two rules that hold for every request: no 5xx, refusals in the envelope. */
let answered = { requests: 0, serverErrors: [] as string[], outsideEnvelope: [] as string[] };

beforeEach(() => {
  answered = { requests: 0, serverErrors: [], outsideEnvelope: [] };
});

/** No 5xx, and every refusal in the envelope, among the current test's answers. */
function expectCleanAnswers(): void {
  expect(answered.serverErrors, `answers 5xx:\n${answered.serverErrors.join('\n')}`).toEqual([]);
  expect(answered.outsideEnvelope, `refusals outside the error envelope:\n${answered.outsideEnvelope.join('\n')}`).toEqual([]);
}

/** What every case reports besides its own figures. */
const requestFigures = () => ({
  requests: answered.requests,
  '5xx': answered.serverErrors.length,
  'refusals outside the envelope': answered.outsideEnvelope.length,
});

/** A request to /v1 through process `side` (0 or 1). */
async function call(side: Side, method: string, path: string, token: string, body?: unknown): Promise<Answer> {
  const answer = await api<Record<string, unknown>>(method, path, { token, body, baseUrl: pair.urls[side] });
  answered.requests += 1;
  const what = `${method} ${path} through process ${side + 1} → ${answer.status}: ${answer.text.slice(0, 300)}`;
  if (answer.status >= 500) answered.serverErrors.push(what);
  if (answer.status >= 400 && !inEnvelope(answer)) answered.outsideEnvelope.push(what);
  return answer;
}

function created<T>(answer: Answer, what: string): T {
  if (answer.status !== 201) throw new Error(`${what} must answer 201, got ${answer.status}: ${answer.text.slice(0, 300)}`);
  return answer.body as T;
}

// ---------------------------------------------------------------------------
// The world each case starts from, made through the API with the operator's key
// ---------------------------------------------------------------------------

interface KeyView {
  id: string;
  token: string;
}

async function createNetwork(name: string): Promise<string> {
  return created<{ id: string }>(await call(0, 'POST', '/networks', pair.superToken, { name }), 'creating a network').id;
}

/** A person who joins the network with `role` by accepting an invitation: their membership and first key. */
async function join(networkId: string, role: 'administrator' | 'read_only', label: string) {
  const email = `${label}-${Math.random().toString(36).slice(2, 10)}@example.test`;
  const invitation = created<{ token: string }>(
    await call(1, 'POST', `/networks/${networkId}/invitations`, pair.superToken, { email, role }),
    'inviting',
  );
  const accepted = created<{ member: { id: string }; api_key: KeyView }>(
    await call(0, 'POST', '/invitations/accept', invitation.token, {}),
    'accepting',
  );
  return { memberId: accepted.member.id, key: accepted.api_key };
}

async function createServiceAccount(networkId: string, role: 'administrator' | 'read_only'): Promise<string> {
  return created<{ id: string }>(
    await call(1, 'POST', `/networks/${networkId}/service-accounts`, pair.superToken, { name: 'integration', role }),
    'creating a service account',
  ).id;
}

interface Me {
  super_user: boolean;
  scopes: Array<{ network_id: string; role: string }>;
}

const administers = (me: Answer, networkId: string) =>
  me.status === 200 && (me.body as unknown as Me).scopes.some((s) => s.network_id === networkId && s.role === 'administrator');

async function countRows(query: string, value: string): Promise<number> {
  const [row] = await pair.sql.unsafe<Array<{ n: number }>>(query, [value]);
  return row!.n;
}

/** Count answers by status: `{ '201': 57, '403': 43 }`. */
function byStatus(answers: Answer[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const a of answers) counts[a.status] = (counts[a.status] ?? 0) + 1;
  return counts;
}

const describeCounts = (counts: Record<string, number>) =>
  Object.entries(counts)
    .map(([status, n]) => `${status}: ${n}`)
    .join(', ');

// ---------------------------------------------------------------------------

describe('credentials are linearizable across two web processes (docs/SECURITY.md invariant 7)', () => {
  it(`rotation ∥ revocation of the same key, ${ROTATION_TRIALS} trials: the revoked key never answers again`, async () => {
    const networkId = await createNetwork('races: rotation and revocation');
    const owner = await join(networkId, 'administrator', 'rotator');
    const problems: string[] = [];
    const outcomes = { rotationFirst: 0, revocationFirst: 0, resurrections: 0 };
    const revokedTokens: Array<{ trial: number; token: string }> = [];

    for (let trial = 0; trial < ROTATION_TRIALS; trial++) {
      // The key raced: a key of the owner's, made by the owner's key (so that either may rotate it).
      const key = created<KeyView>(await call(0, 'POST', '/apikeys', owner.key.token, { key_name: `raced ${trial}` }), 'minting the raced key');
      // Odd trials: the key rotates itself. Even: its owner's first key rotates it.
      const selfRotation = trial % 2 === 1;
      const offset = REVOCATION_OFFSETS_MS[trial % REVOCATION_OFFSETS_MS.length]!;
      const rotating = sleep(Math.max(0, -offset)).then(() =>
        call(0, 'POST', `/apikeys/${key.id}/rotate`, selfRotation ? key.token : owner.key.token, { grace_period_seconds: GRACE_SECONDS }),
      );
      // The operator revokes it as an administrator of the network, through the other process.
      const revoking = sleep(Math.max(0, offset)).then(() => call(1, 'DELETE', `/networks/${networkId}/apikeys/${key.id}`, pair.superToken));
      const [rotation, revocation] = await Promise.all([rotating, revoking]);
      const at = `trial ${trial} (${selfRotation ? 'the key rotates itself' : 'its owner’s other key rotates it'}; revocation sent ${offset} ms later)`;

      if (revocation.status !== 200) problems.push(`${at}: the revocation answered ${revocation.status}, not 200: ${revocation.text.slice(0, 200)}`);
      const lost = selfRotation ? [401, 409] : [409];
      if (rotation.status === 201) outcomes.rotationFirst += 1;
      else if (lost.includes(rotation.status)) outcomes.revocationFirst += 1;
      else problems.push(`${at}: the rotation answered ${rotation.status}; a rotation that lost the race answers ${lost.join(' or ')}`);

      const [viaFirst, viaSecond] = await Promise.all([call(0, 'GET', '/me', key.token), call(1, 'GET', '/me', key.token)]);
      if (revocation.status === 200) {
        revokedTokens.push({ trial, token: key.token });
        if (viaFirst.status !== 401 || viaSecond.status !== 401) {
          outcomes.resurrections += 1;
          problems.push(
            `${at}: the revocation answered 200, the rotation ${rotation.status}, and then the old token answered ` +
              `${viaFirst.status} (process 1) and ${viaSecond.status} (process 2), not 401: revoked, then working again`,
          );
        }
      }
      if (rotation.status === 201) {
        // Rotation first, revocation second: the replacement is the owner's working key.
        const replacement = rotation.body as unknown as KeyView;
        const me = await call(1, 'GET', '/me', replacement.token);
        if (!administers(me, networkId))
          problems.push(`${at}: the rotation answered 201 but its replacement answers ${me.status}: ${me.text.slice(0, 200)}`);
      }
    }

    // "Stays 401": every revoked token, once more through both processes, after all trials.
    for (const { trial, token } of revokedTokens) {
      const [first, second] = await Promise.all([call(0, 'GET', '/me', token), call(1, 'GET', '/me', token)]);
      if (first.status !== 401 || second.status !== 401) {
        problems.push(`trial ${trial}: at the end, the revoked token answers ${first.status} (process 1) and ${second.status} (process 2), not 401`);
      }
    }

    const figures = {
      trials: ROTATION_TRIALS,
      'rotation first (201, then revoked)': outcomes.rotationFirst,
      'revocation first (rotation refused)': outcomes.revocationFirst,
      'revoked keys answering again': outcomes.resurrections,
      ...requestFigures(),
    };
    console.log(`rotation ∥ revocation: ${JSON.stringify(figures)}`);
    expect(problems, problems.join('\n')).toEqual([]);
    expectCleanAnswers();
    reportReliability('credential-race-rotate-revoke', {
      claim:
        `${ROTATION_TRIALS} rotations (grace ${GRACE_SECONDS} s) raced against the revocation of the same key through a second web process: ` +
        'once both answered, the revoked token answered 401 through both processes and still did at the end; a rotation that lost answered 409 (401 when the key rotated itself), no 5xx',
      figures,
    });
  });

  const narrowings = {
    removal: {
      refusal: 403,
      send: (ctx: NarrowingContext) => call(1, 'DELETE', `/networks/${ctx.networkId}/members/${ctx.creator.memberId}`, pair.superToken),
    },
    revocation: {
      refusal: 401,
      send: (ctx: NarrowingContext) => call(1, 'DELETE', `/networks/${ctx.networkId}/apikeys/${ctx.creator.key.id}`, pair.superToken),
    },
    demotion: {
      refusal: 403,
      send: (ctx: NarrowingContext) =>
        call(1, 'PATCH', `/networks/${ctx.networkId}/members/${ctx.creator.memberId}`, pair.superToken, { role: 'read_only' }),
    },
  } as const;

  interface NarrowingContext {
    networkId: string;
    creator: Awaited<ReturnType<typeof join>>;
  }

  for (const [kind, narrowing] of Object.entries(narrowings)) {
    it(`${MINTS} mints of administrator keys ∥ the ${kind} of their creator: none committed after the ${kind} answered`, async () => {
      const networkId = await createNetwork(`races: mints and ${kind}`);
      const creator = await join(networkId, 'administrator', 'minter');
      // A second administrator: removing or demoting the creator is never refused as the last one.
      await join(networkId, 'administrator', 'colleague');
      const serviceAccountId = await createServiceAccount(networkId, 'administrator');

      const mints = Array.from({ length: MINTS }, (_, i) =>
        call(0, 'POST', `/networks/${networkId}/service-accounts/${serviceAccountId}/keys`, creator.key.token, {
          key_name: `mint ${i}`,
          role: 'administrator',
        }),
      );
      // Once the first mint has answered, the others are in flight: the creator loses the right now.
      await Promise.race(mints);
      const narrowed = await narrowing.send({ networkId, creator });
      const snapshot = await commitsSoFar(pair.sql);
      const answers = await Promise.all(mints);

      // Counted before any minted token is used (a key's first use updates its row).
      const after = await committedAfter(pair.sql, snapshot, 'api_keys', 'created_by_key_id', creator.key.id);
      const total = await countRows(`select count(*)::int as n from api_keys where created_by_key_id = $1`, creator.key.id);
      const tokens = new Map(
        answers.filter((a) => a.status === 201).map((a) => [(a.body as unknown as KeyView).id, (a.body as unknown as KeyView).token]),
      );
      let workingAfter = 0;
      for (const id of after) {
        const token = tokens.get(id);
        if (token && administers(await call(0, 'GET', '/me', token), networkId)) workingAfter += 1;
      }

      const counts = byStatus(answers);
      const figures = {
        mints: MINTS,
        answers: describeCounts(counts),
        'keys committed': total,
        [`keys committed after the ${kind} answered`]: after.length,
        'of those, working as administrator': workingAfter,
        ...requestFigures(),
      };
      console.log(`mints ∥ ${kind}: ${JSON.stringify(figures)}`);
      expect(narrowed.status, `the ${kind} must answer 200: ${narrowed.text}`).toBe(200);
      expect(after.length, `${after.length} administrator keys were committed after the ${kind} of their creator answered`).toBe(0);
      const unexpected = Object.keys(counts).filter((s) => s !== '201' && s !== String(narrowing.refusal));
      expect(unexpected, `mints answer 201 or ${narrowing.refusal} (${describeCounts(counts)})`).toEqual([]);
      expect(total, 'every committed key was answered 201, and every 201 committed').toBe(counts['201'] ?? 0);
      expectCleanAnswers();
      reportReliability(`credential-race-mints-${kind}`, {
        claim:
          `${MINTS} concurrent mints of administrator keys for a service account raced against the ${kind} of the administrator minting them, ` +
          `sent through the other web process: no key was committed after the ${kind} answered (Postgres snapshot taken on its answer); every mint answered 201 or ${narrowing.refusal}, no 5xx`,
        figures,
      });
    });
  }

  it(`${WRITES} writes ∥ the revocation of the writing key: none committed after the revocation answered`, async () => {
    const networkId = await createNetwork('races: writes and revocation');
    const writer = await join(networkId, 'administrator', 'writer');
    const writes = Array.from({ length: WRITES }, (_, i) =>
      call(0, 'POST', `/networks/${networkId}/advertisers`, writer.key.token, { name: `advertiser ${i}` }),
    );
    await Promise.race(writes);
    const revocation = await call(1, 'DELETE', `/networks/${networkId}/apikeys/${writer.key.id}`, pair.superToken);
    const snapshot = await commitsSoFar(pair.sql);
    const answers = await Promise.all(writes);

    const after = await committedAfter(pair.sql, snapshot, 'advertisers', 'network_id', networkId);
    const total = await countRows(`select count(*)::int as n from advertisers where network_id = $1`, networkId);
    const counts = byStatus(answers);
    const figures = {
      writes: WRITES,
      answers: describeCounts(counts),
      'advertisers committed': total,
      'committed after the revocation answered': after.length,
      ...requestFigures(),
    };
    console.log(`writes ∥ revocation: ${JSON.stringify(figures)}`);
    expect(revocation.status, `the revocation must answer 200: ${revocation.text}`).toBe(200);
    expect(after.length, `${after.length} advertisers were committed after the revocation of their writer’s key answered`).toBe(0);
    expect(
      Object.keys(counts).filter((s) => s !== '201' && s !== '401'),
      `writes answer 201 or 401 (${describeCounts(counts)})`,
    ).toEqual([]);
    expect(total, 'every committed advertiser was answered 201, and every 201 committed').toBe(counts['201'] ?? 0);
    expectCleanAnswers();
    reportReliability('credential-race-writes-revocation', {
      claim:
        `${WRITES} concurrent advertiser creations raced against the revocation of the writing key through the other web process: ` +
        'none was committed after the revocation answered (Postgres snapshot taken on its answer); every write answered 201 or 401, no 5xx',
      figures,
    });
  });
});
