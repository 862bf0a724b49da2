import { eq } from 'drizzle-orm';
import type { Tx } from '@/db/client';
import { apiKeys } from '@/db/schema';
import type { Role } from '@/domain/roles';
import { config } from '@/server/config';
import { creativeFailedEmail, invitationAcceptedEmail, webhookDisabledEmail } from '@/server/services/mail/templates';
import { networkAdministrators, networkName, notify, person } from './notify';

/** A console page of a network. */
export const consoleLink = (networkId: string, page: string) => `${config().publicUrl}/console/n/${networkId}/${page}`;

/** Tells the network's administrators that the service disabled one of its webhook subscriptions. */
export async function noticeWebhookDisabled({
  tx,
  networkId,
  webhook,
  reason,
}: {
  tx: Tx;
  networkId: string;
  webhook: { id: string; url: string };
  reason: string;
}): Promise<void> {
  const { networkName, administrators } = await networkAdministrators({ tx, networkId });
  await notify({
    tx,
    kind: 'webhook_disabled',
    subjectId: webhook.id,
    recipients: administrators,
    queue: networkId,
    message: (to, unsubscribe) =>
      webhookDisabledEmail({
        name: to.name,
        networkName,
        url: webhook.url,
        reason,
        link: consoleLink(networkId, `webhooks/${webhook.id}`),
        unsubscribe,
      }),
  });
}

/** Tells the network's administrators that a creative failed. */
export async function noticeCreativeFailed({
  tx,
  networkId,
  creativeId,
  reason,
}: {
  tx: Tx;
  networkId: string;
  creativeId: string;
  reason: string;
}): Promise<void> {
  const { networkName, administrators } = await networkAdministrators({ tx, networkId });
  await notify({
    tx,
    kind: 'creative_failed',
    subjectId: creativeId,
    recipients: administrators,
    queue: networkId,
    message: (to, unsubscribe) =>
      creativeFailedEmail({ name: to.name, networkName, creativeId, reason, link: consoleLink(networkId, 'creatives'), unsubscribe }),
  });
}

/** Tells the person who sent an invitation (through a key of theirs) that it was accepted. */
export async function noticeInvitationAccepted({
  tx,
  invitation,
}: {
  tx: Tx;
  invitation: { id: string; networkId: string; email: string; role: Role; createdByKeyId: string | null };
}): Promise<void> {
  if (!invitation.createdByKeyId) return;
  const [sender] = await tx.select({ userId: apiKeys.userId }).from(apiKeys).where(eq(apiKeys.id, invitation.createdByKeyId));
  const inviter = sender?.userId ? await person({ tx, userId: sender.userId }) : undefined;
  if (!inviter) return; // a service account's invitation: no person sent it
  const name = await networkName({ tx, networkId: invitation.networkId });
  await notify({
    tx,
    kind: 'invitation_accepted',
    subjectId: invitation.id,
    recipients: [inviter],
    queue: invitation.networkId,
    message: (to, unsubscribe) =>
      invitationAcceptedEmail({
        name: to.name,
        networkName: name,
        email: invitation.email,
        role: invitation.role,
        link: consoleLink(invitation.networkId, 'members'),
        unsubscribe,
      }),
  });
}
