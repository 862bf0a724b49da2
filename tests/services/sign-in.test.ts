import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { newId } from '@/db/ids';
import { apiKeys, emails, signInLinks } from '@/db/schema';
import { generateSecretToken, hashToken } from '@/server/auth/tokens';
import { config } from '@/server/config';
import { createSuperUserKey, OPERATOR_EMAIL } from '@/server/services/keys/bootstrap';
import { MAX_SESSIONS, signInWithLink, workingSessionsOf } from '@/server/services/sign-in/complete-sign-in';
import { sendSignInLink } from '@/server/services/sign-in/request-sign-in';
import { createNetworkRow, personKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

/** A link for `userId`, stored as the request job stores one; its token. */
async function linkFor(userId: string): Promise<string> {
  const token = generateSecretToken('sil');
  await database()
    .insert(signInLinks)
    .values({ id: newId('signInLink'), userId, tokenHash: hashToken(token), expiresAt: sql`now() + interval '15 minutes'` });
  return token;
}

const workingSessions = (userId: string) => database().select({ id: apiKeys.id }).from(apiKeys).where(workingSessionsOf(userId)).orderBy(apiKeys.id);

describe('sign-in links and sessions', () => {
  it('mails a person at most SIGN_IN_REQUESTS_PER_HOUR links an hour, however many requests reach the worker', async () => {
    const network = await createNetworkRow('Link Cap Radio');
    const { person } = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const limit = config().SIGN_IN_REQUESTS_PER_HOUR;
    const sent: Array<string | undefined> = [];
    for (let i = 0; i <= limit; i++) sent.push(await database().transaction((tx) => sendSignInLink({ tx, email: person.email! })));
    expect(sent.slice(0, limit).every(Boolean)).toBe(true);
    expect(sent[limit]).toBeUndefined();
    expect(await database().select().from(emails).where(eq(emails.toAddress, person.email!))).toHaveLength(limit);
    // The operator's placeholder address (its person holds the super_user keys) is no mailbox: no link.
    await createSuperUserKey({ db: database(), name: 'sign-in test' });
    expect(await database().transaction((tx) => sendSignInLink({ tx, email: OPERATOR_EMAIL }))).toBeUndefined();
    // An address nobody has: nothing stored, nothing mailed.
    expect(await database().transaction((tx) => sendSignInLink({ tx, email: 'no-one@example.test' }))).toBeUndefined();
    expect(await database().select().from(emails).where(eq(emails.toAddress, 'no-one@example.test'))).toEqual([]);
  });

  it(`keeps at most ${MAX_SESSIONS} sessions per person: one more ends the oldest, which is expired, not revoked`, async () => {
    const network = await createNetworkRow('Session Cap Radio');
    const { person } = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const made: string[] = [];
    for (let i = 0; i < MAX_SESSIONS + 1; i++) {
      const token = await linkFor(person.id);
      made.push((await database().transaction((tx) => signInWithLink({ tx, token }))).key.id);
    }
    expect((await workingSessions(person.id)).map((k) => k.id)).toEqual(made.slice(1));
    const [oldest] = await database().select().from(apiKeys).where(eq(apiKeys.id, made[0]!));
    expect(oldest).toMatchObject({ revokedAt: null, session: true });
    expect(oldest!.expiresAt!.getTime()).toBeLessThanOrEqual(Date.now() + 1_000);
  });

  it('two uses of one link at once: exactly one session', async () => {
    const network = await createNetworkRow('Link Race Radio');
    const { person } = await personKey([{ networkId: network.id, role: 'read_only' }]);
    const token = await linkFor(person.id);
    const outcomes = await Promise.allSettled([0, 1].map(() => database().transaction((tx) => signInWithLink({ tx, token }))));
    expect(outcomes.filter((o) => o.status === 'fulfilled')).toHaveLength(1);
    expect(outcomes.find((o) => o.status === 'rejected')).toMatchObject({ reason: { kind: 'conflict' } });
    expect(await workingSessions(person.id)).toHaveLength(1);
  });
});
