CREATE TABLE "team_invitations" (
	"id" serial PRIMARY KEY NOT NULL,
	"account_id" integer NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"token_hash" text NOT NULL,
	"invited_by" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	"accepted_by" integer,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "team_invitations_role" CHECK ("team_invitations"."role" in ('admin', 'developer', 'finance', 'viewer'))
);
--> statement-breakpoint
CREATE TABLE "team_members" (
	"account_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"role" text NOT NULL,
	"added_at" timestamp with time zone NOT NULL,
	"added_by" integer,
	CONSTRAINT "team_members_role" CHECK ("team_members"."role" in ('owner', 'admin', 'developer', 'finance', 'viewer'))
);
--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD COLUMN "account_id" integer;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_invited_by_users_id_fk" FOREIGN KEY ("invited_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_invitations" ADD CONSTRAINT "team_invitations_accepted_by_users_id_fk" FOREIGN KEY ("accepted_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_members" ADD CONSTRAINT "team_members_added_by_users_id_fk" FOREIGN KEY ("added_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "team_invitations_token" ON "team_invitations" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "team_invitations_account" ON "team_invitations" USING btree ("account_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_members_account_member" ON "team_members" USING btree ("account_id","member_id");--> statement-breakpoint
CREATE UNIQUE INDEX "team_members_one_owner" ON "team_members" USING btree ("account_id") WHERE "team_members"."role" = 'owner';--> statement-breakpoint
CREATE INDEX "team_members_member" ON "team_members" USING btree ("member_id");--> statement-breakpoint
ALTER TABLE "auth_tokens" ADD CONSTRAINT "auth_tokens_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "auth_tokens_account" ON "auth_tokens" USING btree ("account_id");--> statement-breakpoint
-- Every existing enterprise login becomes its own account's owner (issue 33, docs/decisions/075).
INSERT INTO "team_members" ("account_id", "member_id", "role", "added_at")
SELECT "id", "id", 'owner', now() FROM "users" WHERE "user_type" = 2 AND "role" <> 'operator'
ON CONFLICT DO NOTHING;
