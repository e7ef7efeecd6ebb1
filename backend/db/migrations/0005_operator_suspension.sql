ALTER TABLE "app_versions" ADD COLUMN "enable_requested_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "app_versions" ADD COLUMN "enable_request_note" text;