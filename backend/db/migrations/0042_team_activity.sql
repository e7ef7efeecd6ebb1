CREATE TABLE "team_activity" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"account_id" integer NOT NULL,
	"member_id" integer NOT NULL,
	"member_name" text NOT NULL,
	"action" text NOT NULL,
	"kind" text NOT NULL,
	"target_id" text,
	"details" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"path" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "team_activity" ADD CONSTRAINT "team_activity_account_id_users_id_fk" FOREIGN KEY ("account_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "team_activity" ADD CONSTRAINT "team_activity_member_id_users_id_fk" FOREIGN KEY ("member_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "team_activity_account_at" ON "team_activity" USING btree ("account_id","at");--> statement-breakpoint
CREATE INDEX "team_activity_account_member_at" ON "team_activity" USING btree ("account_id","member_id","at");