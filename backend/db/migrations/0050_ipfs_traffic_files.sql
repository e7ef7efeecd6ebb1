CREATE TABLE "ipfs_traffic_files_daily" (
	"service_id" integer NOT NULL,
	"city_node_id" integer NOT NULL,
	"day" date NOT NULL,
	"cid" text NOT NULL,
	"bytes" bigint DEFAULT 0 NOT NULL,
	CONSTRAINT "ipfs_traffic_files_daily_service_id_city_node_id_day_cid_pk" PRIMARY KEY("service_id","city_node_id","day","cid")
);
--> statement-breakpoint
ALTER TABLE "ipfs_traffic_files_daily" ADD CONSTRAINT "ipfs_traffic_files_daily_service_id_ipfs_services_id_fk" FOREIGN KEY ("service_id") REFERENCES "public"."ipfs_services"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ipfs_traffic_files_daily" ADD CONSTRAINT "ipfs_traffic_files_daily_city_node_id_city_nodes_id_fk" FOREIGN KEY ("city_node_id") REFERENCES "public"."city_nodes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "ipfs_traffic_files_day" ON "ipfs_traffic_files_daily" USING btree ("day");