-- tracking_hits is partitioned by UTC day on received_at (written by hand: drizzle-kit knows no
-- partitions). Its partitions (tracking_hits_pYYYYMMDD) are made by the service at start and by the
-- maintain-tracking cron, days ahead, and dropped after TRACKING_RETENTION_DAYS
-- (server/services/tracking/partitions.ts). Its indexes, made on the parent, are made on each.
CREATE TABLE "delivery_reports" (
	"network_id" text NOT NULL,
	"offer_id" text NOT NULL,
	"day" date NOT NULL,
	"source" text NOT NULL,
	"impressions" bigint NOT NULL,
	"reported_by_key_id" text,
	"reported_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "delivery_reports_network_id_offer_id_day_source_pk" PRIMARY KEY("network_id","offer_id","day","source"),
	CONSTRAINT "delivery_reports_impressions" CHECK ("delivery_reports"."impressions" >= 0)
);
--> statement-breakpoint
CREATE TABLE "tracking_daily" (
	"network_id" text NOT NULL,
	"offer_id" text NOT NULL,
	"day" date NOT NULL,
	"hits" bigint DEFAULT 0 NOT NULL,
	"impressions" bigint DEFAULT 0 NOT NULL,
	"bots" bigint DEFAULT 0 NOT NULL,
	"duplicates" bigint DEFAULT 0 NOT NULL,
	"abnormal" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "tracking_daily_network_id_offer_id_day_pk" PRIMARY KEY("network_id","offer_id","day")
);
--> statement-breakpoint
CREATE TABLE "tracking_hits" (
	"network_id" text NOT NULL,
	"offer_id" text NOT NULL,
	"received_at" timestamp (3) with time zone NOT NULL,
	"episode" text,
	"host_timestamp" timestamp (3) with time zone,
	"request_id" text,
	"user_agent" text,
	"source_hash" "bytea" NOT NULL,
	"dedupe_key" "bytea" NOT NULL,
	"outcome" text NOT NULL,
	CONSTRAINT "tracking_hits_outcome" CHECK ("tracking_hits"."outcome" in ('counted', 'duplicate', 'bot', 'abnormal'))
) PARTITION BY RANGE ("received_at");
--> statement-breakpoint
CREATE TABLE "tracking_salts" (
	"day" date PRIMARY KEY NOT NULL,
	"salt" "bytea" NOT NULL
);
--> statement-breakpoint
CREATE TABLE "tracking_sources" (
	"network_id" text NOT NULL,
	"day" date NOT NULL,
	"source_hash" "bytea" NOT NULL,
	"hits" integer NOT NULL,
	"flagged_at" timestamp (3) with time zone,
	CONSTRAINT "tracking_sources_network_id_day_source_hash_pk" PRIMARY KEY("network_id","day","source_hash")
);
--> statement-breakpoint
ALTER TABLE "offers" ADD COLUMN "tracking_token" text;--> statement-breakpoint
ALTER TABLE "delivery_reports" ADD CONSTRAINT "delivery_reports_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "tracking_daily" ADD CONSTRAINT "tracking_daily_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "tracking_hits_dedupe_idx" ON "tracking_hits" USING btree ("network_id","offer_id","dedupe_key","received_at") WHERE outcome = 'counted';--> statement-breakpoint
CREATE INDEX "tracking_hits_source_idx" ON "tracking_hits" USING btree ("network_id","source_hash","received_at");--> statement-breakpoint
ALTER TABLE "offers" ADD CONSTRAINT "offers_tracking_token_unique" UNIQUE("tracking_token");--> statement-breakpoint
-- Offers accepted before tracking existed get their tracking token now: trk_ and 128 random bits in hex.
UPDATE "offers" SET "tracking_token" = 'trk_' || replace(gen_random_uuid()::text, '-', '') WHERE "status" = 'accepted' AND "tracking_token" IS NULL;
