import { sql } from "drizzle-orm";
import {
  bigint,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { cityNodes, users } from "#backend/db/tables.ts";
import { cents, ts } from "#backend/db/columns.ts";
import { bills } from "#backend/domains/billing/tables.ts";

/** The Drizzle tables of IPFS storage (SPEC §3 IPFS service, §4 IPFS key; docs/decisions/039). */

/** SPEC §3 IPFS service: its capacity and what its pinned files use of it. */
export const ipfsServices = pgTable(
  "ipfs_services",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    /** The capacity bought, in GB (SPEC §7 storeUnit). */
    storeUnit: integer("store_unit").notNull(),
    capacityBytes: bigint("capacity_bytes", { mode: "number" }).notNull(),
    /** The sum of its pinned files' sizes. */
    usedBytes: bigint("used_bytes", { mode: "number" }).notNull().default(0),
    /** 1 running, 2 unsubscribed (contract/ipfs-codes.ts IpfsServiceStatus). */
    status: smallint("status").notNull().default(1),
    billId: integer("bill_id").references(() => bills.id),
    idempotencyKey: text("idempotency_key").notNull(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("ipfs_services_user_name").on(t.userId, t.name),
    uniqueIndex("ipfs_services_user_idem").on(t.userId, t.idempotencyKey),
  ],
);

/** SPEC §4 IPFS key: one upload and one download key per service, looked up by SHA-256, sealed to be shown again. */
export const ipfsKeys = pgTable(
  "ipfs_keys",
  {
    id: serial("id").primaryKey(),
    serviceId: integer("service_id")
      .notNull()
      .references(() => ipfsServices.id),
    /** upload | download */
    kind: text("kind").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    keySealed: text("key_sealed").notNull(),
    keyHint: text("key_hint").notNull(),
    /** 0 deactivated, 1 activated, 2 unsubscribed. */
    state: smallint("state").notNull().default(1),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [uniqueIndex("ipfs_keys_service_kind").on(t.serviceId, t.kind)],
);

/** The city node gateways a service chose (SPEC §7 selectIpfsOrgFlowPrices); each has its traffic price. */
export const ipfsServiceGateways = pgTable(
  "ipfs_service_gateways",
  {
    serviceId: integer("service_id")
      .notNull()
      .references(() => ipfsServices.id),
    cityNodeId: integer("city_node_id")
      .notNull()
      .references(() => cityNodes.id),
  },
  (t) => [primaryKey({ columns: [t.serviceId, t.cityNodeId] })],
);

/** A file a service pinned: one engine pin each (the same CID twice is two pins). */
export const ipfsFiles = pgTable(
  "ipfs_files",
  {
    id: serial("id").primaryKey(),
    serviceId: integer("service_id")
      .notNull()
      .references(() => ipfsServices.id),
    name: text("name").notNull(),
    cid: text("cid").notNull(),
    size: bigint("size", { mode: "number" }).notNull(),
    contentType: text("content_type").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("ipfs_files_service_cid").on(t.serviceId, t.cid), index("ipfs_files_cid").on(t.cid)],
);

/** Bytes served per service, gateway and day (UTC+8): what the weekly IPFS traffic bills charge. */
export const ipfsTrafficDaily = pgTable(
  "ipfs_traffic_daily",
  {
    serviceId: integer("service_id")
      .notNull()
      .references(() => ipfsServices.id),
    cityNodeId: integer("city_node_id")
      .notNull()
      .references(() => cityNodes.id),
    day: date("day", { mode: "string" }).notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.serviceId, t.cityNodeId, t.day] }), index("ipfs_traffic_day").on(t.day)],
);

/**
 * The same bytes per file (CID) too (issue 35 §3, docs/decisions/093): written by the meter's flush in the same
 * transaction as `ipfs_traffic_daily`, so the files of a (day, gateway, service) add up to its row for traffic
 * metered since migration 0050 (older days have no file rows). One row per file served per gateway per day; the
 * requests themselves are not kept.
 */
