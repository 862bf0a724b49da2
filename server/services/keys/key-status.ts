import type { KeyStatus } from '@/domain/statuses';
import type { KeyRow } from './find-keys';

// Pure (no database code): the API schemas that present keys are imported by the console too.
/** Revoked (its revocation, or its rotation's grace, has passed) before expired, else active. `keyIsIn` is the same in SQL. */
export function keyStatus(row: KeyRow, now = Date.now()): KeyStatus {
  if (row.revokedAt && row.revokedAt.getTime() <= now) return 'revoked';
  if (row.expiresAt && row.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}
