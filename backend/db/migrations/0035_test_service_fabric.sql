ALTER TABLE "test_services" ADD COLUMN "language" text DEFAULT 'solidity' NOT NULL;--> statement-breakpoint
ALTER TABLE "test_services" ADD COLUMN "package_file_id" integer;--> statement-breakpoint
ALTER TABLE "test_services" ADD COLUMN "channel" text;--> statement-breakpoint
-- The one-time job that tells publishers of running Fabric services with Go or Java chaincode that their service
-- keeps its state until a Fabric network is connected (docs/decisions/069).
INSERT INTO "jobs" ("kind", "payload", "dedupe_key", "run_at", "created_at")
  VALUES ('service.fabricGoJavaNotice', '{}'::jsonb, 'service.fabricGoJavaNotice:069', now(), now())
  ON CONFLICT DO NOTHING;
