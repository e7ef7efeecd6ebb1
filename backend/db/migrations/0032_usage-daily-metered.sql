ALTER TABLE "usage_daily" ADD COLUMN "app_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD COLUMN "join_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD COLUMN "caller_id" integer;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD COLUMN "method" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD COLUMN "calls" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD COLUMN "bytes_in" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD COLUMN "bytes_out" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "usage_daily" DROP CONSTRAINT "usage_daily_user_id_day_city_node_id_pk";--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_user_id_day_city_node_id_app_id_join_id_method_pk" PRIMARY KEY("user_id","day","city_node_id","app_id","join_id","method");--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_caller_id_users_id_fk" FOREIGN KEY ("caller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "usage_daily_caller_day" ON "usage_daily" USING btree ("caller_id","day");--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_counts_nonneg" CHECK ("usage_daily"."calls" >= 0 AND "usage_daily"."bytes_in" >= 0 AND "usage_daily"."bytes_out" >= 0);--> statement-breakpoint
-- Existing rows stay the publisher's own traffic, with no service or method named: their MB as bytes in (1 MB = 1 MiB, as the bills count it).
UPDATE "usage_daily" SET "bytes_in" = "traffic_mb"::bigint * 1048576;--> statement-breakpoint
ALTER TABLE "usage_daily" DROP COLUMN "traffic_mb";
