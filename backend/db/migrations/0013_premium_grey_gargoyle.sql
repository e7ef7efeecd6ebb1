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
ALTER TABLE "pub_chain_contracts" ADD CONSTRAINT "pub_chain_contracts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_contracts" ADD CONSTRAINT "pub_chain_contracts_project_id_pub_chain_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."pub_chain_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "pub_chain_contracts" ADD CONSTRAINT "pub_chain_contracts_account_id_pub_chain_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."pub_chain_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "pub_chain_contracts_project" ON "pub_chain_contracts" USING btree ("project_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "pub_chain_contracts_one_under_way" ON "pub_chain_contracts" USING btree ("project_id") WHERE "pub_chain_contracts"."status" in (0, 1);