import { sql } from 'drizzle-orm';
import { bigint, boolean, check, index, pgTable, pgView, primaryKey, text } from 'drizzle-orm/pg-core';
import { at, createdAt, lifecycle, roleEnum } from './columns';
import { networkReference } from './networks';

export const users = pgTable('users', {
  id: text('id').primaryKey(),
  email: text('email').unique(),
  name: text('name').notNull(),
  /**
   * When the person first showed they read mail at `email`: an email sign-in, or (in live mode)
   * an invitation accepted with the emailed token alone. Null: the account was made on an
   * inviter's word (test mode, or before invitations were emailed).
   */
  emailProvenAt: at('email_proven_at'),
  ...lifecycle,
});

/** Non-human identities that belong to one network (spec: Authentication rule 10). */
export const serviceAccounts = pgTable(
  'service_accounts',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    name: text('name').notNull(),
    role: roleEnum('role').notNull(),
    deletedAt: at('deleted_at'),
    ...lifecycle,
  },
  (t) => [index('service_accounts_network_idx').on(t.networkId)],
);

export const apiKeys = pgTable(
  'api_keys',
  {
    id: text('id').primaryKey(),
    name: text('name').notNull(),
    /** SHA-256 of the whole token, hex. The token itself is never stored. */
    tokenHash: text('token_hash').notNull().unique(),
    /** The first characters of the token, shown so a person can recognise a key. */
    start: text('start').notNull(),
    environment: text('environment', { enum: ['test', 'live'] }).notNull(),
    superUser: boolean('super_user').notNull().default(false),
    userId: text('user_id').references(() => users.id),
    serviceAccountId: text('service_account_id').references(() => serviceAccounts.id),
    createdByKeyId: text('created_by_key_id'),
    /**
     * The owner got this key themselves (on accepting an invitation, at start-up, or from one of
     * their own such keys), so it proves who they are; a key an administrator minted or rotated
     * for them does not (it may accept no invitation for them).
     */
    identifiesOwner: boolean('identifies_owner').notNull().default(false),
    /**
     * A console session's key, got by signing in (an emailed link): it expires within
     * SESSION_LIFETIME_HOURS and ends at sign-out (`expires_at` set to then). Its normal end does
     * not end the invitations it sent; a revocation does.
     */
    session: boolean('session').notNull().default(false),
    /** Set on a rotated key: the key that replaced it (the old one keeps working until revoked_at). */
    replacedByKeyId: text('replaced_by_key_id'),
    expiresAt: at('expires_at'),
    revokedAt: at('revoked_at'),
    /** Written at most once a minute per key, never on every request. */
    lastUsedAt: at('last_used_at'),
    ...createdAt,
  },
  (t) => [
    index('api_keys_user_idx').on(t.userId),
    index('api_keys_service_account_idx').on(t.serviceAccountId),
    // Key lists page by id within an owner.
    index('api_keys_user_id_idx').on(t.userId, t.id),
    // A key's rotation lineage, walked backwards when it is revoked (its invitations die with it).
    index('api_keys_replaced_by_idx').on(t.replacedByKeyId),
    // The expiring-keys notice looks for keys that can still expire (server/services/notifications).
    index('api_keys_expiry_idx')
      .on(t.expiresAt)
      .where(sql`${t.revokedAt} is null and not ${t.session}`),
    check('api_keys_one_owner', sql`(${t.userId} is null) <> (${t.serviceAccountId} is null)`),
  ],
);

/** One row per (key, network): the role that key was granted there. */
export const apiKeyScopes = pgTable(
  'api_key_scopes',
  {
    keyId: text('key_id')
      .notNull()
      .references(() => apiKeys.id),
    networkId: networkReference(),
    role: roleEnum('role').notNull(),
  },
  (t) => [primaryKey({ columns: [t.keyId, t.networkId] }), index('api_key_scopes_network_idx').on(t.networkId)],
);

/**
 * Each scope of each key: the role granted, and the role it acts with now (`role`: the grant
 * capped by the owner's standing, `owner_role()`; null where the owner has no access). Defined
 * in migration 0004 with that function — the one definition of a key's access.
 */
export const apiKeyAccess = pgView('api_key_access', {
  keyId: text('key_id').notNull(),
  networkId: text('network_id').notNull(),
  grantedRole: roleEnum('granted_role').notNull(),
  role: roleEnum('role'),
}).existing();

/**
 * An invitation to join a network. The token (`inv_…`) is returned once at
 * creation and stored only as a hash; it authenticates POST /v1/invitations/accept.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: text('id').primaryKey(),
    networkId: networkReference(),
    email: text('email').notNull(),
    role: roleEnum('role').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    status: text('status', { enum: ['pending', 'accepted', 'revoked'] })
      .notNull()
      .default('pending'),
    expiresAt: at('expires_at').notNull(),
    createdByKeyId: text('created_by_key_id'),
    acceptedAt: at('accepted_at'),
    acceptedUserId: text('accepted_user_id').references(() => users.id),
    ...lifecycle,
  },
  (t) => [index('invitations_network_id_idx').on(t.networkId, t.id)],
);

/**
 * A one-time sign-in link, emailed to a person who asked for one (`POST /v1/sign-in/email`). The
 * token (`sil_…`) is only in the email; only its SHA-256 is stored. It works once, until
 * `expires_at` (15 minutes), and gives a session key (`session_key_id`).
 */
export const signInLinks = pgTable(
  'sign_in_links',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    sessionKeyId: text('session_key_id'),
    ...createdAt,
  },
  (t) => [index('sign_in_links_user_idx').on(t.userId, t.createdAt)],
);

/**
 * A person's passkey (WebAuthn credential), registered from a console session
 * (`POST /v1/me/passkeys`). Signing in with it (`POST /v1/sign-in/passkey`) gives a session key as
 * an emailed link does. Public: the authenticator keeps the private key; the service keeps the
 * credential's id, its public key (COSE, base64url) and the authenticator's signature counter.
 */
export const passkeys = pgTable(
  'passkeys',
  {
    id: text('id').primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    credentialId: text('credential_id').notNull().unique(),
    publicKey: text('public_key').notNull(),
    counter: bigint('counter', { mode: 'number' }).notNull().default(0),
    transports: text('transports')
      .array()
      .notNull()
      .default(sql`'{}'::text[]`),
    name: text('name').notNull(),
    lastUsedAt: at('last_used_at'),
    ...createdAt,
  },
  (t) => [index('passkeys_user_idx').on(t.userId, t.id)],
);

/**
 * A WebAuthn challenge, used once within `expires_at` (5 minutes): `register` belongs to the person
 * adding a passkey; `sign_in` to nobody yet (the passkey says whose it is).
 */
export const passkeyChallenges = pgTable(
  'passkey_challenges',
  {
    id: text('id').primaryKey(),
    userId: text('user_id').references(() => users.id),
    purpose: text('purpose', { enum: ['register', 'sign_in'] }).notNull(),
    challenge: text('challenge').notNull(),
    expiresAt: at('expires_at').notNull(),
    usedAt: at('used_at'),
    ...createdAt,
  },
  (t) => [index('passkey_challenges_expires_idx').on(t.expiresAt), check('passkey_challenges_purpose', sql`${t.purpose} in ('register', 'sign_in')`)],
);
