import { bigint, date, index, integer, pgTable, primaryKey, serial, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { cityNodes, users } from "../../db/tables";
import { ts } from "../../db/columns";
import { bills } from "../billing/tables";

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
  (t) => [uniqueIndex("ipfs_services_user_name").on(t.userId, t.name), uniqueIndex("ipfs_services_user_idem").on(t.userId, t.idempotencyKey)],
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
