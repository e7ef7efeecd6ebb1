CREATE TABLE "pub_chain_accounts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"name" text NOT NULL,
	"address" text NOT NULL,
	"key_type" smallint NOT NULL,
	"public_key" text,
	"key_sealed" text,
	"gas_warning_wei" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pub_chain_daily_use" (
	"project_id" integer NOT NULL,
	"day" date NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "pub_chain_daily_use_project_id_day_pk" PRIMARY KEY("project_id","day"),
	CONSTRAINT "pub_chain_daily_use_nonneg" CHECK ("pub_chain_daily_use"."requests" >= 0)
);
--> statement-breakpoint
CREATE TABLE "pub_chain_gas" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"bill_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"wei" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"tx_hash" text,
	"fail_reason" text,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pub_chain_meter" (
	"project_id" integer NOT NULL,
	"day" date NOT NULL,
	"method" text NOT NULL,
	"requests" integer DEFAULT 0 NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "pub_chain_meter_project_id_day_method_pk" PRIMARY KEY("project_id","day","method")
);
--> statement-breakpoint
CREATE TABLE "pub_chain_orgs" (
	"id" serial PRIMARY KEY NOT NULL,
	"org_code" text NOT NULL,
	"city_node_id" integer NOT NULL,
	"app_type" smallint DEFAULT 1 NOT NULL,
	"plan_name" text NOT NULL,
	"plan_name_zh" text NOT NULL,
	"price_cents" bigint NOT NULL,
	"period_days" integer NOT NULL,
	"project_max" integer NOT NULL,
	"day_req_min" integer NOT NULL,
	"day_req_max" integer NOT NULL,
	"frameworks" jsonb NOT NULL,
	"selling" boolean DEFAULT true NOT NULL,
	CONSTRAINT "pub_chain_orgs_org_code_unique" UNIQUE("org_code")
);
--> statement-breakpoint
CREATE TABLE "pub_chain_plans" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"org_id" integer NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"bill_id" integer,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pub_chain_project_transitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"event" text NOT NULL,
	"actor" text NOT NULL,
	"from_status" smallint NOT NULL,
	"to_status" smallint NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "pub_chain_projects" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"plan_id" integer NOT NULL,
	"name" text NOT NULL,
	"framework" text NOT NULL,
	"chain" text NOT NULL,
	"daily_requests" integer NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"fail_reason" text,
	"key_hash" text,
	"key_sealed" text,
	"key_hint" text,
	"key_enabled" boolean DEFAULT false NOT NULL,
	"key_created_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "pub_chain_projects_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
ALTER TABLE "pub_chain_accounts" ADD CONSTRAINT "pub_chain_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_accounts" ADD CONSTRAINT "pub_chain_accounts_project_id_pub_chain_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."pub_chain_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_daily_use" ADD CONSTRAINT "pub_chain_daily_use_project_id_pub_chain_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."pub_chain_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_gas" ADD CONSTRAINT "pub_chain_gas_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_gas" ADD CONSTRAINT "pub_chain_gas_account_id_pub_chain_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."pub_chain_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_gas" ADD CONSTRAINT "pub_chain_gas_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_meter" ADD CONSTRAINT "pub_chain_meter_project_id_pub_chain_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."pub_chain_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_orgs" ADD CONSTRAINT "pub_chain_orgs_city_node_id_city_nodes_id_fk" FOREIGN KEY ("city_node_id") REFERENCES "public"."city_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_plans" ADD CONSTRAINT "pub_chain_plans_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_plans" ADD CONSTRAINT "pub_chain_plans_org_id_pub_chain_orgs_id_fk" FOREIGN KEY ("org_id") REFERENCES "public"."pub_chain_orgs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_plans" ADD CONSTRAINT "pub_chain_plans_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_project_transitions" ADD CONSTRAINT "pub_chain_project_transitions_project_id_pub_chain_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."pub_chain_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_projects" ADD CONSTRAINT "pub_chain_projects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_projects" ADD CONSTRAINT "pub_chain_projects_plan_id_pub_chain_plans_id_fk" FOREIGN KEY ("plan_id") REFERENCES "public"."pub_chain_plans"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "pub_chain_accounts_user_name" ON "pub_chain_accounts" USING btree ("user_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "pub_chain_accounts_user_address" ON "pub_chain_accounts" USING btree ("user_id","address");--> statement-breakpoint
CREATE UNIQUE INDEX "pub_chain_gas_user_idem" ON "pub_chain_gas" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "pub_chain_gas_account" ON "pub_chain_gas" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pub_chain_plans_user_org" ON "pub_chain_plans" USING btree ("user_id","org_id");--> statement-breakpoint
CREATE UNIQUE INDEX "pub_chain_plans_user_idem" ON "pub_chain_plans" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE UNIQUE INDEX "pub_chain_projects_user_name" ON "pub_chain_projects" USING btree ("user_id","name");--> statement-breakpoint
CREATE INDEX "pub_chain_projects_plan" ON "pub_chain_projects" USING btree ("plan_id");