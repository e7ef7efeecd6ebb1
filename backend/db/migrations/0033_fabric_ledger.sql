CREATE TABLE "fabric_blocks" (
	"channel" text NOT NULL,
	"number" bigint NOT NULL,
	"block" "bytea" NOT NULL,
	"committed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fabric_blocks_channel_number_pk" PRIMARY KEY("channel","number")
);
--> statement-breakpoint
CREATE TABLE "fabric_chaincodes" (
	"channel" text NOT NULL,
	"name" text NOT NULL,
	"version" text NOT NULL,
	"digest" text NOT NULL,
	"files" jsonb NOT NULL,
	"init_tx_id" text,
	"installed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "fabric_chaincodes_channel_version_pk" PRIMARY KEY("channel","version")
);
--> statement-breakpoint
CREATE TABLE "fabric_txs" (
	"channel" text NOT NULL,
	"tx_id" text NOT NULL,
	"block_number" bigint NOT NULL,
	"tx_index" integer NOT NULL,
	"validation_code" smallint NOT NULL,
	"chaincode" text NOT NULL,
	"results" "bytea" NOT NULL,
	"event" "bytea",
	"committed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "fabric_txs_channel_tx_id_pk" PRIMARY KEY("channel","tx_id")
);
--> statement-breakpoint
CREATE INDEX "fabric_chaincodes_name" ON "fabric_chaincodes" USING btree ("channel","name");--> statement-breakpoint
CREATE INDEX "fabric_txs_block" ON "fabric_txs" USING btree ("channel","block_number");