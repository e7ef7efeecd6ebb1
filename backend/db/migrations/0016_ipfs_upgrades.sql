CREATE TABLE "ipfs_upgrades" (
	"id" serial PRIMARY KEY NOT NULL,
	"service_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"from_store_unit" integer NOT NULL,
	"to_store_unit" integer NOT NULL,
	"price_diff_cents" integer NOT NULL,
	"status" smallint DEFAULT 0 NOT NULL,
	"bill_id" integer,
	"fail_reason" text,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"taken_at" timestamp with time zone,
	"taken_by" integer,
	"decided_at" timestamp with time zone,
	"decided_by" integer
);
--> statement-breakpoint
ALTER TABLE "ipfs_upgrades" ADD CONSTRAINT "ipfs_upgrades_service_id_ipfs_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."ipfs_services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_upgrades" ADD CONSTRAINT "ipfs_upgrades_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_upgrades" ADD CONSTRAINT "ipfs_upgrades_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_upgrades" ADD CONSTRAINT "ipfs_upgrades_taken_by_users_id_fk" FOREIGN KEY ("taken_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_upgrades" ADD CONSTRAINT "ipfs_upgrades_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ipfs_upgrades_user_idem" ON "ipfs_upgrades" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "ipfs_upgrades_service" ON "ipfs_upgrades" USING btree ("service_id");--> statement-breakpoint
CREATE INDEX "ipfs_upgrades_status" ON "ipfs_upgrades" USING btree ("status");--> statement-breakpoint
CREATE UNIQUE INDEX "ipfs_upgrades_one_open" ON "ipfs_upgrades" USING btree ("service_id") WHERE "ipfs_upgrades"."status" in (0, 2);