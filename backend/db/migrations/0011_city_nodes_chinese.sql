ALTER TABLE "city_nodes" ADD COLUMN "operator_zh" text;--> statement-breakpoint
ALTER TABLE "city_nodes" ADD COLUMN "cloud_provider_zh" text;--> statement-breakpoint
ALTER TABLE "city_nodes" ADD COLUMN "address_zh" text;