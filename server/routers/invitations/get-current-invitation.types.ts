import { z } from 'zod';
import { idField, iso, roleSchema, timestamp } from '@/server/routers/shared.types';
import type { InvitationDetails } from '@/server/services/invitations/find-invitations';
import { invitationStatus } from '@/server/services/invitations/invitation-status';
import { invitationStatusSchema } from './invitation.types';

export const getCurrentInvitationInput = z.strictObject({});

export const invitationDetailsSchema = z
  .object({
    id: idField('ivt'),
    network: z.object({ id: idField('net'), name: z.string() }),
    email: z.string(),
    role: roleSchema,
    status: invitationStatusSchema,
    expires_at: timestamp,
    invited_by: z
      .string()
      .nullable()
      .meta({ description: 'The name of the owner (a person or a service account) of the key that sent it; null when no sending key is recorded.' }),
  })
  .meta({ id: 'InvitationDetails' });

export type InvitationDetailsAnswer = z.infer<typeof invitationDetailsSchema>;

export function presentInvitationDetails({ invitation, networkName, invitedBy }: InvitationDetails): InvitationDetailsAnswer {
  return {
    id: invitation.id,
    network: { id: invitation.networkId, name: networkName },
    email: invitation.email,
    role: invitation.role,
    status: invitationStatus(invitation),
    expires_at: iso(invitation.expiresAt),
    invited_by: invitedBy,
  };
}
