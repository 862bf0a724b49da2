CREATE TABLE "flights" (
	"id" text PRIMARY KEY NOT NULL,
	"network_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"name" text NOT NULL,
	"starts_at" timestamp (3) with time zone NOT NULL,
	"ends_at" timestamp (3) with time zone NOT NULL,
	"placement" text NOT NULL,
	"max_duration_seconds" integer DEFAULT 60 NOT NULL,
	"pricing_model" text NOT NULL,
	"amount_cents" bigint NOT NULL,
	"currency" text NOT NULL,
	"impression_goal" bigint,
	"external_order_id" text,
	"deleted_at" timestamp (3) with time zone,
	"version" integer DEFAULT 1 NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "flights" ADD CONSTRAINT "flights_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "flights" ADD CONSTRAINT "flights_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "flights_network_id_idx" ON "flights" USING btree ("network_id","id");--> statement-breakpoint
CREATE INDEX "flights_network_campaign_id_idx" ON "flights" USING btree ("network_id","campaign_id","id");