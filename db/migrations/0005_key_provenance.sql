ALTER TABLE "api_keys" ADD COLUMN "identifies_owner" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Keys made before provenance was kept: those the platform issued (start-up, the CLI, an accepted
-- invitation) and those a key of the same owner made identify their owner; the rest were minted
-- or rotated by an administrator and do not.
UPDATE "api_keys" k SET "identifies_owner" = true
 WHERE k."created_by_key_id" IS NULL
    OR EXISTS (SELECT 1 FROM "api_keys" c WHERE c."id" = k."created_by_key_id"
                AND (c."user_id" = k."user_id" OR c."service_account_id" = k."service_account_id"));
