/**
 * A network's mode, and a key's (docs/keys-and-roles.md#test-and-live): `test` networks are
 * sandboxes; `sk_test_` keys are scoped to them and `sk_live_` keys to live ones. Under APP_ENV=test
 * every network is a test network.
 */
export const MODES = ['test', 'live'] as const;
export type Mode = (typeof MODES)[number];
