import { boolean, index, integer, jsonb, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "../../db/tables";
import { ts } from "../../db/columns";
import { pubChainContracts } from "../contracts/tables";

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
    diagnostics: jsonb("diagnostics").$type<{ severity: string; file: string | null; line: number | null; column: number | null; message: string }[]>().notNull().default([]),
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
  (t) => [uniqueIndex("ide_deployments_contract").on(t.contractId), index("ide_deployments_workspace").on(t.workspaceId, t.id)],
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