export const ipfsTrafficFilesDaily = pgTable(
  "ipfs_traffic_files_daily",
  {
    serviceId: integer("service_id")
      .notNull()
      .references(() => ipfsServices.id),
    cityNodeId: integer("city_node_id")
      .notNull()
      .references(() => cityNodes.id),
    day: date("day", { mode: "string" }).notNull(),
    cid: text("cid").notNull(),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.serviceId, t.cityNodeId, t.day, t.cid] }),
    index("ipfs_traffic_files_day").on(t.day),
  ],
);

/**
 * SPEC §4 IPFS upgrade: a capacity upgrade of a service (0 pending, 2 operations processing, 5 success, 6
 * failed; backend/domains/ipfs/machine.ts). The price difference is paid when it is requested (`billId`), the
 * new capacity applies on success, a failure refunds the bill.
 */
export const ipfsUpgrades = pgTable(
  "ipfs_upgrades",
  {
    id: serial("id").primaryKey(),
    serviceId: integer("service_id")
      .notNull()
      .references(() => ipfsServices.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    fromStoreUnit: integer("from_store_unit").notNull(),
    toStoreUnit: integer("to_store_unit").notNull(),
    /** What the difference cost for the rest of the paid period (docs/decisions/039 addendum). */
    priceDiffCents: integer("price_diff_cents").notNull(),
    /** 0 pending, 2 operations processing, 5 success, 6 failed (contract/ipfs-codes.ts IpfsUpgradeStatus). */
    status: smallint("status").notNull().default(0),
    /** The paid IPFS bill of the difference (none when the difference is 0). */
    billId: integer("bill_id").references(() => bills.id),
    failReason: text("fail_reason"),
    idempotencyKey: text("idempotency_key").notNull(),
    createdAt: ts("created_at").notNull(),
    /** When an operator took it (0 → 2). */
    takenAt: ts("taken_at"),
    takenBy: integer("taken_by").references(() => users.id),
    decidedAt: ts("decided_at"),
    decidedBy: integer("decided_by").references(() => users.id),
  },
  (t) => [
    uniqueIndex("ipfs_upgrades_user_idem").on(t.userId, t.idempotencyKey),
    index("ipfs_upgrades_service").on(t.serviceId),
    index("ipfs_upgrades_status").on(t.status),
    // One open upgrade (0 or 2) per service, kept by the database too.
    uniqueIndex("ipfs_upgrades_one_open")
      .on(t.serviceId)
      .where(sql`${t.status} in (0, 2)`),
  ],
);

/**
 * SPEC §7 selectCapacity: the capacities a service may have (GB) with the monthly price of a GB at each; larger
 * capacities cost less per GB. Operators change the prices (docs/decisions/073); the rows are seeded by migration.
 */
export const ipfsCapacities = pgTable("ipfs_capacities", {
  id: serial("id").primaryKey(),
  storeUnit: integer("store_unit").notNull().unique(),
  unitPriceCents: cents("unit_price_cents").notNull(),
});

/**
 * The embedded engine's blocks when its state is shared (DATABASE_URL or FILES_URL; docs/decisions/096): each
 * block's bytes are a blob of the file store under the SHA-256 of the bytes (a sha2-256 CID's digest, in hex),
 * and this row names that blob, so the blob sweep leaves it. A row leaves when no pinned root holds the block;
 * the bytes then go with the next blob sweep.
 */
export const ipfsBlocks = pgTable("ipfs_blocks", {
  address: text("address").primaryKey(),
  size: integer("size").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** The embedded engine's pins when its state is shared (docs/decisions/096): a count per root (CIDv1, base32). */
export const ipfsPins = pgTable("ipfs_pins", {
  cid: text("cid").primaryKey(),
  count: integer("count").notNull(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

/**
 * A file's unpin under way (docs/decisions/108): written in the transaction that deletes the file's row, removed once
 * the engine has taken its pin away or a job owes it. Until then the pin sweep counts it as one of the root's
 * holders, so a deletion caught between its commit and its unpin never makes the sweep take a pin twice. One left
 * by a process that died in that gap is void after an hour (the sweep's gap).
 */
export const ipfsUnpins = pgTable(
  "ipfs_unpins",
  {
    fileId: integer("file_id").primaryKey(),
    cid: text("cid").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("ipfs_unpins_cid").on(t.cid)],
);
