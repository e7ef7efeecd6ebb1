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
ALTER TABLE "test_network_generations" ADD CONSTRAINT "test_network_generations_reset_by_users_id_fk" FOREIGN KEY ("reset_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_service_transitions" ADD CONSTRAINT "test_service_transitions_test_service_id_test_services_id_fk" FOREIGN KEY ("test_service_id") REFERENCES "public"."test_services"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "test_services" ADD CONSTRAINT "test_services_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "test_services_user_name_version" ON "test_services" USING btree ("user_id","name","version");--> statement-breakpoint
CREATE INDEX "test_services_user" ON "test_services" USING btree ("user_id","id");