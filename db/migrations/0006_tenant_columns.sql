-- Every tenant table carries network_id, so that each statement can name its network (the Citus
-- plan in docs/SCALING.md routes by it). Rows made before are backfilled from their parent.
ALTER TABLE "creative_audio" ADD COLUMN "network_id" text;--> statement-breakpoint
UPDATE "creative_audio" a SET "network_id" = c."network_id" FROM "creatives" c WHERE c."id" = a."creative_id";--> statement-breakpoint
ALTER TABLE "creative_audio" ALTER COLUMN "network_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD COLUMN "network_id" text;--> statement-breakpoint
UPDATE "webhook_attempts" a SET "network_id" = d."network_id" FROM "webhook_deliveries" d WHERE d."id" = a."delivery_id";--> statement-breakpoint
ALTER TABLE "webhook_attempts" ALTER COLUMN "network_id" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "creative_audio" ADD CONSTRAINT "creative_audio_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_attempts" ADD CONSTRAINT "webhook_attempts_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;
