CREATE TABLE "ipfs_files" (
	"id" serial PRIMARY KEY NOT NULL,
	"service_id" integer NOT NULL,
	"name" text NOT NULL,
	"cid" text NOT NULL,
	"size" bigint NOT NULL,
	"content_type" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ipfs_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"service_id" integer NOT NULL,
	"kind" text NOT NULL,
	"key_hash" text NOT NULL,
	"key_sealed" text NOT NULL,
	"key_hint" text NOT NULL,
	"state" smallint DEFAULT 1 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "ipfs_keys_key_hash_unique" UNIQUE("key_hash")
);
--> statement-breakpoint
CREATE TABLE "ipfs_service_gateways" (
	"service_id" integer NOT NULL,
	"city_node_id" integer NOT NULL,
	CONSTRAINT "ipfs_service_gateways_service_id_city_node_id_pk" PRIMARY KEY("service_id","city_node_id")
);
--> statement-breakpoint
CREATE TABLE "ipfs_services" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"name" text NOT NULL,
	"store_unit" integer NOT NULL,
	"capacity_bytes" bigint NOT NULL,
	"used_bytes" bigint DEFAULT 0 NOT NULL,
	"status" smallint DEFAULT 1 NOT NULL,
	"bill_id" integer,
	"idempotency_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ipfs_traffic_daily" (
	"service_id" integer NOT NULL,
	"city_node_id" integer NOT NULL,
	"day" date NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ipfs_traffic_daily_service_id_city_node_id_day_pk" PRIMARY KEY("service_id","city_node_id","day")
);
--> statement-breakpoint
ALTER TABLE "ipfs_files" ADD CONSTRAINT "ipfs_files_service_id_ipfs_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."ipfs_services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_keys" ADD CONSTRAINT "ipfs_keys_service_id_ipfs_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."ipfs_services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_service_gateways" ADD CONSTRAINT "ipfs_service_gateways_service_id_ipfs_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."ipfs_services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_service_gateways" ADD CONSTRAINT "ipfs_service_gateways_city_node_id_city_nodes_id_fk" FOREIGN KEY ("city_node_id") REFERENCES "public"."city_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_services" ADD CONSTRAINT "ipfs_services_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_services" ADD CONSTRAINT "ipfs_services_bill_id_bills_id_fk" FOREIGN KEY ("bill_id") REFERENCES "public"."bills"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_traffic_daily" ADD CONSTRAINT "ipfs_traffic_daily_service_id_ipfs_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."ipfs_services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_traffic_daily" ADD CONSTRAINT "ipfs_traffic_daily_city_node_id_city_nodes_id_fk" FOREIGN KEY ("city_node_id") REFERENCES "public"."city_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ipfs_files_service_cid" ON "ipfs_files" USING btree ("service_id","cid");--> statement-breakpoint
CREATE INDEX "ipfs_files_cid" ON "ipfs_files" USING btree ("cid");--> statement-breakpoint
CREATE UNIQUE INDEX "ipfs_keys_service_kind" ON "ipfs_keys" USING btree ("service_id","kind");--> statement-breakpoint
CREATE UNIQUE INDEX "ipfs_services_user_name" ON "ipfs_services" USING btree ("user_id","name");--> statement-breakpoint
CREATE UNIQUE INDEX "ipfs_services_user_idem" ON "ipfs_services" USING btree ("user_id","idempotency_key");--> statement-breakpoint
CREATE INDEX "ipfs_traffic_day" ON "ipfs_traffic_daily" USING btree ("day");