ALTER TABLE "app_nodes" DROP COLUMN "contract_address";--> statement-breakpoint
ALTER TABLE "app_nodes" DROP COLUMN "chaincode_address";--> statement-breakpoint
-- docs/decisions/052: no made-up gateway. A participant's gateway on a node of an EVM service (FISCO BCOS, CITA,
-- XuperChain) is that node's endpoint path on the service's chain; other services have none yet.
UPDATE "app_join_nodes" AS jn SET "gateway_url" = CASE
    WHEN a."framework" IN ('fisco', 'cita', 'xuperchain') THEN '/chain/service/' || lower(c."code")
    ELSE NULL
  END
  FROM "app_joins" AS j, "apps" AS a, "city_nodes" AS c
  WHERE j."id" = jn."join_id" AND a."id" = j."app_id" AND c."id" = jn."city_node_id"
    AND (jn."gateway_url" LIKE '%.example%' OR jn."gateway_url" LIKE 'https://gw-%');--> statement-breakpoint
-- The one-time job that deploys the Solidity packages of running XuperChain services on their own chain.
INSERT INTO "jobs" ("kind", "payload", "dedupe_key", "run_at", "created_at")
  VALUES ('service.evmBackfill', '{}'::jsonb, 'service.evmBackfill:052', now(), now())
  ON CONFLICT DO NOTHING;
