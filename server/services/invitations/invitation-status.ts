import type { InvitationRow } from './find-invitations';

/** What the API shows: `expired` is a pending invitation past its expiry (not a stored state). */
export type InvitationStatus = InvitationRow['status'] | 'expired';

/** The shape of an invitation token (`inv_` and 40 base62 characters). */
export const INVITATION_TOKEN_PATTERN = /^inv_[0-9A-Za-z]{40}$/;

// Pure (no database code): the API schemas that present invitations are imported by the console too.
export function invitationStatus(row: InvitationRow, now = Date.now()): InvitationStatus {
  if (row.status === 'pending' && row.expiresAt.getTime() <= now) return 'expired';
  return row.status;
}
