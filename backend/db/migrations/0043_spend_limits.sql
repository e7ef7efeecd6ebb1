ALTER TABLE "team_members" ADD COLUMN "spend_limit_cents" bigint DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "awaits_finance" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "bills" ADD COLUMN "member_user_id" integer;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD COLUMN "member_user_id" integer;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_member_user_id_users_id_fk" FOREIGN KEY ("member_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_member_user_id_users_id_fk" FOREIGN KEY ("member_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ledger_member_time" ON "ledger_entries" USING btree ("user_id","member_user_id","created_at");--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_spend_limit" CHECK ("team_members"."spend_limit_cents" >= 0);