CREATE TABLE "alert_firings" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"kind" text NOT NULL,
	"threshold" smallint NOT NULL,
	"period" text NOT NULL,
	"value_cents" bigint NOT NULL,
	"limit_cents" bigint NOT NULL,
	"fired_at" timestamp with time zone NOT NULL,
	CONSTRAINT "alert_firings_kind" CHECK ("alert_firings"."kind" in ('budget', 'balance'))
);
--> statement-breakpoint
CREATE TABLE "alert_settings" (
	"account_id" integer PRIMARY KEY NOT NULL,
	"monthly_budget_cents" bigint,
	"balance_floor_cents" bigint,
	"balance_alerted" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" integer,
	CONSTRAINT "alert_settings_budget" CHECK ("alert_settings"."monthly_budget_cents" is null or "alert_settings"."monthly_budget_cents" > 0),
	CONSTRAINT "alert_settings_floor" CHECK ("alert_settings"."balance_floor_cents" is null or "alert_settings"."balance_floor_cents" > 0)
);
--> statement-breakpoint
ALTER TABLE "alert_firings" ADD CONSTRAINT "alert_firings_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_firings_once" ON "alert_firings" USING btree ("account_id","kind","threshold","period");--> statement-breakpoint
CREATE INDEX "alert_firings_account_time" ON "alert_firings" USING btree ("account_id","fired_at");