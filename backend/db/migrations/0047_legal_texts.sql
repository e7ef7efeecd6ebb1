CREATE TABLE "contact_addresses" (
	"id" smallint PRIMARY KEY DEFAULT 1 NOT NULL,
	"support_email" text DEFAULT '' NOT NULL,
	"partners_email" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" integer,
	CONSTRAINT "contact_addresses_one_row" CHECK ("contact_addresses"."id" = 1)
);
--> statement-breakpoint
CREATE TABLE "legal_texts" (
	"page" text PRIMARY KEY NOT NULL,
	"title_en" text NOT NULL,
	"title_zh" text NOT NULL,
	"intro_en" text NOT NULL,
	"intro_zh" text NOT NULL,
	"body_en" text NOT NULL,
	"body_zh" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" integer
);
--> statement-breakpoint
ALTER TABLE "contact_addresses" ADD CONSTRAINT "contact_addresses_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "legal_texts" ADD CONSTRAINT "legal_texts_updated_by_users_id_fk" FOREIGN KEY ("updated_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;