CREATE TABLE "service_chain_contracts" (
	"id" serial PRIMARY KEY NOT NULL,
	"ver_id" integer NOT NULL,
	"package_id" integer NOT NULL,
	"contract_name" text NOT NULL,
	"address" text NOT NULL,
	"tx_hash" text NOT NULL,
	"block_number" integer NOT NULL,
	"abi" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "service_chain_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"key_hash" text NOT NULL,
	"key_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_chain_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "service_chains" (
	"app_id" integer PRIMARY KEY NOT NULL,
	"chain_name" text NOT NULL,
	"chain_id" integer NOT NULL,
	"deployer_address" text NOT NULL,
	"deployer_key_sealed" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "service_chains_chain_name_unique" UNIQUE("chain_name")
);
--> statement-breakpoint
ALTER TABLE "service_chain_contracts" ADD CONSTRAINT "service_chain_contracts_ver_id_app_versions_id_fk" FOREIGN KEY ("ver_id") REFERENCES "public"."app_versions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chain_contracts" ADD CONSTRAINT "service_chain_contracts_package_id_chaincode_packages_id_fk" FOREIGN KEY ("package_id") REFERENCES "public"."chaincode_packages"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chain_keys" ADD CONSTRAINT "service_chain_keys_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chain_keys" ADD CONSTRAINT "service_chain_keys_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_chains" ADD CONSTRAINT "service_chains_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "service_chain_contracts_package" ON "service_chain_contracts" USING btree ("ver_id","package_id");--> statement-breakpoint
CREATE UNIQUE INDEX "service_chain_keys_user" ON "service_chain_keys" USING btree ("app_id","user_id");