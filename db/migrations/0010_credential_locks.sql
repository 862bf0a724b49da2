-- Credentials are linearizable (docs/keys-and-roles.md, "Decided at commit"). A write a key makes
-- holds its owner's credential lock (one per person or service account) shared from the first
-- statement of its transaction to the end, then re-reads the key (server/auth/credential-lock.ts).
-- Every change that can take access away takes the same lock exclusively, here in triggers, so that
-- no code path can forget it: it waits for the owner's writes in flight, and writes that come later
-- wait for it, then see it. An advisory lock rather than a share lock on the key's row: Postgres
-- queues a shared request behind a waiting exclusive one, while a share row lock is granted past a
-- waiting UPDATE, so a stream of writes could keep a revocation waiting for as long as it lasts.
-- 7242032 is this lock's class (idempotency keys use 7242031).
CREATE FUNCTION hold_credential(p_owner text) RETURNS void
LANGUAGE sql AS $$ SELECT pg_advisory_xact_lock_shared(7242032, hashtext(p_owner)) $$;
--> statement-breakpoint
CREATE FUNCTION withdraw_credential(p_owner text) RETURNS void
LANGUAGE sql AS $$ SELECT pg_advisory_xact_lock(7242032, hashtext(p_owner)) $$;
--> statement-breakpoint
-- A key revoked, expiring, rotated (revoked at the end of its grace) or changing hands; a super_user
-- key's owner is the operator, whose scoped keys work through it (owner_role()).
CREATE FUNCTION api_key_withdrawn() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM withdraw_credential(coalesce(OLD.user_id, OLD.service_account_id));
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER api_key_withdrawn BEFORE UPDATE ON api_keys FOR EACH ROW
WHEN (OLD.revoked_at IS DISTINCT FROM NEW.revoked_at OR OLD.expires_at IS DISTINCT FROM NEW.expires_at
   OR OLD.super_user IS DISTINCT FROM NEW.super_user OR OLD.user_id IS DISTINCT FROM NEW.user_id
   OR OLD.service_account_id IS DISTINCT FROM NEW.service_account_id)
EXECUTE FUNCTION api_key_withdrawn();
--> statement-breakpoint
CREATE TRIGGER api_key_deleted BEFORE DELETE ON api_keys FOR EACH ROW EXECUTE FUNCTION api_key_withdrawn();
--> statement-breakpoint
-- A scope lowered (demotion) or cut (removal, an administrator taking a key out of the network).
CREATE FUNCTION api_key_scope_withdrawn() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM withdraw_credential(coalesce(k.user_id, k.service_account_id)) FROM api_keys k WHERE k.id = OLD.key_id;
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER api_key_scope_withdrawn BEFORE UPDATE OR DELETE ON api_key_scopes FOR EACH ROW
EXECUTE FUNCTION api_key_scope_withdrawn();
--> statement-breakpoint
-- A member removed or demoted (a promotion or a re-invited member's return takes nothing away).
CREATE FUNCTION membership_withdrawn() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM withdraw_credential(OLD.user_id);
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER membership_withdrawn BEFORE UPDATE ON memberships FOR EACH ROW
WHEN (OLD.status = 'active' AND (NEW.status IS DISTINCT FROM 'active' OR NEW.role IS DISTINCT FROM OLD.role
   OR NEW.user_id IS DISTINCT FROM OLD.user_id OR NEW.network_id IS DISTINCT FROM OLD.network_id))
EXECUTE FUNCTION membership_withdrawn();
--> statement-breakpoint
CREATE TRIGGER membership_deleted BEFORE DELETE ON memberships FOR EACH ROW EXECUTE FUNCTION membership_withdrawn();
--> statement-breakpoint
-- A service account deleted, or its role or network changed.
CREATE FUNCTION service_account_withdrawn() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM withdraw_credential(OLD.id);
  IF TG_OP = 'DELETE' THEN RETURN OLD; END IF;
  RETURN NEW;
END $$;
--> statement-breakpoint
CREATE TRIGGER service_account_withdrawn BEFORE UPDATE ON service_accounts FOR EACH ROW
WHEN (OLD.deleted_at IS DISTINCT FROM NEW.deleted_at OR OLD.role IS DISTINCT FROM NEW.role
   OR OLD.network_id IS DISTINCT FROM NEW.network_id)
EXECUTE FUNCTION service_account_withdrawn();
--> statement-breakpoint
CREATE TRIGGER service_account_deleted BEFORE DELETE ON service_accounts FOR EACH ROW EXECUTE FUNCTION service_account_withdrawn();
--> statement-breakpoint
-- An owner's standing as of this statement rather than its transaction's start (now()): a write's
-- transaction reads it again after waiting for a change that began after it did.
CREATE OR REPLACE FUNCTION owner_role_in(p_user_id text, p_service_account_id text, p_network_id text) RETURNS TABLE (role "role")
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
           AND (su.revoked_at IS NULL OR su.revoked_at > statement_timestamp())
           AND (su.expires_at IS NULL OR su.expires_at > statement_timestamp()))))
  END
  OFFSET 0 -- kept a subquery when inlined, so callers reading `role` twice evaluate it once
$$;
