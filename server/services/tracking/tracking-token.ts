import { randomBytes } from 'node:crypto';
import { TRACKING_TOKEN_PREFIX } from '@/domain/measurement';

/** A new tracking token: `trk_` and 128 random bits in hex. It names no network and grants nothing: it only says which offer a hit is for. */
export function newTrackingToken(): string {
  return `${TRACKING_TOKEN_PREFIX}${randomBytes(16).toString('hex')}`;
}
