CREATE TABLE "pub_chain_contracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"name" text NOT NULL,
	"source_kind" text NOT NULL,
	"source" text,
	"main_contract" text,
	"compiler" text,
	"abi" jsonb,
	"bytecode" text,
	"constructor_args" jsonb NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"fail_reason" text,
	"raw_tx" text,
	"tx_hash" text,
	"address" text,
	"block_number" bigint,
	"gas_used" text,
	"attempt" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"deployed_at" timestamp with time zone
);
--> statement-breakpoint
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
CREATE TABLE "test_network_generations" (
	"generation" integer PRIMARY KEY NOT NULL,
	"chain_name" text NOT NULL,
	"reset_by" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_network_generations_chain_name_unique" UNIQUE("chain_name")
);
--> statement-breakpoint
CREATE TABLE "test_service_transitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"test_service_id" integer NOT NULL,
	"event" text NOT NULL,
	"actor" text NOT NULL,
	"from_status" smallint NOT NULL,
	"to_status" smallint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "test_services" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"platform" text NOT NULL,
	"source_kind" text NOT NULL,
	"sources" jsonb NOT NULL,
	"package_name" text,
	"main_contract" text DEFAULT '' NOT NULL,
	"init_params" text DEFAULT '' NOT NULL,
	"status" smallint NOT NULL,
	"app_code" text NOT NULL,
	"fail_reason" text,
	"suggestion" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"chain_name" text,
	"contract_name" text,
	"contract_address" text,
	"abi" jsonb,
	"tx_hash" text,
	"block_number" bigint,
	"deployer_address" text NOT NULL,
	"deployer_key_sealed" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_sealed" text NOT NULL,
	"certificate_pem" text,
	"certificate_key_sealed" text,
	"deployed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "test_services_app_code_unique" UNIQUE("app_code"),
	CONSTRAINT "test_services_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
ALTER TABLE "city_nodes" ADD COLUMN "peer_price_per_month_cents" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "ref_kind" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "ref_id" integer;--> statement-breakpoint
ALTER TABLE "pub_chain_accounts" ADD COLUMN "gas_low_since" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "cycle_start" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "cycle_end" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "apps" ADD COLUMN "renewal_bill_id" integer;--> statement-breakpoint
ALTER TABLE "pub_chain_contracts" ADD CONSTRAINT "pub_chain_contracts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_contracts" ADD CONSTRAINT "pub_chain_contracts_project_id_pub_chain_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."pub_chain_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_contracts" ADD CONSTRAINT "pub_chain_contracts_account_id_pub_chain_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."pub_chain_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_changes" ADD CONSTRAINT "price_changes_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_upgrades" ADD CONSTRAINT "config_upgrades_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_upgrades" ADD CONSTRAINT "config_upgrades_ver_id_app_versions_id_fk" FOREIGN KEY ("ver_id") REFERENCES "public"."app_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_upgrades" ADD CONSTRAINT "config_upgrades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_upgrades" ADD CONSTRAINT "config_upgrades_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "config_upgrades" ADD CONSTRAINT "config_upgrades_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_network_generations" ADD CONSTRAINT "test_network_generations_reset_by_users_id_fk" FOREIGN KEY ("reset_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_service_transitions" ADD CONSTRAINT "test_service_transitions_test_service_id_test_services_id_fk" FOREIGN KEY ("test_service_id") REFERENCES "public"."test_services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_services" ADD CONSTRAINT "test_services_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pub_chain_contracts_project" ON "pub_chain_contracts" USING btree ("project_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pub_chain_contracts_one_under_way" ON "pub_chain_contracts" USING btree ("project_id") WHERE "pub_chain_contracts"."status" in (0, 1);--> statement-breakpoint
CREATE INDEX "price_changes_time" ON "price_changes" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "price_changes_item" ON "price_changes" USING btree ("area","item_id");--> statement-breakpoint
CREATE INDEX "config_upgrades_app" ON "config_upgrades" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "config_upgrades_review" ON "config_upgrades" USING btree ("review_state","created_at");--> statement-breakpoint
CREATE INDEX "config_upgrades_user" ON "config_upgrades" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "test_services_user_name_version" ON "test_services" USING btree ("user_id","name","version");--> statement-breakpoint
CREATE INDEX "test_services_user" ON "test_services" USING btree ("user_id","id");--> statement-breakpoint
ALTER TABLE "apps" ADD CONSTRAINT "apps_renewal_bill_id_bills_id_fk" FOREIGN KEY ("renewal_bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;