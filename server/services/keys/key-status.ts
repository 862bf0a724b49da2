import type { KeyRow } from './find-keys';

// Pure (no database code): the API schemas that present keys are imported by the console too.
export function keyStatus(row: KeyRow, now = Date.now()): 'active' | 'expired' | 'revoked' {
  if (row.revokedAt && row.revokedAt.getTime() <= now) return 'revoked';
  if (row.expiresAt && row.expiresAt.getTime() <= now) return 'expired';
  return 'active';
}
