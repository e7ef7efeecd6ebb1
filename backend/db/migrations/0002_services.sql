CREATE TABLE "app_attachments" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"name" text NOT NULL,
	"file_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_comments" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"text" text NOT NULL,
	"reply" text,
	"replied_at" timestamp with time zone,
	"useful_count" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_functions" (
	"id" serial PRIMARY KEY NOT NULL,
	"ver_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"name" text NOT NULL,
	"func_type" smallint NOT NULL,
	"func" text NOT NULL,
	"parent_id" integer,
	"cross_chain_allowed" boolean DEFAULT false NOT NULL,
	"input_format" text NOT NULL,
	"output_format" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_nodes" (
	"ver_id" integer NOT NULL,
	"city_node_id" integer NOT NULL,
	"tps" integer NOT NULL,
	"capacity_gb" integer NOT NULL,
	"peers" integer NOT NULL,
	"booked_at" timestamp with time zone,
	"contract_address" text,
	"chaincode_address" text,
	CONSTRAINT "app_nodes_ver_id_city_node_id_pk" PRIMARY KEY("ver_id","city_node_id")
);
--> statement-breakpoint
CREATE TABLE "app_role_functions" (
	"role_id" integer NOT NULL,
	"function_id" integer NOT NULL,
	CONSTRAINT "app_role_functions_role_id_function_id_pk" PRIMARY KEY("role_id","function_id")
);
--> statement-breakpoint
CREATE TABLE "app_roles" (
	"id" serial PRIMARY KEY NOT NULL,
	"ver_id" integer NOT NULL,
	"name" text NOT NULL,
	"description" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_transitions" (
	"id" serial PRIMARY KEY NOT NULL,
	"ver_id" integer NOT NULL,
	"event" text NOT NULL,
	"from_state" smallint NOT NULL,
	"to_state" smallint NOT NULL,
	"actor_id" integer,
	"actor_kind" text NOT NULL,
	"comments" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "app_versions" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"version" text NOT NULL,
	"ver_state" smallint DEFAULT 1 NOT NULL,
	"wizard_step" text DEFAULT 'basic' NOT NULL,
	"certificate_mode" smallint,
	"ver_upable" boolean DEFAULT true NOT NULL,
	"agreement_accepted_at" timestamp with time zone,
	"cost_cents" bigint,
	"bill_id" integer,
	"bill_state" smallint DEFAULT 1 NOT NULL,
	"submitted_at" timestamp with time zone,
	"approved_at" timestamp with time zone,
	"published_at" timestamp with time zone,
	"test_report" jsonb,
	"deploy_report" jsonb,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "apps" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_code" text NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"industry" text DEFAULT '' NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"introduction" text DEFAULT '' NOT NULL,
	"cover_file_id" integer,
	"framework" text DEFAULT '' NOT NULL,
	"platform_type" text DEFAULT '' NOT NULL,
	"service_type" smallint DEFAULT 1 NOT NULL,
	"free_yn" smallint DEFAULT 0 NOT NULL,
	"is_public" boolean DEFAULT false NOT NULL,
	"payment_cycle" smallint DEFAULT 2 NOT NULL,
	"cross_chain" boolean DEFAULT false NOT NULL,
	"cross_protocol" smallint,
	"cross_app_code" text,
	"cross_status" smallint DEFAULT 0 NOT NULL,
	"contact_name" text DEFAULT '' NOT NULL,
	"contact_mobile" text DEFAULT '' NOT NULL,
	"contact_email" text DEFAULT '' NOT NULL,
	"access_methods" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"current_ver_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "apps_app_code_unique" UNIQUE("app_code")
);
--> statement-breakpoint
CREATE TABLE "chaincode_packages" (
	"id" serial PRIMARY KEY NOT NULL,
	"ver_id" integer NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"language" text NOT NULL,
	"init_params" text DEFAULT '' NOT NULL,
	"main_path" text NOT NULL,
	"file_id" integer NOT NULL,
	"file_name" text NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "refund_requests" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"ver_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"amount_cents" bigint DEFAULT 0 NOT NULL,
	"reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"review_comments" text
);
--> statement-breakpoint
ALTER TABLE "app_attachments" ADD CONSTRAINT "app_attachments_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_attachments" ADD CONSTRAINT "app_attachments_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_comments" ADD CONSTRAINT "app_comments_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_comments" ADD CONSTRAINT "app_comments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_functions" ADD CONSTRAINT "app_functions_ver_id_app_versions_id_fk" FOREIGN KEY ("ver_id") REFERENCES "public"."app_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_functions" ADD CONSTRAINT "app_functions_package_id_chaincode_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."chaincode_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_nodes" ADD CONSTRAINT "app_nodes_ver_id_app_versions_id_fk" FOREIGN KEY ("ver_id") REFERENCES "public"."app_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_nodes" ADD CONSTRAINT "app_nodes_city_node_id_city_nodes_id_fk" FOREIGN KEY ("city_node_id") REFERENCES "public"."city_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_role_functions" ADD CONSTRAINT "app_role_functions_role_id_app_roles_id_fk" FOREIGN KEY ("role_id") REFERENCES "public"."app_roles"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_role_functions" ADD CONSTRAINT "app_role_functions_function_id_app_functions_id_fk" FOREIGN KEY ("function_id") REFERENCES "public"."app_functions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_roles" ADD CONSTRAINT "app_roles_ver_id_app_versions_id_fk" FOREIGN KEY ("ver_id") REFERENCES "public"."app_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_transitions" ADD CONSTRAINT "app_transitions_ver_id_app_versions_id_fk" FOREIGN KEY ("ver_id") REFERENCES "public"."app_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_transitions" ADD CONSTRAINT "app_transitions_actor_id_users_id_fk" FOREIGN KEY ("actor_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_versions" ADD CONSTRAINT "app_versions_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "app_versions" ADD CONSTRAINT "app_versions_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apps" ADD CONSTRAINT "apps_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "apps" ADD CONSTRAINT "apps_cover_file_id_files_id_fk" FOREIGN KEY ("cover_file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chaincode_packages" ADD CONSTRAINT "chaincode_packages_ver_id_app_versions_id_fk" FOREIGN KEY ("ver_id") REFERENCES "public"."app_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chaincode_packages" ADD CONSTRAINT "chaincode_packages_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_ver_id_app_versions_id_fk" FOREIGN KEY ("ver_id") REFERENCES "public"."app_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "refund_requests" ADD CONSTRAINT "refund_requests_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "app_attachments_name" ON "app_attachments" USING btree ("app_id","name");--> statement-breakpoint
CREATE INDEX "app_comments_app" ON "app_comments" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "app_functions_func" ON "app_functions" USING btree ("ver_id","func");--> statement-breakpoint
CREATE INDEX "app_functions_package" ON "app_functions" USING btree ("package_id");--> statement-breakpoint
CREATE INDEX "app_nodes_city" ON "app_nodes" USING btree ("city_node_id");--> statement-breakpoint
CREATE INDEX "app_role_functions_function" ON "app_role_functions" USING btree ("function_id");--> statement-breakpoint
CREATE UNIQUE INDEX "app_roles_name" ON "app_roles" USING btree ("ver_id",lower("name"));--> statement-breakpoint
CREATE INDEX "app_transitions_ver" ON "app_transitions" USING btree ("ver_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "app_versions_app_version" ON "app_versions" USING btree ("app_id","version");--> statement-breakpoint
CREATE INDEX "app_versions_state" ON "app_versions" USING btree ("ver_state");--> statement-breakpoint
CREATE UNIQUE INDEX "apps_name_lower" ON "apps" USING btree (lower("name"));--> statement-breakpoint
CREATE INDEX "apps_user" ON "apps" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "chaincode_packages_name" ON "chaincode_packages" USING btree ("ver_id","name");--> statement-breakpoint
CREATE INDEX "refund_requests_state" ON "refund_requests" USING btree ("state");