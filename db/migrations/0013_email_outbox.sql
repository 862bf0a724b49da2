CREATE TABLE "emails" (
	"id" text PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"to_address" text NOT NULL,
	"subject" text NOT NULL,
	"sealed_message" text,
	"status" text DEFAULT 'queued' NOT NULL,
	"sent_via" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"sent_at" timestamp (3) with time zone,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "emails_to_address_idx" ON "emails" USING btree ("to_address","id");