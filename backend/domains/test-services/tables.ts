import { bigint, index, integer, jsonb, pgTable, serial, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";

/** The Drizzle tables of test services (SPEC §3 Test service, §4; docs/decisions/034). */

/**
 * SPEC §3 Test service: its sources (file name → Solidity), the contract it deploys, its status (§4 and 034)
 * and, once deployed, where: the test network's chain, the contract, its deployer account (the chaincode
 * address, whose key is sealed) and the test key of its JSON-RPC endpoint (hashed, and sealed for showing).
 */
export const testServices = pgTable(
  "test_services",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    version: text("version").notNull(),
    platform: text("platform").notNull(),
    sourceKind: text("source_kind").notNull(),
    sources: jsonb("sources").$type<Record<string, string>>().notNull(),
    packageName: text("package_name"),
    /**
     * What it runs (docs/decisions/069): "solidity" on the EVM test network, or "node", a Node.js chaincode on its
     * own channel of the embedded Fabric peer (`test-<app code>`), from the uploaded package (a file of the
     * storage kit) with the init parameters as Init's arguments.
     */
    language: text("language").notNull().default("solidity"),
    packageFileId: integer("package_file_id"),
    channel: text("channel"),
    mainContract: text("main_contract").notNull().default(""),
    initParams: text("init_params").notNull().default(""),
    status: smallint("status").notNull(),
    appCode: text("app_code").notNull().unique(),
    failReason: text("fail_reason"),
    suggestion: text("suggestion"),
    /** Counts the deployments asked for (each has its own job). */
    attempts: integer("attempts").notNull().default(0),
    chainName: text("chain_name"),
    contractName: text("contract_name"),
    contractAddress: text("contract_address"),
    abi: jsonb("abi").$type<unknown[]>(),
    txHash: text("tx_hash"),
    blockNumber: bigint("block_number", { mode: "number" }),
    deployerAddress: text("deployer_address").notNull(),
    deployerKeySealed: text("deployer_key_sealed").notNull(),
    keyHash: text("key_hash").notNull().unique(),
    keySealed: text("key_sealed").notNull(),
    /** The identity certificate chain (participation's certificates, docs/decisions/034) and its private key, sealed. */
    certificatePem: text("certificate_pem"),
    certificateKeySealed: text("certificate_key_sealed"),
    deployedAt: ts("deployed_at"),
    createdAt: ts("created_at").notNull().defaultNow(),
    updatedAt: ts("updated_at").notNull().defaultNow(),
  },
  (t) => [
    uniqueIndex("test_services_user_name_version").on(t.userId, t.name, t.version),
    index("test_services_user").on(t.userId, t.id),
  ],
);

/** Every move of a test service (event, actor, from → to). */
export const testServiceTransitions = pgTable("test_service_transitions", {
  id: serial("id").primaryKey(),
  testServiceId: integer("test_service_id")
    .notNull()
    .references(() => testServices.id, { onDelete: "cascade" }),
  event: text("event").notNull(),
  actor: text("actor").notNull(),
  fromStatus: smallint("from_status").notNull(),
  toStatus: smallint("to_status").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/**
 * The test network's generations: a reset starts a new chain of the registry ("test-network-<n>", a fresh
 * genesis with its own chain id). No row: the registry's default "test-network" is generation 1.
 */
export const testNetworkGenerations = pgTable("test_network_generations", {
  generation: integer("generation").primaryKey(),
  chainName: text("chain_name").notNull().unique(),
  resetBy: integer("reset_by").references(() => users.id),
  createdAt: ts("created_at").notNull().defaultNow(),
});
