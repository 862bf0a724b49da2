import type { OfferRow, OfferStatus } from './find-offers';

// Pure (no database code): the API schemas that present offers are imported by the console too.
/** An open offer past its expires_at is expired, whether or not the cron has marked it yet. */
export function offerStatus(row: OfferRow, now = Date.now()): OfferStatus {
  if (row.status === 'open' && row.expiresAt && row.expiresAt.getTime() <= now) return 'expired';
  return row.status;
}
