CREATE TABLE "cross_chain_accounts" (
	"name" text PRIMARY KEY NOT NULL,
	"address" text NOT NULL,
	"key_sealed" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cross_chain_artifacts" (
	"name" text PRIMARY KEY NOT NULL,
	"source_hash" text NOT NULL,
	"abi" text NOT NULL,
	"bytecode" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "cross_chain_calls" (
	"id" serial PRIMARY KEY NOT NULL,
	"app_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"protocol" smallint NOT NULL,
	"kind" text NOT NULL,
	"source_chain" text NOT NULL,
	"source_chain_id" integer NOT NULL,
	"source_contract" text NOT NULL,
	"sequence" bigint NOT NULL,
	"sender" text NOT NULL,
	"target_chain" text NOT NULL,
	"target_chain_id" integer NOT NULL,
	"target_address" text NOT NULL,
	"data" text NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"source_tx_hash" text NOT NULL,
	"source_block" bigint NOT NULL,
	"target_tx_hash" text,
	"attempts" integer DEFAULT 0 NOT NULL,
	"reason" text,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"lease_until" timestamp with time zone,
	"fee_cents" integer DEFAULT 0 NOT NULL,
	"bill_id" integer,
	"created_at" timestamp with time zone NOT NULL,
	"delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "cross_chain_contracts" (
	"chain_name" text NOT NULL,
	"protocol" smallint NOT NULL,
	"role" text NOT NULL,
	"chain_id" integer NOT NULL,
	"address" text NOT NULL,
	"tx_hash" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "cross_chain_contracts_chain_name_protocol_role_pk" PRIMARY KEY("chain_name","protocol","role")
);
--> statement-breakpoint
CREATE TABLE "cross_chain_cursors" (
	"chain_name" text PRIMARY KEY NOT NULL,
	"last_block" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "city_nodes" ADD COLUMN "interchain_protocols" integer[] DEFAULT '{1,2}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "cross_chain_calls" ADD CONSTRAINT "cross_chain_calls_app_id_apps_id_fk" FOREIGN KEY ("app_id") REFERENCES "public"."apps"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cross_chain_calls" ADD CONSTRAINT "cross_chain_calls_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cross_chain_calls" ADD CONSTRAINT "cross_chain_calls_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "cross_chain_calls_message" ON "cross_chain_calls" USING btree ("source_chain","source_contract","sequence");--> statement-breakpoint
CREATE INDEX "cross_chain_calls_app" ON "cross_chain_calls" USING btree ("app_id","created_at");--> statement-breakpoint
CREATE INDEX "cross_chain_calls_pending" ON "cross_chain_calls" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE INDEX "cross_chain_calls_bill" ON "cross_chain_calls" USING btree ("user_id","status","bill_id");