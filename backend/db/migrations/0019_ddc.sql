CREATE TABLE "address_bindings" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"address" text NOT NULL,
	"chain_id" integer NOT NULL,
	"nonce" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ddc_collections" (
	"id" serial PRIMARY KEY NOT NULL,
	"project_id" integer NOT NULL,
	"owner_account_id" integer NOT NULL,
	"address" text NOT NULL,
	"tx_hash" text NOT NULL,
	"block_number" bigint NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ddc_collections_project_id_unique" UNIQUE("project_id")
);
--> statement-breakpoint
CREATE TABLE "ddc_transfers" (
	"id" serial PRIMARY KEY NOT NULL,
	"ddc_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text NOT NULL,
	"tx_hash" text NOT NULL,
	"block_number" bigint NOT NULL,
	"bill_id" integer,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ddcs" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"project_id" integer NOT NULL,
	"account_id" integer NOT NULL,
	"collection_id" integer,
	"name" text NOT NULL,
	"description" text NOT NULL,
	"metadata" jsonb NOT NULL,
	"file_name" text NOT NULL,
	"file_mime" text NOT NULL,
	"file_size" integer NOT NULL,
	"file_id" integer,
	"ipfs_service_id" integer,
	"file_cid" text,
	"metadata_cid" text,
	"token_uri" text,
	"status" smallint DEFAULT 1 NOT NULL,
	"fail_reason" text,
	"mint_tx_hash" text,
	"mint_block" bigint,
	"bill_id" integer,
	"idempotency_key" text NOT NULL,
	"password_hash" text,
	"password_version" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"minted_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "siwe_challenges" (
	"nonce" text PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"address" text NOT NULL,
	"message" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "address_bindings" ADD CONSTRAINT "address_bindings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ddc_collections" ADD CONSTRAINT "ddc_collections_project_id_pub_chain_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."pub_chain_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ddc_collections" ADD CONSTRAINT "ddc_collections_owner_account_id_pub_chain_accounts_id_fk" FOREIGN KEY ("owner_account_id") REFERENCES "public"."pub_chain_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ddc_transfers" ADD CONSTRAINT "ddc_transfers_ddc_id_ddcs_id_fk" FOREIGN KEY ("ddc_id") REFERENCES "public"."ddcs"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ddc_transfers" ADD CONSTRAINT "ddc_transfers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ddc_transfers" ADD CONSTRAINT "ddc_transfers_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ddcs" ADD CONSTRAINT "ddcs_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ddcs" ADD CONSTRAINT "ddcs_project_id_pub_chain_projects_id_fk" FOREIGN KEY ("project_id") REFERENCES "public"."pub_chain_projects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ddcs" ADD CONSTRAINT "ddcs_account_id_pub_chain_accounts_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."pub_chain_accounts"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ddcs" ADD CONSTRAINT "ddcs_collection_id_ddc_collections_id_fk" FOREIGN KEY ("collection_id") REFERENCES "public"."ddc_collections"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ddcs" ADD CONSTRAINT "ddcs_file_id_files_id_fk" FOREIGN KEY ("file_id") REFERENCES "public"."files"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ddcs" ADD CONSTRAINT "ddcs_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "siwe_challenges" ADD CONSTRAINT "siwe_challenges_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "address_bindings_address" ON "address_bindings" USING btree (lower("address"));--> statement-breakpoint
CREATE INDEX "address_bindings_user" ON "address_bindings" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "ddc_transfers_ddc" ON "ddc_transfers" USING btree ("ddc_id");--> statement-breakpoint
CREATE INDEX "ddcs_user" ON "ddcs" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "ddcs_project" ON "ddcs" USING btree ("project_id");--> statement-breakpoint
CREATE UNIQUE INDEX "ddcs_user_idem" ON "ddcs" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "siwe_challenges_user" ON "siwe_challenges" USING btree ("user_id","created_at");