-- The role an owner (a person or a service account) holds in a network right now: what caps every
-- scope of the owner's keys (docs/keys-and-roles.md, "What a key can do: its access"). The ONE
-- definition: principal resolution and every key view (through api_key_access), the minting check
-- and invitation acceptance (through owner_role) all read it. One row; role NULL = no access there.
-- A set-returning SQL function so that Postgres inlines it into the queries that join it (a scalar
-- SQL function with sub-selects is not inlined: per-scope calls made principal resolution 7x slower
-- for a key with 60 scopes).
CREATE FUNCTION owner_role_in(p_user_id text, p_service_account_id text, p_network_id text) RETURNS TABLE (role "role")
LANGUAGE sql STABLE AS $$
  SELECT CASE
    WHEN p_service_account_id IS NOT NULL THEN (
      SELECT sa.role FROM service_accounts sa
       WHERE sa.id = p_service_account_id AND sa.network_id = p_network_id AND sa.deleted_at IS NULL)
    ELSE COALESCE(
      (SELECT m.role FROM memberships m
        WHERE m.user_id = p_user_id AND m.network_id = p_network_id AND m.status = 'active'),
      -- The operator: a person holding an active super_user key administers every network, so
      -- the scoped keys a super_user made for itself work; they stop with its last super_user key.
      (SELECT 'administrator'::"role" WHERE EXISTS (
        SELECT 1 FROM api_keys su
         WHERE su.user_id = p_user_id AND su.super_user
           AND (su.revoked_at IS NULL OR su.revoked_at > now())
           AND (su.expires_at IS NULL OR su.expires_at > now()))))
  END
  OFFSET 0 -- kept a subquery when inlined, so callers reading `role` twice evaluate it once
$$;
--> statement-breakpoint
CREATE FUNCTION owner_role(p_user_id text, p_service_account_id text, p_network_id text) RETURNS "role"
LANGUAGE sql STABLE AS $$ SELECT role FROM owner_role_in(p_user_id, p_service_account_id, p_network_id) $$;
--> statement-breakpoint
-- Every scope of every key with what it grants and what it does now: the granted role capped by
-- the owner's, NULL where the owner has no access there. Key views show `role`; coverage and
-- rotation use `granted_role`.
CREATE VIEW api_key_access AS
SELECT s.key_id, s.network_id, s.role AS granted_role,
       CASE WHEN o.role IS NULL THEN NULL ELSE least(s.role, o.role) END AS role
  FROM api_key_scopes s
  JOIN api_keys k ON k.id = s.key_id
 CROSS JOIN LATERAL owner_role_in(k.user_id, k.service_account_id, s.network_id) o;
--> statement-breakpoint
-- Reservations committed before their operation by earlier versions: a crash left them `running`
-- for 24 h. Keys are now taken inside the operation's transaction, so a committed row is an answer.
DELETE FROM idempotency_keys WHERE state = 'running';
