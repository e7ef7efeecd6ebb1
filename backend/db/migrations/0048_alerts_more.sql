ALTER TABLE "alert_firings" DROP CONSTRAINT "alert_firings_kind";--> statement-breakpoint
DROP INDEX "alert_firings_once";--> statement-breakpoint
ALTER TABLE "alert_firings" ADD COLUMN "subject_id" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_firings" ADD COLUMN "subject_name" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "alert_settings" ADD COLUMN "ipfs_weekly_traffic_bytes" bigint;--> statement-breakpoint
CREATE UNIQUE INDEX "alert_firings_once" ON "alert_firings" USING btree ("account_id","kind","subject_id","threshold","period");--> statement-breakpoint
ALTER TABLE "alert_firings" ADD CONSTRAINT "alert_firings_kind" CHECK ("alert_firings"."kind" in ('budget', 'balance', 'requests', 'gas', 'ipfsCapacity', 'ipfsTraffic', 'nodeEnd', 'serviceEnd'));--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_ipfs_traffic" CHECK ("alert_settings"."ipfs_weekly_traffic_bytes" is null or "alert_settings"."ipfs_weekly_traffic_bytes" > 0);--> statement-breakpoint
-- docs/decisions/090: the low-gas messages told before (ADR 032, marked by gas_low_since) become the gas alert's history.
INSERT INTO "alert_firings" ("account_id", "kind", "subject_id", "subject_name", "threshold", "period", "value_cents", "limit_cents", "fired_at")
SELECT m."user_id", 'gas', a."id", a."name", 0,
  to_char(m."created_at" AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
  round((m."params"->>'gas')::numeric * 1000000000)::bigint,
  round(a."gas_warning_wei"::numeric / 1000000000)::bigint,
  m."created_at"
FROM "messages" m
JOIN "pub_chain_accounts" a ON a."user_id" = m."user_id" AND a."name" = m."params"->>'account'
JOIN "pub_chain_projects" p ON p."id" = a."project_id" AND p."name" = m."params"->>'project'
WHERE m."text_key" = 'messages.gasLow' AND m."params"->>'gas' ~ '^[0-9]+(\.[0-9]+)?$'
ON CONFLICT DO NOTHING;--> statement-breakpoint
-- Each of those messages now opens its alert in the history, as the new ones do.
UPDATE "messages" m SET "ref_kind" = 'alert', "ref_id" = f."id"
FROM "alert_firings" f
WHERE f."kind" = 'gas' AND f."account_id" = m."user_id" AND f."subject_name" = m."params"->>'account'
  AND f."fired_at" = m."created_at" AND m."text_key" = 'messages.gasLow' AND m."ref_kind" IS NULL;
