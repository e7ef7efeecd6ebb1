import { sql } from "drizzle-orm";
import { boolean, index, integer, pgTable, serial, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { cityNodes, users } from "#backend/db/tables.ts";
import { cents, ts } from "#backend/db/columns.ts";
import { feeColumns } from "#backend/db/fee-columns.ts";
import { bills } from "#backend/domains/billing/tables.ts";

/** The Drizzle tables of dedicated nodes (SPEC §3 dedicated node project, §4; docs/decisions/047). */

/** SPEC §3 dedicated node project: its configuration, paid period and status; the network is `prn-<name>`. */
export const prnProjects = pgTable(
  "prn_projects",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** Lowercase letters; unique among the projects whose network still exists (not purged). */
    name: text("name").notNull(),
    framework: text("framework").notNull(),
    consensus: text("consensus").notNull(),
    /** The cloud (the city node's cloudProvider) and the region (the city node). */
    cloud: text("cloud").notNull(),
    cityNodeId: integer("city_node_id")
      .notNull()
      .references(() => cityNodes.id),
    /** Peers. */
    nodeCount: integer("node_count").notNull(),
    hostConfig: text("host_config").notNull(),
    dataCapacityGb: integer("data_capacity_gb").notNull(),
    /** §4 Payment cycle: 1 yearly, 2 monthly. */
    cycle: smallint("cycle").notNull(),
    authUser: text("auth_user").notNull(),
    /** The authorized password, sealed, only until the deploy job has handed it to the network (then null). */
    passwordSealed: text("password_sealed"),
    /** SPEC §4: 1 not deployed, 2 deploying, 3 running, 4 failed, 5 deleted, 6 unsubscribed. */
    status: smallint("status").notNull().default(1),
    failReason: text("fail_reason"),
    /** The price of one period of the current configuration. */
    priceCents: cents("price_cents").notNull(),
    periodStart: ts("period_start").notNull(),
    periodEnd: ts("period_end").notNull(),
    /** The nodes are stopped because the renewal bill (`renewalBillId`) is unpaid. */
    suspended: boolean("suspended").notNull().default(false),
    renewalBillId: integer("renewal_bill_id").references(() => bills.id),
    /** When the network's data is removed (deleted or unsubscribed: the period's end), and when it was. */
    purgeAt: ts("purge_at"),
    purgedAt: ts("purged_at"),
    billId: integer("bill_id").references(() => bills.id),
    idempotencyKey: text("idempotency_key").notNull(),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("prn_projects_user_idem").on(t.userId, t.idempotencyKey),
    uniqueIndex("prn_projects_live_name")
      .on(t.name)
      .where(sql`purged_at is null`),
    index("prn_projects_user").on(t.userId, t.id),
  ],
);

/** SPEC §4 Dedicated node upgrade: node count, host configuration or data capacity, with the difference paid. */
export const prnUpgrades = pgTable(
  "prn_upgrades",
  {
    id: serial("id").primaryKey(),
    projectId: integer("project_id")
      .notNull()
      .references(() => prnProjects.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** 1 node count, 2 host configuration, 3 data capacity. */
    updateType: smallint("update_type").notNull(),
    fromValue: text("from_value").notNull(),
    toValue: text("to_value").notNull(),
    priceDiffCents: cents("price_diff_cents").notNull(),
    /** 1 upgrading, 2 success, 3 failed. */
    status: smallint("status").notNull().default(1),
    failReason: text("fail_reason"),
    billId: integer("bill_id").references(() => bills.id),
    idempotencyKey: text("idempotency_key").notNull(),
    createdAt: ts("created_at").notNull(),
    finishedAt: ts("finished_at"),
  },
  (t) => [
    uniqueIndex("prn_upgrades_user_idem").on(t.userId, t.idempotencyKey),
    index("prn_upgrades_project").on(t.projectId, t.id),
  ],
);

/** The host configurations a peer may run on, with the monthly price of one peer on each (docs/decisions/073). */
export const prnHostConfigs = pgTable("prn_host_configs", {
  id: serial("id").primaryKey(),
  code: text("code").notNull().unique(),
  cpu: integer("cpu").notNull(),
  memoryGb: integer("memory_gb").notNull(),
  peerPricePerMonthCents: cents("peer_price_per_month_cents").notNull(),
});

/** The data capacities of a peer (GB), with the monthly price per peer of each (docs/decisions/073). */
export const prnDataCapacities = pgTable("prn_data_capacities", {
  id: serial("id").primaryKey(),
  gb: integer("gb").notNull().unique(),
  pricePerMonthCents: cents("price_per_month_cents").notNull(),
});

/** The network's fees: `base`, the orderer, gateway and CA per month whatever the peers (docs/decisions/073). */
export const prnFees = pgTable("prn_fees", feeColumns());
