CREATE TABLE "flight_pacing_alerts" (
	"network_id" text NOT NULL,
	"flight_id" text NOT NULL,
	"kind" text NOT NULL,
	"day" date NOT NULL,
	"created_at" timestamp (3) with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "flight_pacing_alerts_network_id_flight_id_kind_day_pk" PRIMARY KEY("network_id","flight_id","kind","day"),
	CONSTRAINT "flight_pacing_alerts_kind" CHECK ("flight_pacing_alerts"."kind" in ('goal_reached', 'underdelivering'))
);
--> statement-breakpoint
ALTER TABLE "flight_pacing_alerts" ADD CONSTRAINT "flight_pacing_alerts_network_id_networks_id_fk" FOREIGN KEY ("network_id") REFERENCES "public"."networks"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "flight_pacing_alerts_goal_reached_uq" ON "flight_pacing_alerts" USING btree ("network_id","flight_id") WHERE kind = 'goal_reached';