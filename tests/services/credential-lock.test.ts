import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database, type Tx } from '@/db/client';
import { advertisers, apiKeys } from '@/db/schema';
import { boundToCredential, holdCredential, type CredentialLockMode } from '@/server/auth/credential-lock';
import { authenticate, type Principal } from '@/server/auth/principal';
import { problemFromError } from '@/server/http/problem';
import { createAdvertiser } from '@/server/services/advertisers/create-advertiser';
import { findOwnKey } from '@/server/services/keys/find-keys';
import { mintApiKey } from '@/server/services/keys/mint-api-key';
import { revokeKey } from '@/server/services/keys/revoke-key';
import { rotateKey } from '@/server/services/keys/rotate-key';
import { changeMemberRole } from '@/server/services/members/change-member-role';
import { removeMember } from '@/server/services/members/remove-member';
import { deleteServiceAccount } from '@/server/services/service-accounts/delete-service-account';
import { createNetworkRow, membershipOf, personKey, serviceAccountKey, useTestDatabase } from '@/tests/support/fixtures';
import { until } from '@/tests/support/until';
import { refusal } from './refusal';

// Credentials are linearizable (docs/SECURITY.md invariant 7; docs/keys-and-roles.md "Decided at commit"),
// on the services and the database's own locks (no server): each scenario holds a write open at
// its worst moment and watches, in pg_locks, who waits for whom. The races through two web
// processes are tests/reliability/credential-races.test.ts.

useTestDatabase();

const principalOf = (token: string): Promise<Principal> => authenticate(`Bearer ${token}`);

/** Transactions waiting for a credential lock (migration 0010's advisory lock class). */
async function waitingForCredentialLocks(): Promise<number> {
  const [row] = await database().execute<{ n: number }>(
    sql`select count(*)::int as n from pg_locks where locktype = 'advisory' and classid = 7242032 and objsubid = 2 and not granted`,
  );
  return row!.n;
}
const waitersReach = (n: number) => until(async () => ((await waitingForCredentialLocks()) >= n ? true : undefined));

/** A write of `principal` held open, as a request's transaction is, until `finish()`. */
function openWrite(principal: Principal, networkId: string, mode: CredentialLockMode = 'shared') {
  let finish!: () => void;
  const finished = new Promise<void>((resolve) => (finish = resolve));
  let locked!: () => void;
  const holding = new Promise<void>((resolve) => (locked = resolve));
  const committed = database().transaction(async (tx) => {
    await holdCredential(tx, principal, { mode, networkId });
    locked();
    const row = await createAdvertiser({ tx, networkId, fields: { name: 'In flight' } });
    await finished;
    return row;
  });
  return { holding, committed, finish };
}

/** `openWrite`, once it holds the credential lock: the write in flight a narrowing must wait for. */
async function heldWrite(principal: Principal, networkId: string) {
  const write = openWrite(principal, networkId);
  await write.holding;
  return write;
}

/** Settled yet? (without waiting for it) */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  const marker = Symbol('pending');
  return (
    (await Promise.race([
      promise.then(
        () => true,
        () => true,
      ),
      new Promise((r) => setImmediate(() => r(marker))),
    ])) !== marker
  );
}

async function ownKey(token: string, keyId: string) {
  const caller = await principalOf(token);
  return (await findOwnKey({ db: database(), caller, id: keyId }))!;
}

/** A new network, an administrator's key on it, and the principal that key's requests authenticate as. */
async function writerOfNewNetwork(options: { expiresAt?: Date } = {}) {
  const network = await createNetworkRow();
  const writer = await personKey([{ networkId: network.id, role: 'administrator' }], options);
  return { network, writer, principal: await principalOf(writer.token) };
}

/** A new network, its administrator (`boss`), and a `membership` with `role` whose key's requests authenticate as `principal`. */
async function memberOfNewNetwork(role: 'administrator' | 'read_only') {
  const network = await createNetworkRow();
  const boss = await personKey([{ networkId: network.id, role: 'administrator' }]);
  const member = await personKey([{ networkId: network.id, role }]);
  return { network, boss, membership: await membershipOf(network.id, member.person.id), principal: await principalOf(member.token) };
}

