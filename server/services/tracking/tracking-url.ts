import { TRACKING_MACROS } from '@/domain/measurement';
import { config } from '@/server/config';

/**
 * An accepted offer's tracking URL, with each macro's placeholder for the host to replace with its
 * ad server's own (docs/measurement.md); null before acceptance. (No Node built-in here: the offer's
 * presenter, which the console bundles, calls it.)
 */
export function trackingUrl(token: string | null): string | null {
  if (!token) return null;
  const query = Object.entries(TRACKING_MACROS)
    .map(([name, { placeholder }]) => `${name}=${placeholder}`)
    .join('&');
  return `${config().publicUrl}/t/${token}?${query}`;
}
