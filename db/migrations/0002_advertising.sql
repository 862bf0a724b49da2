CREATE TABLE "advertisers" (
	"id" text PRIMARY KEY NOT NULL,
	"network_id" text NOT NULL,
	"name" text NOT NULL,
	"website" text,
	"contact_email" text,
	"deleted_at" timestamp (3) with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" text PRIMARY KEY NOT NULL,
	"network_id" text NOT NULL,
	"advertiser_id" text NOT NULL,
	"name" text NOT NULL,
	"script" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'draft' NOT NULL,
	"starts_at" timestamp (3) with time zone,
	"ends_at" timestamp (3) with time zone,
	"budget_cents" bigint,
	"currency" text,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "creative_audio" (
	"creative_id" text PRIMARY KEY NOT NULL,
	"bytes" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "creatives" (
	"id" text PRIMARY KEY NOT NULL,
	"network_id" text NOT NULL,
	"offer_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"podcast_id" text NOT NULL,
	"status" text DEFAULT 'generating' NOT NULL,
	"script" text NOT NULL,
	"voice" text NOT NULL,
	"mime_type" text,
	"duration_ms" integer,
	"size_bytes" integer,
	"failure_reason" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"ready_at" timestamp (3) with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "offers" (
	"id" text PRIMARY KEY NOT NULL,
	"network_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"podcast_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"price_cents" bigint,
	"currency" text,
	"expires_at" timestamp (3) with time zone,
	"reject_reason" text,
	"creative_id" text,
	"decided_at" timestamp (3) with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "podcasts" (
	"id" text PRIMARY KEY NOT NULL,
	"network_id" text NOT NULL,
	"name" text NOT NULL,
	"host_name" text NOT NULL,
	"voice" text DEFAULT 'default' NOT NULL,
	"rss_url" text,
	"opt_in_status" text DEFAULT 'not_opted_in' NOT NULL,
	"opted_in_at" timestamp (3) with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "advertisers" ADD CONSTRAINT "advertisers_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_advertiser_id_advertisers_id_fk" FOREIGN KEY ("advertiser_id") REFERENCES "public"."advertisers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "creative_audio" ADD CONSTRAINT "creative_audio_creative_id_creatives_id_fk" FOREIGN KEY ("creative_id") REFERENCES "public"."creatives"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "creatives" ADD CONSTRAINT "creatives_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "creatives" ADD CONSTRAINT "creatives_offer_id_offers_id_fk" FOREIGN KEY ("offer_id") REFERENCES "public"."offers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_podcast_id_podcasts_id_fk" FOREIGN KEY ("podcast_id") REFERENCES "public"."podcasts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "podcasts" ADD CONSTRAINT "podcasts_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "advertisers_network_id_idx" ON "advertisers" USING btree ("network_id","id");--> statement-breakpoint
CREATE INDEX "campaigns_network_id_idx" ON "campaigns" USING btree ("network_id","id");--> statement-breakpoint
CREATE INDEX "campaigns_network_status_id_idx" ON "campaigns" USING btree ("network_id","status","id");--> statement-breakpoint
CREATE INDEX "campaigns_network_advertiser_id_idx" ON "campaigns" USING btree ("network_id","advertiser_id","id");--> statement-breakpoint
CREATE INDEX "creatives_network_id_idx" ON "creatives" USING btree ("network_id","id");--> statement-breakpoint
CREATE INDEX "creatives_network_status_id_idx" ON "creatives" USING btree ("network_id","status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "creatives_offer_uq" ON "creatives" USING btree ("offer_id");--> statement-breakpoint
CREATE INDEX "offers_network_id_idx" ON "offers" USING btree ("network_id","id");--> statement-breakpoint
CREATE INDEX "offers_network_status_id_idx" ON "offers" USING btree ("network_id","status","id");--> statement-breakpoint
CREATE INDEX "offers_network_campaign_id_idx" ON "offers" USING btree ("network_id","campaign_id","id");--> statement-breakpoint
CREATE INDEX "offers_network_podcast_id_idx" ON "offers" USING btree ("network_id","podcast_id","id");--> statement-breakpoint
CREATE INDEX "offers_open_expires_idx" ON "offers" USING btree ("expires_at") WHERE status = 'open';--> statement-breakpoint
CREATE INDEX "podcasts_network_id_idx" ON "podcasts" USING btree ("network_id","id");