import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { emails } from '@/db/schema';
import { createInvitation } from '@/server/services/invitations/create-invitation';
import { emailJobKey } from '@/server/services/mail/queue-email';
import { createNetworkRow, personKey, useTestDatabase } from '@/tests/support/fixtures';

useTestDatabase();

/** The send-email jobs graphile-worker holds for an email (its public `jobs` view). */
const jobsFor = async (emailId: string) =>
  (await database().execute<{ n: number }>(sql`select count(*)::int as n from graphile_worker.jobs where key = ${emailJobKey(emailId)}`))[0]!.n;

describe('the outbox is transactional', () => {
  it('an invitation whose transaction rolls back leaves no email and no job; one that commits leaves its email, the message sealed', async () => {
    const network = await createNetworkRow('Outbox Radio');
    const admin = await personKey([{ networkId: network.id, role: 'administrator' }]);
    const invitation = { networkId: network.id, role: 'read_only' as const, expiresInDays: 7, actorKeyId: admin.key.id };

    let queued = '';
    const rolledBack = database().transaction(async (tx) => {
      queued = (await createInvitation({ tx, ...invitation, email: 'gone@example.com' })).emailId;
      throw new Error('the request failed after the invitation');
    });
    await expect(rolledBack).rejects.toThrow('the request failed');
    expect(await database().select().from(emails).where(eq(emails.id, queued))).toEqual([]);
    expect(await jobsFor(queued)).toBe(0);

    const { emailId, token } = await database().transaction((tx) => createInvitation({ tx, ...invitation, email: 'kept@example.com' }));
    const [row] = await database().select().from(emails).where(eq(emails.id, emailId));
    expect(row).toMatchObject({ kind: 'invitation', toAddress: 'kept@example.com' });
    // At rest the message, and the one-time link in it, are sealed.
    expect(row!.sealedMessage).not.toContain(token);
    expect(row!.sealedMessage).not.toContain('kept@example.com');
  });
});