/**
 * `narrowing` (a revocation, demotion, removal or deletion), begun while `write` holds the
 * credential, waits for it: it is still pending while the write is, and ends once the write has
 * committed. The write's row.
 */
async function waitsForTheWrite<T>(write: { finish(): void; committed: Promise<T> }, narrowing: Promise<unknown>): Promise<T> {
  await waitersReach(1);
  expect(await settled(narrowing)).toBe(false);
  write.finish();
  const row = await write.committed;
  await narrowing;
  return row;
}

/** The key revokes itself (DELETE /v1/apikeys/{its id}), in a transaction of its own. */
async function revokeItself(writer: { token: string; key: { id: string } }) {
  const found = await ownKey(writer.token, writer.key.id);
  return database().transaction((tx) => revokeKey({ tx, actorKeyId: writer.key.id, found }));
}

describe('a revocation and the writes of its key', () => {
  it('waits for the key’s write in flight and answers after it commits; the key is refused from then on', async () => {
    const { network, writer, principal } = await writerOfNewNetwork();
    const write = await heldWrite(principal, network.id);

    const revocation = revokeItself(writer);
    const advertiser = await waitsForTheWrite(write, revocation);
    expect(
      await database()
        .select()
        .from(advertisers)
        .where(and(eq(advertisers.networkId, network.id), eq(advertisers.id, advertiser.id))),
    ).toHaveLength(1);
    expect((await refusal(principalOf(writer.token))).kind).toBe('unauthorized');
  });

  it('is not starved: a write that begins while it waits queues behind it, then is refused (401) and writes nothing', async () => {
    const { network, writer, principal } = await writerOfNewNetwork();
    const first = await heldWrite(principal, network.id);
    const revocation = revokeItself(writer);
    await waitersReach(1);

    const later = openWrite(principal, network.id);
    // Its refusal comes as soon as the revocation commits: watched from now, or it would go unhandled.
    const laterRefused = refusal(later.committed);
    await waitersReach(2);
    first.finish();
    await first.committed;
    await revocation;
    later.finish();
    expect((await laterRefused).kind).toBe('unauthorized');
    expect(await database().select().from(advertisers).where(eq(advertisers.networkId, network.id))).toHaveLength(1);
  });

  it('is seen by a write whose transaction began before the revocation did, once that write gets the lock (401)', async () => {
    // The revocation stamps revoked_at with its own transaction's start, later than the write's:
    // the key is read again as of that read, not as of the write's transaction start.
    const { network, writer, principal } = await writerOfNewNetwork();
    let go!: () => void;
    const released = new Promise<void>((resolve) => (go = resolve));
    let begun!: () => void;
    const started = new Promise<void>((resolve) => (begun = resolve));
    const write = database().transaction(async (tx) => {
      await tx.execute(sql`select 1`);
      begun();
      await released;
      await holdCredential(tx, principal, { networkId: network.id });
      return createAdvertiser({ tx, networkId: network.id, fields: { name: 'late' } });
    });
    await started;
    await new Promise((resolve) => setTimeout(resolve, 20)); // the revocation's transaction starts measurably later
    await revokeItself(writer);
    go();
    expect((await refusal(write)).kind).toBe('unauthorized');
    expect(await database().select().from(advertisers).where(eq(advertisers.networkId, network.id))).toHaveLength(0);
  });

  it('a key revoked after its request was authenticated is refused when the write’s transaction begins (401)', async () => {
    const { writer, principal } = await writerOfNewNetwork();
    await revokeItself(writer);
    const error = await refusal(database().transaction((tx) => holdCredential(tx, principal)));
    expect(error.kind).toBe('unauthorized');
  });
});

