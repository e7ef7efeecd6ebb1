CREATE TABLE "cross_chain_fees" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"name_zh" text NOT NULL,
	"cents" bigint NOT NULL,
	CONSTRAINT "cross_chain_fees_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "ddc_fees" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"name_zh" text NOT NULL,
	"cents" bigint NOT NULL,
	CONSTRAINT "ddc_fees_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "prn_data_capacities" (
	"id" serial PRIMARY KEY NOT NULL,
	"gb" integer NOT NULL,
	"price_per_month_cents" bigint NOT NULL,
	CONSTRAINT "prn_data_capacities_gb_unique" UNIQUE("gb")
);
--> statement-breakpoint
CREATE TABLE "prn_fees" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"name_zh" text NOT NULL,
	"cents" bigint NOT NULL,
	CONSTRAINT "prn_fees_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "prn_host_configs" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"cpu" integer NOT NULL,
	"memory_gb" integer NOT NULL,
	"peer_price_per_month_cents" bigint NOT NULL,
	CONSTRAINT "prn_host_configs_code_unique" UNIQUE("code")
);
--> statement-breakpoint
CREATE TABLE "ipfs_capacities" (
	"id" serial PRIMARY KEY NOT NULL,
	"store_unit" integer NOT NULL,
	"unit_price_cents" bigint NOT NULL,
	CONSTRAINT "ipfs_capacities_store_unit_unique" UNIQUE("store_unit")
);
--> statement-breakpoint
CREATE TABLE "pub_chain_fees" (
	"id" serial PRIMARY KEY NOT NULL,
	"code" text NOT NULL,
	"name" text NOT NULL,
	"name_zh" text NOT NULL,
	"cents" bigint NOT NULL,
	CONSTRAINT "pub_chain_fees_code_unique" UNIQUE("code")
);

--> statement-breakpoint
-- Every priced item in the operators' catalogue (docs/decisions/073): the code constants of before, same amounts.
INSERT INTO "ipfs_capacities" ("store_unit", "unit_price_cents") VALUES
  (1, 30), (10, 25), (50, 20), (100, 18), (500, 15), (1024, 12);--> statement-breakpoint
INSERT INTO "prn_host_configs" ("code", "cpu", "memory_gb", "peer_price_per_month_cents") VALUES
  ('c2m4', 2, 4, 3000), ('c4m8', 4, 8, 5500), ('c8m16', 8, 16, 10000);--> statement-breakpoint
INSERT INTO "prn_data_capacities" ("gb", "price_per_month_cents") VALUES
  (20, 400), (50, 900), (100, 1600), (200, 3000);--> statement-breakpoint
INSERT INTO "prn_fees" ("code", "name", "name_zh", "cents") VALUES
  ('base', 'Orderer, gateway and CA of a network', '网络的排序节点、网关与 CA', 2000);--> statement-breakpoint
INSERT INTO "cross_chain_fees" ("code", "name", "name_zh", "cents") VALUES
  ('call', 'A successful cross-chain call', '一次成功的跨链调用', 1);--> statement-breakpoint
INSERT INTO "ddc_fees" ("code", "name", "name_zh", "cents") VALUES
  ('mint', 'Minting a DDC', '铸造 DDC', 10), ('transfer', 'Transferring a DDC', '转让 DDC', 5);--> statement-breakpoint
INSERT INTO "pub_chain_fees" ("code", "name", "name_zh", "cents") VALUES
  ('coin', 'Gas: one coin (10^18 wei)', 'Gas：一个币（10^18 wei）', 10000);
