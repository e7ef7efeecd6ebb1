CREATE TABLE "ipfs_blocks" (
	"address" text PRIMARY KEY NOT NULL,
	"size" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ipfs_pins" (
	"cid" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