describe('demotion, removal and deletion of the grant behind a key', () => {
  it('a demotion waits for the member’s administrator write in flight; later writes are refused (403: access narrowed)', async () => {
    const { network, boss, membership, principal } = await memberOfNewNetwork('administrator');
    const write = await heldWrite(principal, network.id);
    const demotion = database().transaction((tx) =>
      changeMemberRole({
        tx,
        networkId: network.id,
        memberId: membership.id,
        role: 'read_only',
        expectedVersion: undefined,
        actorKeyId: boss.key.id,
      }),
    );
    await waitsForTheWrite(write, demotion);
    const error = await refusal(database().transaction((tx) => holdCredential(tx, principal)));
    expect(error.kind).toBe('forbidden');
    expect(error.detail).toMatch(/changed while the request ran \(it now holds read_only\)/);
  });

  it('a removal waits the same way, and the removed member’s next write is refused (403)', async () => {
    const { network, boss, membership, principal } = await memberOfNewNetwork('read_only');
    const write = await heldWrite(principal, network.id);
    const removal = database().transaction((tx) =>
      removeMember({ tx, networkId: network.id, memberId: membership.id, expectedVersion: undefined, actorKeyId: boss.key.id }),
    );
    await waitsForTheWrite(write, removal);
    expect((await refusal(database().transaction((tx) => holdCredential(tx, principal)))).kind).toBe('forbidden');
  });

  it('deleting a service account waits for its key’s write in flight; the key is then refused (401)', async () => {
    const network = await createNetworkRow();
    const boss = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const account = await serviceAccountKey(network.id, 'administrator');
    const principal = await principalOf(account.token);
    const write = await heldWrite(principal, network.id);
    const bossPrincipal = await principalOf(boss.token);
    const deletion = database().transaction((tx) =>
      deleteServiceAccount({ tx, principal: bossPrincipal, networkId: network.id, id: account.serviceAccount.id }),
    );
    await waitsForTheWrite(write, deletion);
    expect((await refusal(database().transaction((tx) => holdCredential(tx, principal)))).kind).toBe('unauthorized');
  });
});

describe('key state changes are compare-and-set', () => {
  it('a rotation that read the key before a revocation committed is a 409, and does not bring the key back', async () => {
    const network = await createNetworkRow();
    const holder = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const { token: other } = await mintApiKey({
      tx: database(),
      name: 'second',
      owner: { userId: holder.person.id },
      creator: 'platform',
      scopes: [{ networkId: network.id, role: 'administrator' }],
    });
    const caller = await principalOf(other);
    const stale = await ownKey(other, holder.key.id);
    await database().transaction((tx) => revokeKey({ tx, actorKeyId: caller.keyId, found: stale }));

    const error = await refusal(database().transaction((tx) => rotateKey({ tx, caller, found: stale, graceSeconds: 7 * 24 * 3600 })));
    expect(error.kind).toBe('conflict');
    expect((await refusal(principalOf(holder.token))).kind).toBe('unauthorized');
    const [row] = await database().select().from(apiKeys).where(eq(apiKeys.id, holder.key.id));
    expect(row!.replacedByKeyId).toBeNull();
    expect(row!.revokedAt!.getTime()).toBeLessThanOrEqual(Date.now());
  });
});

