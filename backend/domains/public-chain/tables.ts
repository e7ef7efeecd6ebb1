import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { cityNodes, users } from "#backend/db/tables.ts";
import { cents, ts } from "#backend/db/columns.ts";
import { feeColumns } from "#backend/db/fee-columns.ts";
import { bills } from "#backend/domains/billing/tables.ts";

/** The Drizzle tables of the public chain (SPEC §3, §4; docs/decisions/026). */

/**
 * SPEC §3 Public-chain organisation node record: a city node that offers the public chain, the plan it sells
 * and that plan's limits. Catalogue data in both languages, upserted at every start (catalogue.ts).
 */
export const pubChainOrgs = pgTable("pub_chain_orgs", {
  id: serial("id").primaryKey(),
  orgCode: text("org_code").notNull().unique(),
  cityNodeId: integer("city_node_id")
    .notNull()
    .references(() => cityNodes.id),
  /** 1 the open-alliance chain. */
  appType: smallint("app_type").notNull().default(1),
  planName: text("plan_name").notNull(),
  planNameZh: text("plan_name_zh").notNull(),
  priceCents: cents("price_cents").notNull(),
  periodDays: integer("period_days").notNull(),
  projectMax: integer("project_max").notNull(),
  dayReqMin: integer("day_req_min").notNull(),
  dayReqMax: integer("day_req_max").notNull(),
  frameworks: jsonb("frameworks").$type<string[]>().notNull(),
  /** A node that stopped selling keeps its plans but sells no new one. */
  selling: boolean("selling").notNull().default(true),
});

/** A plan a user bought on an organisation node: one per node and user. */
export const pubChainPlans = pgTable(
  "pub_chain_plans",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    orgId: integer("org_id")
      .notNull()
      .references(() => pubChainOrgs.id),
    /** 1 active, 2 deactivated (contract/public-chain-codes.ts PlanStatus). */
    status: smallint("status").notNull().default(1),
    billId: integer("bill_id").references(() => bills.id),
    idempotencyKey: text("idempotency_key").notNull(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [
    uniqueIndex("pub_chain_plans_user_org").on(t.userId, t.orgId),
    uniqueIndex("pub_chain_plans_user_idem").on(t.userId, t.idempotencyKey),
  ],
);

/** SPEC §3 Open-chain project, with its key (hashed for look-up, sealed so its owner can show it). */
export const pubChainProjects = pgTable(
  "pub_chain_projects",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    planId: integer("plan_id")
      .notNull()
      .references(() => pubChainPlans.id),
    name: text("name").notNull(),
    framework: text("framework").notNull(),
    /** The chain's registry name (the open-alliance chain). */
    chain: text("chain").notNull(),
    dailyRequests: integer("daily_requests").notNull(),
    /** SPEC §4 Open-alliance project: 1, 5, 10, 11, 15, 16, 20 (machine.ts). */
    status: smallint("status").notNull().default(1),
    failReason: text("fail_reason"),
    /** SHA-256 of the key (hex): what a request's key is looked up by. */
    keyHash: text("key_hash").unique(),
    keySealed: text("key_sealed"),
    keyHint: text("key_hint"),
    keyEnabled: boolean("key_enabled").notNull().default(false),
    keyCreatedAt: ts("key_created_at"),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [
    uniqueIndex("pub_chain_projects_user_name").on(t.userId, t.name),
    index("pub_chain_projects_plan").on(t.planId),
  ],
);

/** Every status change of a project, with who moved it. */
export const pubChainProjectTransitions = pgTable("pub_chain_project_transitions", {
  id: serial("id").primaryKey(),
  projectId: integer("project_id")
    .notNull()
    .references(() => pubChainProjects.id),
  event: text("event").notNull(),
  actor: text("actor").notNull(),
  fromStatus: smallint("from_status").notNull(),
  toStatus: smallint("to_status").notNull(),
  createdAt: ts("created_at").notNull(),
});

/**
 * The meter: per project, UTC+8 day and JSON-RPC method, the requests counted by §9's rule, the calls and the
 * bytes. The sum of a project's day is what its daily limit is checked against (`pubChainDailyUse`).
 */
export const pubChainMeter = pgTable(
  "pub_chain_meter",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => pubChainProjects.id),
    day: date("day", { mode: "string" }).notNull(),
    method: text("method").notNull(),
    requests: integer("requests").notNull().default(0),
    calls: integer("calls").notNull().default(0),
    bytes: bigint("bytes", { mode: "number" }).notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day, t.method] })],
);

/** A project's requests counted today, the row the daily limit is checked and taken on atomically. */
export const pubChainDailyUse = pgTable(
  "pub_chain_daily_use",
  {
    projectId: integer("project_id")
      .notNull()
      .references(() => pubChainProjects.id),
    day: date("day", { mode: "string" }).notNull(),
    requests: integer("requests").notNull().default(0),
  },
  (t) => [primaryKey({ columns: [t.projectId, t.day] }), check("pub_chain_daily_use_nonneg", sql`${t.requests} >= 0`)],
);

/** SPEC §3 Chain account of a project; §4 key type 1 custody (key sealed), 2 public key upload, 3 address upload. */
export const pubChainAccounts = pgTable(
  "pub_chain_accounts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    projectId: integer("project_id")
      .notNull()
      .references(() => pubChainProjects.id),
    name: text("name").notNull(),
    /** EIP-55 checksummed. */
    address: text("address").notNull(),
    keyType: smallint("key_type").notNull(),
    publicKey: text("public_key"),
    keySealed: text("key_sealed"),
    gasWarningWei: text("gas_warning_wei").notNull(),
    /** Since when the gas is below the warning value, as last seen by the gas watch (its message sent once); null above it. */
    gasLowSince: ts("gas_low_since"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("pub_chain_accounts_user_name").on(t.userId, t.name),
    uniqueIndex("pub_chain_accounts_user_address").on(t.userId, t.address),
  ],
);

/** Gas assigned to a chain account from the balance (§9 bill type 50): the bill, the transfer, its outcome. */
export const pubChainGas = pgTable(
  "pub_chain_gas",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    accountId: integer("account_id")
      .notNull()
      .references(() => pubChainAccounts.id),
    billId: integer("bill_id")
      .notNull()
      .references(() => bills.id),
    amountCents: cents("amount_cents").notNull(),
    wei: text("wei").notNull(),
    /** 1 transferring, 15 done, 30 refunded (GasStatus). */
    status: smallint("status").notNull().default(1),
    txHash: text("tx_hash"),
    failReason: text("fail_reason"),
    idempotencyKey: text("idempotency_key").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("pub_chain_gas_user_idem").on(t.userId, t.idempotencyKey),
    index("pub_chain_gas_account").on(t.accountId),
    // The console's search finds a gas transfer by its hash (docs/decisions/086).
    index("pub_chain_gas_tx").on(t.txHash),
  ],
);

/** The public chain's rates: `coin`, the price of one coin (10^18 wei) of gas, never 0 (docs/decisions/073). */
export const pubChainFees = pgTable("pub_chain_fees", feeColumns());
