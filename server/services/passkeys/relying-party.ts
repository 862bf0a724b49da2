import { config } from '@/server/config';

/** Passkeys are made for this product's name. */
export const RELYING_PARTY_NAME = 'Ad network service';

/**
 * The relying party of every passkey: the console's own origin, PUBLIC_URL (default
 * `http://localhost:$PORT`). Its host name is the passkey's RP ID, so passkeys made at one host do
 * not work at another; changing PUBLIC_URL's host orphans the passkeys made before.
 */
export function relyingParty(): { id: string; origin: string; name: string } {
  const url = new URL(config().publicUrl);
  return { id: url.hostname, origin: url.origin, name: RELYING_PARTY_NAME };
}
