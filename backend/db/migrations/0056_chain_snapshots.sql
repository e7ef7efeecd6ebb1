CREATE TABLE "chain_snapshots" (
	"chain_id" integer NOT NULL,
	"number" bigint NOT NULL,
	"hash" text NOT NULL,
	"file_id" integer NOT NULL,
	"sha256" text NOT NULL,
	"entries" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chain_snapshots_chain_id_number_pk" PRIMARY KEY("chain_id","number")
);
