import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { database } from '@/db/client';
import { emails } from '@/db/schema';
import { createInvitation } from '@/server/services/invitations/create-invitation';
import { emailJobKey, queueEmail } from '@/server/services/mail/queue-email';
import { sendEmail } from '@/server/services/mail/send-email';
import { changeNotificationSettings } from '@/server/services/notifications/settings';
import { createNetworkRow, createPerson, personKey, useTestDatabase } from '@/tests/support/fixtures';

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

describe('turning a kind of notice off', () => {
  it('withdraws that person’s notices of the kind still queued: none is sent after the opt-out', async () => {
    const person = await createPerson();
    const message = (kind: string) => ({ subject: kind, text: 'A notice.', html: '<p>A notice.</p>' });
    // Queued and turned off in one transaction, so that no worker of another test file sends them first.
    const [failed, expiring, someoneElse] = await database().transaction(async (tx) => {
      const queued = [
        await queueEmail({ tx, kind: 'creative_failed', to: person.email!, queue: person.id, message: message('failed') }),
        await queueEmail({ tx, kind: 'key_expiring', to: person.email!, queue: person.id, message: message('expiring') }),
        await queueEmail({ tx, kind: 'creative_failed', to: 'other@example.test', queue: person.id, message: message('other') }),
      ];
      await changeNotificationSettings({ tx, userId: person.id, changes: { creative_failed: false } });
      return queued as [string, string, string];
    });
    // The job runs as the worker would run it: the withdrawn notice is not sent.
    await sendEmail({ db: database(), emailId: failed, helpers: { job: { attempts: 1, max_attempts: 5 } as never } });
    const status = async (id: string) => (await database().select({ status: emails.status }).from(emails).where(eq(emails.id, id)))[0]!.status;
    expect(await status(failed)).toBe('withdrawn');
    expect(await status(expiring)).not.toBe('withdrawn');
    expect(await status(someoneElse)).not.toBe('withdrawn');
  });
});
