DROP INDEX "creatives_offer_uq";--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "talking_points" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "required_lines" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "creatives" ADD COLUMN "revision" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "creatives" ADD COLUMN "previous_revision_id" text;--> statement-breakpoint
ALTER TABLE "creatives" ADD COLUMN "synthetic_voice" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "creatives" ADD COLUMN "voice_consent_id" text;--> statement-breakpoint
ALTER TABLE "creatives" ADD COLUMN "review_token_hash" text;--> statement-breakpoint
ALTER TABLE "creatives" ADD COLUMN "review_link_expires_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "creatives" ADD COLUMN "reviewed_at" timestamp (3) with time zone;--> statement-breakpoint
ALTER TABLE "creatives" ADD COLUMN "reviewed_by" text;--> statement-breakpoint
ALTER TABLE "creatives" ADD COLUMN "reviewed_by_key_id" text;--> statement-breakpoint
ALTER TABLE "creatives" ADD COLUMN "review_comment" text;--> statement-breakpoint
CREATE UNIQUE INDEX "creatives_offer_revision_uq" ON "creatives" USING btree ("offer_id","revision");--> statement-breakpoint
CREATE INDEX "creatives_network_podcast_status_idx" ON "creatives" USING btree ("network_id","podcast_id","status");--> statement-breakpoint
CREATE UNIQUE INDEX "creatives_offer_uq" ON "creatives" USING btree ("offer_id") WHERE revision = 1;--> statement-breakpoint
ALTER TABLE "creatives" ADD CONSTRAINT "creatives_review_token_hash_unique" UNIQUE("review_token_hash");--> statement-breakpoint
-- Audio made before review existed was already offered for delivery: it stays so, as approved.
UPDATE "creatives" SET "status" = 'approved' WHERE "status" = 'ready';
