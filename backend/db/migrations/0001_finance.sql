CREATE TABLE "bills" (
	"id" serial PRIMARY KEY NOT NULL,
	"bill_no" text NOT NULL,
	"user_id" integer NOT NULL,
	"app_id" integer,
	"service_name" text NOT NULL,
	"bill_type" smallint NOT NULL,
	"pay_state" smallint DEFAULT 1 NOT NULL,
	"pay_mode" smallint NOT NULL,
	"pay_type" text,
	"cycle" smallint NOT NULL,
	"period_start" timestamp with time zone NOT NULL,
	"period_end" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"deadline" timestamp with time zone NOT NULL,
	"release_time" timestamp with time zone,
	"paid_at" timestamp with time zone,
	"total_cents" bigint NOT NULL,
	"pay_cents" bigint NOT NULL,
	"refund_no" text,
	"refund_cents" bigint DEFAULT 0 NOT NULL,
	"invoice_state" smallint DEFAULT 1 NOT NULL,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text,
	CONSTRAINT "bills_bill_no_unique" UNIQUE("bill_no"),
	CONSTRAINT "bills_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "cards" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"brand" text NOT NULL,
	"last4" text NOT NULL,
	"exp_month" smallint,
	"exp_year" smallint,
	"provider_ref" text NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "contacts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"mobile" text NOT NULL,
	"email" text NOT NULL,
	"department" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "invoice_application_bills" (
	"application_id" integer NOT NULL,
	"bill_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	CONSTRAINT "invoice_application_bills_application_id_bill_id_pk" PRIMARY KEY("application_id","bill_id")
);
--> statement-breakpoint
CREATE TABLE "invoice_applications" (
	"id" serial PRIMARY KEY NOT NULL,
	"application_no" text NOT NULL,
	"user_id" integer NOT NULL,
	"title" jsonb NOT NULL,
	"invoice_type" smallint NOT NULL,
	"amount_cents" bigint NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"issuance" smallint NOT NULL,
	"recipient" jsonb NOT NULL,
	"delivery_email" text,
	"courier_name" text,
	"courier_no" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"review_comments" text,
	"delivered_by" integer,
	"delivered_at" timestamp with time zone,
	CONSTRAINT "invoice_applications_application_no_unique" UNIQUE("application_no")
);
--> statement-breakpoint
CREATE TABLE "invoice_titles" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"title_type" smallint NOT NULL,
	"title" text NOT NULL,
	"tax_no" text,
	"bank" text,
	"bank_account" text,
	"registered_address" text,
	"registered_phone" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "jobs" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"payload" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"dedupe_key" text,
	"run_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"attempts" integer DEFAULT 0 NOT NULL,
	"last_error" text,
	"done_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "jobs_dedupe_key_unique" UNIQUE("dedupe_key")
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"balance_delta" bigint NOT NULL,
	"withdrawable_delta" bigint NOT NULL,
	"invoiceable_delta" bigint NOT NULL,
	"balance_after" bigint NOT NULL,
	"withdrawable_after" bigint NOT NULL,
	"invoiceable_after" bigint NOT NULL,
	"ref_type" text NOT NULL,
	"ref_id" integer NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "payments" (
	"id" serial PRIMARY KEY NOT NULL,
	"payment_no" text NOT NULL,
	"user_id" integer NOT NULL,
	"purpose" text DEFAULT 'recharge' NOT NULL,
	"amount_cents" bigint NOT NULL,
	"pay_type" text NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"provider" text,
	"provider_ref" text,
	"remittance_ref" text,
	"failure_reason" text,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"review_comments" text,
	CONSTRAINT "payments_payment_no_unique" UNIQUE("payment_no"),
	CONSTRAINT "payments_provider_ref_unique" UNIQUE("provider_ref")
);
--> statement-breakpoint
CREATE TABLE "provider_events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"provider" text NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"payload" jsonb NOT NULL,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	"times_received" integer DEFAULT 1 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "receiver_addresses" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"mobile" text NOT NULL,
	"location" text NOT NULL,
	"address" text NOT NULL,
	"postal_code" text,
	"email" text,
	"is_default" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sandbox_checkouts" (
	"id" text PRIMARY KEY NOT NULL,
	"mode" text NOT NULL,
	"merchant_ref" text NOT NULL,
	"amount_cents" bigint,
	"currency" text DEFAULT 'USD' NOT NULL,
	"description" text,
	"return_url" text NOT NULL,
	"callback_url" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"card_brand" text,
	"card_last4" text,
	"card_exp_month" smallint,
	"card_exp_year" smallint,
	"decline_reason" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"callback_delivered_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "usage_daily" (
	"user_id" integer NOT NULL,
	"day" date NOT NULL,
	"city_node_id" integer NOT NULL,
	"traffic_mb" integer NOT NULL,
	CONSTRAINT "usage_daily_user_id_day_city_node_id_pk" PRIMARY KEY("user_id","day","city_node_id")
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"balance_cents" bigint DEFAULT 0 NOT NULL,
	"withdrawable_cents" bigint DEFAULT 0 NOT NULL,
	"invoiceable_cents" bigint DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "wallets_balance_nonneg" CHECK ("wallets"."balance_cents" >= 0),
	CONSTRAINT "wallets_withdrawable_range" CHECK ("wallets"."withdrawable_cents" >= 0 AND "wallets"."withdrawable_cents" <= "wallets"."balance_cents"),
	CONSTRAINT "wallets_invoiceable_nonneg" CHECK ("wallets"."invoiceable_cents" >= 0)
);
--> statement-breakpoint
CREATE TABLE "withdrawals" (
	"id" serial PRIMARY KEY NOT NULL,
	"withdrawal_no" text NOT NULL,
	"user_id" integer NOT NULL,
	"amount_cents" bigint NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"idempotency_key" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"reviewed_by" integer,
	"reviewed_at" timestamp with time zone,
	"review_comments" text,
	"expected_arrival" date,
	CONSTRAINT "withdrawals_withdrawal_no_unique" UNIQUE("withdrawal_no")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "self_introduction" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "term_of_business" smallint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "staff_count" smallint;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "business_information" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "main_business" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "company_profile" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "company_url" text;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "fax" text;--> statement-breakpoint
ALTER TABLE "bills" ADD CONSTRAINT "bills_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "cards" ADD CONSTRAINT "cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_application_bills" ADD CONSTRAINT "invoice_application_bills_application_id_invoice_applications_id_fk" FOREIGN KEY ("application_id") REFERENCES "public"."invoice_applications"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_application_bills" ADD CONSTRAINT "invoice_application_bills_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_applications" ADD CONSTRAINT "invoice_applications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_applications" ADD CONSTRAINT "invoice_applications_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_applications" ADD CONSTRAINT "invoice_applications_delivered_by_users_id_fk" FOREIGN KEY ("delivered_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invoice_titles" ADD CONSTRAINT "invoice_titles_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "payments" ADD CONSTRAINT "payments_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "receiver_addresses" ADD CONSTRAINT "receiver_addresses_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "usage_daily" ADD CONSTRAINT "usage_daily_city_node_id_city_nodes_id_fk" FOREIGN KEY ("city_node_id") REFERENCES "public"."city_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdrawals" ADD CONSTRAINT "withdrawals_reviewed_by_users_id_fk" FOREIGN KEY ("reviewed_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bills_user_time" ON "bills" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "bills_user_state" ON "bills" USING btree ("user_id","pay_state");--> statement-breakpoint
CREATE INDEX "contacts_user" ON "contacts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "invoice_application_bills_bill" ON "invoice_application_bills" USING btree ("bill_id");--> statement-breakpoint
CREATE INDEX "invoice_applications_user" ON "invoice_applications" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_applications_user_idempotency" ON "invoice_applications" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "invoice_titles_user" ON "invoice_titles" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "invoice_titles_one_default" ON "invoice_titles" USING btree ("user_id") WHERE "invoice_titles"."is_default";--> statement-breakpoint
CREATE INDEX "jobs_due" ON "jobs" USING btree ("done_at","run_at");--> statement-breakpoint
CREATE INDEX "ledger_user_time" ON "ledger_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_user_idempotency" ON "ledger_entries" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "ledger_ref" ON "ledger_entries" USING btree ("ref_type","ref_id");--> statement-breakpoint
CREATE INDEX "payments_user_time" ON "payments" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "payments_status" ON "payments" USING btree ("status","expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "payments_user_idempotency" ON "payments" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "receiver_addresses_user" ON "receiver_addresses" USING btree ("user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "receiver_addresses_one_default" ON "receiver_addresses" USING btree ("user_id") WHERE "receiver_addresses"."is_default";--> statement-breakpoint
CREATE INDEX "withdrawals_user_time" ON "withdrawals" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "withdrawals_user_idempotency" ON "withdrawals" USING btree ("user_id","idempotency_key");