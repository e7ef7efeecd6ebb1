CREATE TABLE "did_credentials" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"issuer_did_id" integer NOT NULL,
	"issuer_user_id" integer,
	"subject_did" text NOT NULL,
	"subject_user_id" integer,
	"app_join_id" integer,
	"claims" jsonb NOT NULL,
	"jwt" text NOT NULL,
	"status_list_id" integer NOT NULL,
	"status_index" integer NOT NULL,
	"issued_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "did_identifiers" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer,
	"did" text NOT NULL,
	"label" text NOT NULL,
	"method" text NOT NULL,
	"key_type" text NOT NULL,
	"custody" text NOT NULL,
	"public_key_multibase" text NOT NULL,
	"private_key_sealed" text,
	"web_handle" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "did_identifiers_did_unique" UNIQUE("did"),
	CONSTRAINT "did_identifiers_web_handle_unique" UNIQUE("web_handle")
);
--> statement-breakpoint
CREATE TABLE "did_status_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"issuer_did_id" integer NOT NULL,
	"size" integer NOT NULL,
	"next_index" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "did_credentials" ADD CONSTRAINT "did_credentials_issuer_did_id_did_identifiers_id_fk" FOREIGN KEY ("issuer_did_id") REFERENCES "public"."did_identifiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "did_credentials" ADD CONSTRAINT "did_credentials_issuer_user_id_users_id_fk" FOREIGN KEY ("issuer_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "did_credentials" ADD CONSTRAINT "did_credentials_subject_user_id_users_id_fk" FOREIGN KEY ("subject_user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "did_credentials" ADD CONSTRAINT "did_credentials_status_list_id_did_status_lists_id_fk" FOREIGN KEY ("status_list_id") REFERENCES "public"."did_status_lists"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "did_identifiers" ADD CONSTRAINT "did_identifiers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "did_status_lists" ADD CONSTRAINT "did_status_lists_issuer_did_id_did_identifiers_id_fk" FOREIGN KEY ("issuer_did_id") REFERENCES "public"."did_identifiers"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "did_credentials_status" ON "did_credentials" USING btree ("status_list_id","status_index");--> statement-breakpoint
CREATE INDEX "did_credentials_issuer" ON "did_credentials" USING btree ("issuer_user_id","id");--> statement-breakpoint
CREATE INDEX "did_credentials_subject" ON "did_credentials" USING btree ("subject_user_id","id");--> statement-breakpoint
CREATE INDEX "did_identifiers_user" ON "did_identifiers" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "did_status_lists_issuer" ON "did_status_lists" USING btree ("issuer_did_id");