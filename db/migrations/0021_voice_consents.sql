CREATE TABLE "voice_consents" (
	"id" text PRIMARY KEY NOT NULL,
	"network_id" text NOT NULL,
	"podcast_id" text NOT NULL,
	"host_name" text NOT NULL,
	"host_email" text NOT NULL,
	"scope" text NOT NULL,
	"advertiser_ids" text[] DEFAULT '{}'::text[] NOT NULL,
	"expires_at" timestamp (3) with time zone,
	"status" text DEFAULT 'pending' NOT NULL,
	"token_hash" text NOT NULL,
	"link_expires_at" timestamp (3) with time zone NOT NULL,
	"requested_by_key_id" text,
	"granted_at" timestamp (3) with time zone,
	"refused_at" timestamp (3) with time zone,
	"statement_version" integer,
	"statement_sha256" text,
	"decision_user_agent" text,
	"revoked_at" timestamp (3) with time zone,
	"revoked_by" text,
	"revoked_by_key_id" text,
	"revocation_user_agent" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "voice_consents_token_hash_unique" UNIQUE("token_hash"),
	CONSTRAINT "voice_consents_status" CHECK ("voice_consents"."status" in ('pending', 'granted', 'refused', 'revoked')),
	CONSTRAINT "voice_consents_scope" CHECK (("voice_consents"."scope" = 'all_campaigns') = (cardinality("voice_consents"."advertiser_ids") = 0)),
	CONSTRAINT "voice_consents_decided" CHECK ("voice_consents"."status" = 'pending' or "voice_consents"."status" = 'revoked' or "voice_consents"."statement_sha256" is not null)
);
--> statement-breakpoint
ALTER TABLE "voice_consents" ADD CONSTRAINT "voice_consents_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "voice_consents" ADD CONSTRAINT "voice_consents_podcast_id_podcasts_id_fk" FOREIGN KEY ("podcast_id") REFERENCES "public"."podcasts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "voice_consents_network_id_idx" ON "voice_consents" USING btree ("network_id","id");--> statement-breakpoint
CREATE INDEX "voice_consents_podcast_idx" ON "voice_consents" USING btree ("network_id","podcast_id","id");