import type { Principal } from '@/server/auth/principal';
import type { KeyOwner } from './find-keys';

/** The person or service account a calling key belongs to: whose keys it may manage. */
export function ownerOf(principal: Principal): KeyOwner {
  return principal.userId ? { userId: principal.userId } : { serviceAccountId: principal.serviceAccountId! };
}
