import { integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";
import { apps, appVersions, chaincodePackages } from "./service-tables.ts";

/**
 * A consortium service's own chain (docs/decisions/038): FISCO BCOS and CITA services run their Solidity
 * chaincode on an embedded EVM chain of the registry, started by the deploy job. The deployer account's key is
 * sealed; the chain's treasury gives it gas.
 */
export const serviceChains = pgTable("service_chains", {
  appId: integer("app_id")
    .primaryKey()
    .references(() => apps.id),
  chainName: text("chain_name").notNull().unique(),
  chainId: integer("chain_id").notNull(),
  deployerAddress: text("deployer_address").notNull(),
  deployerKeySealed: text("deployer_key_sealed").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** The contract each Solidity package of a version was deployed as on the service's chain. */
export const serviceChainContracts = pgTable(
  "service_chain_contracts",
  {
    id: serial("id").primaryKey(),
    verId: integer("ver_id")
      .notNull()
      .references(() => appVersions.id),
    packageId: integer("package_id")
      .notNull()
      .references(() => chaincodePackages.id),
    contractName: text("contract_name").notNull(),
    address: text("address").notNull(),
    txHash: text("tx_hash").notNull(),
    blockNumber: integer("block_number").notNull(),
    abi: jsonb("abi").$type<unknown[]>().notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("service_chain_contracts_package").on(t.verId, t.packageId)],
);

/**
 * The key of one user (the publisher, or an approved participant) to a service chain's JSON-RPC endpoint
 * /chain/service/<key>: stored as its hash for the lookup and sealed for showing it again.
 */
export const serviceChainKeys = pgTable(
  "service_chain_keys",
  {
    id: serial("id").primaryKey(),
    appId: integer("app_id")
      .notNull()
      .references(() => apps.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    keyHash: text("key_hash").notNull().unique(),
    keySealed: text("key_sealed").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [uniqueIndex("service_chain_keys_user").on(t.appId, t.userId)],
);
