ALTER TABLE "advertisers" ADD COLUMN "categories" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "competitive_separation" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "flight_id" text;--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "terms" jsonb;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "excluded_categories" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "podcasts" ADD COLUMN "blocked_advertiser_ids" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_flight_id_flights_id_fk" FOREIGN KEY ("flight_id") REFERENCES "public"."flights"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "offers_network_flight_id_idx" ON "offers" USING btree ("network_id","flight_id","id");