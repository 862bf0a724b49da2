ALTER TABLE "webhook_deliveries" ALTER COLUMN "event_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD COLUMN "test" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_test_has_no_event" CHECK ("webhook_deliveries"."test" = ("webhook_deliveries"."event_id" is null));