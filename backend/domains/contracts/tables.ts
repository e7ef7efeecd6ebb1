import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, serial, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";

/** The Drizzle tables of contract deployment (SPEC §3, §4 Contract deployment; docs/decisions/033). */

/**
 * A contract deployed (or being deployed) from an open-alliance project's custody account. The signed
 * deployment transaction is stored before it is sent, so that a job resumed after a crash reconciles it from
 * its receipt (or sends the very same bytes again) and never signs a second one.
 */
export const pubChainContracts = pgTable(
  "pub_chain_contracts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    projectId: integer("project_id")
      .notNull()
      .references(() => pubChainProjects.id),
    accountId: integer("account_id")
      .notNull()
      .references(() => pubChainAccounts.id),
    name: text("name").notNull(),
    /** "source" (Solidity compiled on the server) or "abi" (ABI and bytecode given). */
    sourceKind: text("source_kind").notNull(),
    source: text("source"),
    mainContract: text("main_contract"),
    compiler: text("compiler"),
    abi: jsonb("abi").$type<Record<string, unknown>[]>(),
    bytecode: text("bytecode"),
    constructorArgs: jsonb("constructor_args").$type<string[]>().notNull(),
    /** SPEC §4: 0 pending, 1 deploying, 2 success, 3 failed. */
    status: smallint("status").notNull().default(0),
    failReason: text("fail_reason"),
    /** The signed deployment transaction (hex) and its hash, written before it is sent. */
    rawTx: text("raw_tx"),
    txHash: text("tx_hash"),
    address: text("address"),
    blockNumber: bigint("block_number", { mode: "number" }),
    gasUsed: text("gas_used"),
    /** Each deployment attempt (creation, redeploy) has its own job. */
    attempt: integer("attempt").notNull().default(0),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
    deployedAt: ts("deployed_at"),
  },
  (t) => [
    index("pub_chain_contracts_project").on(t.projectId, t.id),
    // The console's search finds a contract by its address or its deployment's hash (docs/decisions/086).
    index("pub_chain_contracts_address").on(t.address),
    index("pub_chain_contracts_tx").on(t.txHash),
    // §4 "Only one deployment at a time" per project, enforced by the database too.
    uniqueIndex("pub_chain_contracts_one_under_way")
      .on(t.projectId)
      .where(sql`${t.status} in (0, 1)`),
  ],
);
