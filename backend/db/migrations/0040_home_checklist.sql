CREATE TABLE "home_checklists" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"dismissed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "home_checklists" ADD CONSTRAINT "home_checklists_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;