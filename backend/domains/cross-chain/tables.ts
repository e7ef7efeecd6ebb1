import { bigint, index, integer, pgTable, primaryKey, serial, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";
import { feeColumns } from "#backend/db/fee-columns.ts";
import { apps } from "#backend/domains/services/tables.ts";
import { bills } from "#backend/domains/billing/tables.ts";

/**
 * The Drizzle tables of cross-chain services (SPEC §3 cross-chain call record; docs/decisions/048). The service's
 * cross-chain flag, protocol, APPCode and status are columns of the services domain's `apps`.
 */

/** The accounts of the domain: the relayer (one key, the same address on every chain) and each service's sender. */
export const crossChainAccounts = pgTable("cross_chain_accounts", {
  /** "relayer", or "sender:<appId>". */
  name: text("name").primaryKey(),
  address: text("address").notNull(),
  keySealed: text("key_sealed").notNull(),
  createdAt: ts("created_at").notNull(),
});

/** The compiled message contracts and samples, kept after their first compilation (ABI and bytecode by contract name). */
export const crossChainArtifacts = pgTable("cross_chain_artifacts", {
  name: text("name").primaryKey(),
  /** sha256 of the sources it was compiled from: a change of the sources compiles again. */
  sourceHash: text("source_hash").notNull(),
  abi: text("abi").notNull(),
  bytecode: text("bytecode").notNull(),
  createdAt: ts("created_at").notNull(),
});

/** The contracts deployed on a chain for a protocol: messenger, inbox, nft, deposit (one set per chain and protocol). */
export const crossChainContracts = pgTable(
  "cross_chain_contracts",
  {
    chainName: text("chain_name").notNull(),
    protocol: smallint("protocol").notNull(),
    role: text("role").notNull(),
    chainId: integer("chain_id").notNull(),
    address: text("address").notNull(),
    txHash: text("tx_hash").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.chainName, t.protocol, t.role] })],
);

/** The relayer's cursor per source chain: the last block whose logs it has read. */
export const crossChainCursors = pgTable("cross_chain_cursors", {
  chainName: text("chain_name").primaryKey(),
  lastBlock: bigint("last_block", { mode: "number" }).notNull(),
  updatedAt: ts("updated_at").notNull(),
});

/** SPEC §3 cross-chain call record: one message of a source chain and its delivery to the target chain. */
export const crossChainCalls = pgTable(
  "cross_chain_calls",
  {
    id: serial("id").primaryKey(),
    /** The source service (its chain is the source chain) and its owner, who is billed. */
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    protocol: smallint("protocol").notNull(),
    kind: text("kind").notNull(),
    sourceChain: text("source_chain").notNull(),
    sourceChainId: integer("source_chain_id").notNull(),
    sourceContract: text("source_contract").notNull(),
    sequence: bigint("sequence", { mode: "number" }).notNull(),
    sender: text("sender").notNull(),
    targetChain: text("target_chain").notNull(),
    targetChainId: integer("target_chain_id").notNull(),
    targetAddress: text("target_address").notNull(),
    data: text("data").notNull(),
    /** SPEC §4 cross-chain call: 0 unknown, 1 success, 2 failure. */
    status: smallint("status").notNull().default(0),
    sourceTxHash: text("source_tx_hash").notNull(),
    sourceBlock: bigint("source_block", { mode: "number" }).notNull(),
    targetTxHash: text("target_tx_hash"),
    attempts: integer("attempts").notNull().default(0),
    reason: text("reason"),
    /** When the next delivery attempt may start (backoff), and until when a relayer holds it. */
    nextAttemptAt: ts("next_attempt_at").notNull(),
    leaseUntil: ts("lease_until"),
    feeCents: integer("fee_cents").notNull().default(0),
    /** The weekly cross-chain bill that counted it. */
    billId: integer("bill_id").references(() => bills.id),
    createdAt: ts("created_at").notNull(),
    deliveredAt: ts("delivered_at"),
  },
  (t) => [
    uniqueIndex("cross_chain_calls_message").on(t.sourceChain, t.sourceContract, t.sequence),
    index("cross_chain_calls_app").on(t.appId, t.createdAt),
    index("cross_chain_calls_pending").on(t.status, t.nextAttemptAt),
    index("cross_chain_calls_bill").on(t.userId, t.status, t.billId),
  ],
);

/** The cross-chain fees: `call`, one successful call, recorded on the call when it is delivered (docs/decisions/073). */
export const crossChainFees = pgTable("cross_chain_fees", feeColumns());
