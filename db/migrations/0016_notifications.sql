CREATE TABLE "notification_opt_outs" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notification_opt_outs_user_id_kind_pk" PRIMARY KEY("user_id","kind")
);
--> statement-breakpoint
CREATE TABLE "notifications_sent" (
	"user_id" text NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"day" date DEFAULT (now() at time zone 'utc')::date NOT NULL,
	"occasion" text,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "notifications_sent_user_id_kind_subject_id_day_pk" PRIMARY KEY("user_id","kind","subject_id","day")
);
--> statement-breakpoint
ALTER TABLE "notification_opt_outs" ADD CONSTRAINT "notification_opt_outs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notifications_sent_occasion_uq" ON "notifications_sent" USING btree ("user_id","kind","subject_id","occasion");--> statement-breakpoint
CREATE INDEX "notifications_sent_subject_idx" ON "notifications_sent" USING btree ("kind","subject_id");--> statement-breakpoint
CREATE INDEX "notifications_sent_created_idx" ON "notifications_sent" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "api_keys_expiry_idx" ON "api_keys" USING btree ("expires_at") WHERE "api_keys"."revoked_at" is null and not "api_keys"."session";