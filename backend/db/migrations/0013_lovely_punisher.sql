CREATE TABLE "price_changes" (
	"id" serial PRIMARY KEY NOT NULL,
	"area" text NOT NULL,
	"item_id" integer NOT NULL,
	"field" text NOT NULL,
	"old_cents" bigint NOT NULL,
	"new_cents" bigint NOT NULL,
	"author_id" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "config_upgrades" (
	"id" serial PRIMARY KEY NOT NULL,
	"upgrade_no" text NOT NULL,
	"app_id" integer NOT NULL,
	"ver_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"upgrade_type" smallint NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"review_state" smallint DEFAULT 1 NOT NULL,
	"deploy_state" smallint DEFAULT 1 NOT NULL,
	"before" jsonb NOT NULL,
	"after" jsonb NOT NULL,
	"amount_cents" bigint NOT NULL,
	"payment_cycle" smallint NOT NULL,
	"cycle_end" timestamp with time zone NOT NULL,
	"bill_id" integer,
	"review_comments" text,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"deploy_report" jsonb,
	"deployed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "config_upgrades_upgrade_no_unique" UNIQUE("upgrade_no")
);
--> statement-breakpoint
ALTER TABLE "city_nodes" ADD COLUMN "peer_price_per_month_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "cycle_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "cycle_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "renewal_bill_id" integer;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_upgrades" ADD CONSTRAINT "config_upgrades_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_upgrades" ADD CONSTRAINT "config_upgrades_ver_id_app_versions_id_fk" FOREIGN KEY ("ver_id") REFERENCES "public"."app_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_upgrades" ADD CONSTRAINT "config_upgrades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_upgrades" ADD CONSTRAINT "config_upgrades_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_upgrades" ADD CONSTRAINT "config_upgrades_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_changes_time" ON "price_changes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "price_changes_item" ON "price_changes" USING btree ("area","item_id");--> statement-breakpoint
CREATE INDEX "config_upgrades_app" ON "config_upgrades" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "config_upgrades_review" ON "config_upgrades" USING btree ("review_state","created_at");--> statement-breakpoint
CREATE INDEX "config_upgrades_user" ON "config_upgrades" USING btree ("user_id","created_at");--> statement-breakpoint
ALTER TABLE "apps" ADD CONSTRAINT "apps_renewal_bill_id_bills_id_fk" FOREIGN KEY ("renewal_bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;