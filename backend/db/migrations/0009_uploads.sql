ALTER TABLE "files" ADD COLUMN "upload_id" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "kind" text;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "owner_id" integer;--> statement-breakpoint
ALTER TABLE "files" ADD COLUMN "claimed_at" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "files_upload_id_idx" ON "files" USING btree ("upload_id");--> statement-breakpoint
CREATE INDEX "files_pending_idx" ON "files" USING btree ("created_at") WHERE "files"."upload_id" is not null and "files"."claimed_at" is null;