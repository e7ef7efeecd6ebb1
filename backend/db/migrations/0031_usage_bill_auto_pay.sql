CREATE TABLE "billing_settings" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"auto_pay" boolean NOT NULL,
	"offer_pending" boolean DEFAULT false NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "billing_settings" ADD CONSTRAINT "billing_settings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- ADR 059: accounts that exist now keep paying usage bills themselves (auto-pay off) and are offered auto-pay
-- once in the inbox (the job billing.autoPayOffer sends it and clears offer_pending); later accounts have no
-- row, which means auto-pay on.
INSERT INTO "billing_settings" ("user_id", "auto_pay", "offer_pending")
SELECT "id", false, true FROM "users" WHERE "role" = 'user'
ON CONFLICT ("user_id") DO NOTHING;
