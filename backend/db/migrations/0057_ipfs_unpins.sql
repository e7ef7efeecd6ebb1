CREATE TABLE "ipfs_unpins" (
	"file_id" integer PRIMARY KEY NOT NULL,
	"cid" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "ipfs_unpins_cid" ON "ipfs_unpins" USING btree ("cid");