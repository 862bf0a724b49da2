-- A network's mode (domain/modes.ts). Until now every key took the instance's APP_ENV, so the
-- networks that exist take it too: live if the instance has ever made a live key, else test.
ALTER TABLE "networks" ADD COLUMN "mode" text;--> statement-breakpoint
UPDATE "networks" SET "mode" = CASE WHEN EXISTS (SELECT 1 FROM "api_keys" WHERE "environment" = 'live') THEN 'live' ELSE 'test' END;--> statement-breakpoint
ALTER TABLE "networks" ALTER COLUMN "mode" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "networks" ADD CONSTRAINT "networks_mode" CHECK ("networks"."mode" in ('test', 'live'));--> statement-breakpoint
-- A delivery is marked as a test for a test event (which has no event) and for every delivery of a test network.
ALTER TABLE "webhook_deliveries" DROP CONSTRAINT "webhook_deliveries_test_has_no_event";--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_test_event_is_test" CHECK ("webhook_deliveries"."event_id" is not null or "webhook_deliveries"."test");
