ALTER TABLE "messages" ADD COLUMN "ref_kind" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "ref_id" integer;