import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  serial,
  smallint,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";
import { pubChainContracts } from "#backend/domains/contracts/tables.ts";

/** The Drizzle tables of the online IDE (SPEC §1, §2 IDEServices and /ide/portal; docs/decisions/044). */

/** A workspace: a user's set of files, with its last compilation's messages. */
export const ideWorkspaces = pgTable(
  "ide_workspaces",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    /** The template it started from ("storage", "erc20", "events", "empty", later "market:<id>"). */
    templateId: text("template_id").notNull(),
    /** The last compilation: when, by which compiler, and its messages at file and line. */
    compiledAt: ts("compiled_at"),
    compiler: text("compiler"),
    diagnostics: jsonb("diagnostics")
      .$type<{ severity: string; file: string | null; line: number | null; column: number | null; message: string }[]>()
      .notNull()
      .default([]),
    createdAt: ts("created_at").notNull(),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [index("ide_workspaces_user").on(t.userId, t.id)],
);

/** A file or folder of a workspace, by its path ("contracts/Token.sol"); a folder has no content. */
export const ideFiles = pgTable(
  "ide_files",
  {
    id: serial("id").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => ideWorkspaces.id, { onDelete: "cascade" }),
    path: text("path").notNull(),
    folder: boolean("folder").notNull().default(false),
    content: text("content").notNull().default(""),
    updatedAt: ts("updated_at").notNull(),
  },
  (t) => [uniqueIndex("ide_files_workspace_path").on(t.workspaceId, t.path)],
);

/** The contracts of a workspace's last successful compilation: ABI and creation bytecode, per contract. */
export const ideCompiled = pgTable(
  "ide_compiled",
  {
    id: serial("id").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => ideWorkspaces.id, { onDelete: "cascade" }),
    file: text("file").notNull(),
    name: text("name").notNull(),
    abi: jsonb("abi").$type<Record<string, unknown>[]>().notNull(),
    bytecode: text("bytecode").notNull(),
    compiledAt: ts("compiled_at").notNull(),
  },
  (t) => [uniqueIndex("ide_compiled_workspace_contract").on(t.workspaceId, t.file, t.name)],
);

/** A contract deployed from a workspace: the contract deployment (docs/decisions/033) it is. */
export const ideDeployments = pgTable(
  "ide_deployments",
  {
    id: serial("id").primaryKey(),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => ideWorkspaces.id, { onDelete: "cascade" }),
    contractId: integer("contract_id")
      .notNull()
      .references(() => pubChainContracts.id),
    file: text("file").notNull(),
    name: text("name").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("ide_deployments_contract").on(t.contractId),
    index("ide_deployments_workspace").on(t.workspaceId, t.id),
  ],
);

/**
 * The short-lived IDE authorisation of one login session (its token's hash): issued when the portal opens,
 * renewed by every IDE call, refused with MSG_20016 once past `expiresAt` (docs/decisions/044).
 */
export const ideGrants = pgTable(
  "ide_grants",
  {
    tokenHash: text("token_hash").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    issuedAt: ts("issued_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
  },
  (t) => [index("ide_grants_user").on(t.userId)],
);

/**
 * A user's account on the test network (docs/decisions/044 addendum): it signs the user's test-network
 * deployments and writes from the IDE, its key sealed like a test service's deployer, its gas given by the
 * network's treasury as test services' deployers are.
 */
export const ideTestAccounts = pgTable("ide_test_accounts", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id),
  address: text("address").notNull(),
  keySealed: text("key_sealed").notNull(),
  createdAt: ts("created_at").notNull(),
});

/** A contract deployed from a workspace to the test network (SPEC §4 statuses: 1 deploying, 2 success, 3 failed). */
export const ideTestDeployments = pgTable(
  "ide_test_deployments",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    workspaceId: integer("workspace_id")
      .notNull()
      .references(() => ideWorkspaces.id, { onDelete: "cascade" }),
    file: text("file").notNull(),
    name: text("name").notNull(),
    /** The test network's chain when deployed (a reset starts a new one). */
    chainName: text("chain_name").notNull(),
    deployer: text("deployer").notNull(),
    abi: jsonb("abi").$type<Record<string, unknown>[]>().notNull(),
    status: smallint("status").notNull(),
    failReason: text("fail_reason"),
    address: text("address"),
    txHash: text("tx_hash"),
    blockNumber: bigint("block_number", { mode: "number" }),
    createdAt: ts("created_at").notNull(),
    deployedAt: ts("deployed_at"),
  },
  (t) => [
    index("ide_test_deployments_workspace").on(t.workspaceId, t.id),
    // One deployment to the test network at a time per user, enforced by the database too.
    uniqueIndex("ide_test_deployments_one_under_way")
      .on(t.userId)
      .where(sql`${t.status} = 1`),
  ],
);
