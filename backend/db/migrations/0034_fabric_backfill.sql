-- The one-time job that installs the Node.js chaincode of running Fabric services, booked before the embedded
-- Fabric peer existed, on their channels (docs/decisions/064).
INSERT INTO "jobs" ("kind", "payload", "dedupe_key", "run_at", "created_at")
  VALUES ('service.fabricBackfill', '{}'::jsonb, 'service.fabricBackfill:064', now(), now())
  ON CONFLICT DO NOTHING;
