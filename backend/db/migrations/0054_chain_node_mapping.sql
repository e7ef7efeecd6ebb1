CREATE TABLE "chain_node_map" (
	"chain_name" text PRIMARY KEY NOT NULL,
	"node_url" text NOT NULL,
	"source" text NOT NULL,
	"set_by" text,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
