/**
 * How long keys of a network may live (`max_key_lifetime_days`, docs/keys-and-roles.md): a network
 * created in live mode starts at a year; in test mode, and for networks made before the setting
 * existed, there is no limit until an administrator sets one.
 */
export const LIVE_NETWORK_KEY_LIFETIME_DAYS = 365;
/** The longest limit a network may set (ten years). */
export const MAX_KEY_LIFETIME_DAYS = 3650;
