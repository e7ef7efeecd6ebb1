CREATE TABLE "chain_blocks" (
	"chain_id" integer NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	"parent_hash" text NOT NULL,
	"timestamp" bigint NOT NULL,
	"gas_used" text NOT NULL,
	"raw_txs" jsonb NOT NULL,
	"sealed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_blocks_chain_id_number_pk" PRIMARY KEY("chain_id","number")
);
--> statement-breakpoint
CREATE TABLE "chain_logs" (
	"chain_id" integer NOT NULL,
	"block_number" bigint NOT NULL,
	"log_index" integer NOT NULL,
	"block_hash" text NOT NULL,
	"tx_hash" text NOT NULL,
	"tx_index" integer NOT NULL,
	"address" text NOT NULL,
	"topic0" text,
	"topic1" text,
	"topic2" text,
	"topic3" text,
	"data" text NOT NULL,
	CONSTRAINT "chain_logs_chain_id_block_number_log_index_pk" PRIMARY KEY("chain_id","block_number","log_index")
);
--> statement-breakpoint
CREATE TABLE "chain_txs" (
	"chain_id" integer NOT NULL,
	"hash" text NOT NULL,
	"block_number" bigint NOT NULL,
	"block_hash" text NOT NULL,
	"tx_index" integer NOT NULL,
	"from_address" text NOT NULL,
	"to_address" text,
	"status" smallint NOT NULL,
	"gas_used" text NOT NULL,
	"cumulative_gas_used" text NOT NULL,
	"effective_gas_price" text NOT NULL,
	"contract_address" text,
	"logs_bloom" text NOT NULL,
	"rpc" jsonb NOT NULL,
	CONSTRAINT "chain_txs_chain_id_hash_pk" PRIMARY KEY("chain_id","hash")
);
--> statement-breakpoint
CREATE TABLE "chains" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"chain_id" integer NOT NULL,
	"purpose" text NOT NULL,
	"treasury_address" text NOT NULL,
	"treasury_key_sealed" text NOT NULL,
	"treasury_wei" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chains_name_unique" UNIQUE("name")
);
--> statement-breakpoint
CREATE INDEX "chain_blocks_hash" ON "chain_blocks" USING btree ("hash");--> statement-breakpoint
CREATE INDEX "chain_logs_address" ON "chain_logs" USING btree ("chain_id","address","block_number");--> statement-breakpoint
CREATE INDEX "chain_logs_topic0" ON "chain_logs" USING btree ("chain_id","topic0","block_number");--> statement-breakpoint
CREATE INDEX "chain_logs_tx" ON "chain_logs" USING btree ("chain_id","tx_hash");--> statement-breakpoint
CREATE INDEX "chain_txs_block" ON "chain_txs" USING btree ("chain_id","block_number");--> statement-breakpoint
CREATE INDEX "chain_txs_from" ON "chain_txs" USING btree ("chain_id","from_address","block_number");--> statement-breakpoint
CREATE INDEX "chain_txs_to" ON "chain_txs" USING btree ("chain_id","to_address","block_number");