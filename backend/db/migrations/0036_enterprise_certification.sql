ALTER TABLE "users" ADD COLUMN "cert_state" smallint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "cert_reason" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "cert_submitted_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "cert_decided_at" timestamp with time zone;--> statement-breakpoint
-- Accounts certified before operations reviewed certification (every enterprise account: registration alone
-- certified it) are carried over as approved (10), each with an entry in the audit log (docs/decisions/071).
-- The log names an actor that is an account; the account itself is named, with the migration as the actor's name.
INSERT INTO "audit_log" ("at", "actor_id", "actor_name", "action", "target_type", "target_id", "decision", "details", "path")
  SELECT now(), "id", 'system: migration 0036 (ADR 071)', 'certification.migrated', 'enterpriseAccount', "id"::text, 'approve',
    jsonb_build_object('from', 0, 'to', 10, 'companyName', "company_name", 'creditCode', "credit_code"),
    'migration:0036_enterprise_certification'
  FROM "users" WHERE "user_type" = 2 AND "cert_state" = 0;--> statement-breakpoint
UPDATE "users" SET "cert_state" = 10, "cert_submitted_at" = "created_at", "cert_decided_at" = now()
  WHERE "user_type" = 2 AND "cert_state" = 0;
