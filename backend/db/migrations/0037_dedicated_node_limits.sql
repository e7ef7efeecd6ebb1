ALTER TABLE "dedicated_networks" ADD COLUMN "requests_per_second" integer;--> statement-breakpoint
ALTER TABLE "dedicated_networks" ADD COLUMN "storage_limit_bytes" bigint;--> statement-breakpoint
-- docs/decisions/074: the networks of live dedicated-node projects get the limits of their host configuration and
-- data capacity (contract/dedicated-node-limits.ts PRN_HOST_LIMITS), as a deploy now sets them.
UPDATE "dedicated_networks" AS d SET
  "requests_per_second" = CASE p."host_config" WHEN 'c2m4' THEN 10 WHEN 'c4m8' THEN 25 ELSE 50 END,
  "storage_limit_bytes" = ((CASE p."host_config" WHEN 'c2m4' THEN 10 WHEN 'c4m8' THEN 20 ELSE 40 END) + p."data_capacity_gb")::bigint * 1073741824
FROM "prn_projects" AS p
WHERE d."name" = 'prn-' || p."name" AND p."purged_at" IS NULL AND p."host_config" IN ('c2m4', 'c4m8', 'c8m16');
