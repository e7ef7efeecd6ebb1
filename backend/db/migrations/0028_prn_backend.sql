CREATE TABLE "prn_projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"framework" text NOT NULL,
	"consensus" text NOT NULL,
	"cloud" text NOT NULL,
	"city_node_id" integer NOT NULL,
	"node_count" integer NOT NULL,
	"host_config" text NOT NULL,
	"data_capacity_gb" integer NOT NULL,
	"cycle" smallint NOT NULL,
	"auth_user" text NOT NULL,
	"password_sealed" text,
	"status" smallint DEFAULT 1 NOT NULL,
	"fail_reason" text,
	"price_cents" bigint NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"suspended" boolean DEFAULT false NOT NULL,
	"renewal_bill_id" integer,
	"purge_at" timestamp with time zone,
	"purged_at" timestamp with time zone,
	"bill_id" integer,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "prn_upgrades" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"update_type" smallint NOT NULL,
	"from_value" text NOT NULL,
	"to_value" text NOT NULL,
	"price_diff_cents" bigint NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"fail_reason" text,
	"bill_id" integer,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "prn_projects" ADD CONSTRAINT "prn_projects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prn_projects" ADD CONSTRAINT "prn_projects_city_node_id_city_nodes_id_fk" FOREIGN KEY ("city_node_id") REFERENCES "public"."city_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prn_projects" ADD CONSTRAINT "prn_projects_renewal_bill_id_bills_id_fk" FOREIGN KEY ("renewal_bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prn_projects" ADD CONSTRAINT "prn_projects_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prn_upgrades" ADD CONSTRAINT "prn_upgrades_project_id_prn_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."prn_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prn_upgrades" ADD CONSTRAINT "prn_upgrades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "prn_upgrades" ADD CONSTRAINT "prn_upgrades_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "prn_projects_user_idem" ON "prn_projects" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "prn_projects_live_name" ON "prn_projects" USING btree ("name") WHERE purged_at is null;--> statement-breakpoint
CREATE INDEX "prn_projects_user" ON "prn_projects" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "prn_upgrades_user_idem" ON "prn_upgrades" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "prn_upgrades_project" ON "prn_upgrades" USING btree ("project_id","id");