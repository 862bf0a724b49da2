import { z } from 'zod';
import { invitationStatus } from '@/server/services/invitations/invitation-status';
import type { InvitationRow } from '@/server/services/invitations/find-invitations';
import { idField, iso, isoOrNull, roleSchema, timestamp } from '@/server/routers/shared.types';

export const invitationStatusSchema = z
  .enum(['pending', 'accepted', 'revoked', 'expired'])
  .meta({ description: 'pending → accepted | revoked | expired (expired = pending past expires_at).' });

export const invitationSchema = z
  .object({
    id: z.string().meta({ example: 'ivt_01jd8x6v2c9q7r5t3w1y0zabcd' }),
    network_id: idField('net'),
    email: z.string(),
    role: roleSchema,
    status: invitationStatusSchema,
    expires_at: timestamp,
    created_at: timestamp,
    accepted_at: timestamp.nullable(),
    invited_by_key_id: z.string().nullable().meta({ description: 'The API key that created the invitation.' }),
  })
  .meta({ id: 'Invitation' });

export type Invitation = z.infer<typeof invitationSchema>;

export function presentInvitation(row: InvitationRow): Invitation {
  return {
    id: row.id,
    network_id: row.networkId,
    email: row.email,
    role: row.role,
    status: invitationStatus(row),
    expires_at: iso(row.expiresAt),
    created_at: iso(row.createdAt),
    accepted_at: isoOrNull(row.acceptedAt),
    invited_by_key_id: row.createdByKeyId,
  };
}