describe('the lock mode of operations that withdraw their own caller’s access', () => {
  async function ownerWithKeys(n: number) {
    const network = await createNetworkRow();
    const holder = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const more = [];
    for (let i = 0; i < n; i++) {
      more.push(
        await mintApiKey({
          tx: database(),
          name: `k${i}`,
          owner: { userId: holder.person.id },
          creator: 'platform',
          scopes: [{ networkId: network.id, role: 'read_only' }],
        }),
      );
    }
    return { holder, more, principal: await principalOf(holder.token) };
  }

  /** Two transactions of one owner, each revoking another of its keys once both hold their lock. */
  async function twoSelfRevocations(mode: CredentialLockMode) {
    const { holder, more, principal } = await ownerWithKeys(2);
    const found = await Promise.all(more.map((m) => ownKey(holder.token, m.key.id)));
    let arrived = 0;
    let bothHold!: () => void;
    const barrier = new Promise<void>((resolve) => (bothHold = resolve));
    const revoke = (i: number) =>
      database().transaction(async (tx: Tx) => {
        await holdCredential(tx, principal, { mode });
        if (++arrived === 2) bothHold();
        if (mode === 'shared') await barrier;
        return revokeKey({ tx, actorKeyId: principal.keyId, found: found[i]! });
      });
    return Promise.allSettled([revoke(0), revoke(1)]);
  }

  it('shared, two of them by one owner deadlock, and Postgres’s choice of victim is a 409 to retry, not a 500', async () => {
    const outcomes = await twoSelfRevocations('shared');
    const failed = outcomes.filter((o) => o.status === 'rejected');
    expect(failed).toHaveLength(1);
    const problem = problemFromError((failed[0] as PromiseRejectedResult).reason);
    expect(problem.status).toBe(409);
    expect(problem.detail).toMatch(/clashed with a concurrent change/);
  });

  it('exclusive (withdrawsCredentials), they queue and both succeed', async () => {
    const outcomes = await twoSelfRevocations('exclusive');
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
  });

  it('through boundToCredential, the deadlock’s victim runs again after the winner commits: both succeed, no 409', async () => {
    const { holder, more, principal } = await ownerWithKeys(2);
    const found = await Promise.all(more.map((m) => ownKey(holder.token, m.key.id)));
    let runs = 0;
    let bothHold!: () => void;
    const barrier = new Promise<void>((resolve) => (bothHold = resolve));
    const db = boundToCredential(database(), principal); // shared, as a write that takes nobody's access away
    const revoke = (i: number) =>
      db.transaction(async (tx) => {
        if (++runs === 2) bothHold();
        await barrier; // both hold the lock shared before either revokes: a deadlock, as above
        return revokeKey({ tx, actorKeyId: principal.keyId, found: found[i]! });
      });
    const outcomes = await Promise.allSettled([revoke(0), revoke(1)]);
    expect(outcomes.map((o) => o.status)).toEqual(['fulfilled', 'fulfilled']);
    expect(runs).toBe(3); // the victim's transaction ran twice
  });
});

describe('boundToCredential: the database handle of a mutation', () => {
  it('checks the credential at the start of each transaction, and refuses a write outside one', async () => {
    const { network, writer, principal } = await writerOfNewNetwork();
    const db = boundToCredential(database(), principal, { networkId: network.id });
    expect(() => db.insert(advertisers)).toThrow(/writes only inside ctx\.db\.transaction/);
    expect(await db.transaction((tx) => createAdvertiser({ tx, networkId: network.id, fields: { name: 'ok' } }))).toMatchObject({ name: 'ok' });
    await database()
      .update(apiKeys)
      .set({ revokedAt: sql`now()` })
      .where(eq(apiKeys.id, writer.key.id));
    expect((await refusal(db.transaction((tx) => createAdvertiser({ tx, networkId: network.id, fields: { name: 'late' } })))).kind).toBe(
      'unauthorized',
    );
    expect(await database().select().from(advertisers).where(eq(advertisers.networkId, network.id))).toHaveLength(1);
  });

  it('refuses before COMMIT a write whose key expired while it ran (401), and nothing is written', async () => {
    const { network, principal } = await writerOfNewNetwork({ expiresAt: new Date(Date.now() + 1_500) });
    const db = boundToCredential(database(), principal, { networkId: network.id });
    const write = db.transaction(async (tx) => {
      const row = await createAdvertiser({ tx, networkId: network.id, fields: { name: 'slow' } });
      await until(() => (Date.now() > principal.expiresAt! ? true : undefined));
      return row;
    });
    expect((await refusal(write)).detail).toMatch(/expired while the request ran/);
    expect(await database().select().from(advertisers).where(eq(advertisers.networkId, network.id))).toHaveLength(0);
  });
});
