-- docs/decisions/053: the bytes of stored files leave the rows. New rows name their blob (the SHA-256 of the
-- bytes); the start-time migration (backend/kit/storage.ts migrateFileBytes) moves each old row's bytes to the
-- blob store, one row at a time, and drops the then empty "bytes" column.
CREATE TABLE "file_chunks" (
	"address" text NOT NULL,
	"seq" integer NOT NULL,
	"bytes" "bytea" NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "file_chunks_address_seq_pk" PRIMARY KEY("address","seq")
);
--> statement-breakpoint
ALTER TABLE "files" ALTER COLUMN "bytes" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "blob" text;--> statement-breakpoint
CREATE INDEX "files_blob_idx" ON "files" USING btree ("blob");