import { sql } from "drizzle-orm";
import { bigint, index, integer, jsonb, pgTable, serial, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { files, users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";
import { feeColumns } from "#backend/db/fee-columns.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";

/** The Drizzle tables of DDC certificates and account binding (SPEC §2, §3, §9; docs/decisions/045). */

/** One ERC-721 collection contract per open-alliance project, deployed by the account of its first mint. */
export const ddcCollections = pgTable("ddc_collections", {
  id: serial("id").primaryKey(),
  projectId: integer("project_id")
    .notNull()
    .unique()
    .references(() => pubChainProjects.id),
  /** The account that deployed (and owns) the contract: it grants the project's other accounts the right to mint. */
  ownerAccountId: integer("owner_account_id")
    .notNull()
    .references(() => pubChainAccounts.id),
  address: text("address").notNull(),
  txHash: text("tx_hash").notNull(),
  blockNumber: bigint("block_number", { mode: "number" }).notNull(),
  createdAt: ts("created_at").notNull(),
});

/**
 * A DDC: token `id` of its project's collection (the token id is the row's id). Its file is on the user's
 * IPFS service (`ipfsServiceId`, `fileCid`) or kept by the product (`fileId`, the storage adapter).
 */
export const ddcs = pgTable(
  "ddcs",
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
    collectionId: integer("collection_id").references(() => ddcCollections.id),
    name: text("name").notNull(),
    description: text("description").notNull(),
    metadata: jsonb("metadata").$type<{ key: string; value: string }[]>().notNull(),
    fileName: text("file_name").notNull(),
    fileMime: text("file_mime").notNull(),
    fileSize: integer("file_size").notNull(),
    fileId: integer("file_id").references(() => files.id),
    ipfsServiceId: integer("ipfs_service_id"),
    fileCid: text("file_cid"),
    metadataCid: text("metadata_cid"),
    tokenUri: text("token_uri"),
    /** 1 minting, 2 minted, 3 failed (contract/ddc-codes.ts DdcStatus). */
    status: smallint("status").notNull().default(1),
    failReason: text("fail_reason"),
    mintTxHash: text("mint_tx_hash"),
    mintBlock: bigint("mint_block", { mode: "number" }),
    billId: integer("bill_id").references(() => bills.id),
    idempotencyKey: text("idempotency_key").notNull(),
    /** scrypt hash of the QR-code password (SPEC §3), null when the DDC is open; `passwordVersion` changes with it. */
    passwordHash: text("password_hash"),
    passwordVersion: integer("password_version").notNull().default(0),
    createdAt: ts("created_at").notNull(),
    mintedAt: ts("minted_at"),
  },
  (t) => [
    index("ddcs_user").on(t.userId, t.id),
    index("ddcs_project").on(t.projectId),
    index("ddcs_status").on(t.status, t.createdAt),
    uniqueIndex("ddcs_user_idem").on(t.userId, t.idempotencyKey),
  ],
);

/**
 * A transfer of a DDC made from the portal (bill type 92); the full history is read from the chain. It is written
 * "sending" with its paid fee, gets its signed transaction's hash before the send, and is "done" (with its block)
 * or "failed" (fee refunded) after the receipt, in the request or by the recovery job (docs/decisions/045).
 */
export const ddcTransfers = pgTable(
  "ddc_transfers",
  {
    id: serial("id").primaryKey(),
    ddcId: integer("ddc_id")
      .notNull()
      .references(() => ddcs.id),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address").notNull(),
    txHash: text("tx_hash"),
    blockNumber: bigint("block_number", { mode: "number" }),
    billId: integer("bill_id").references(() => bills.id),
    /** 1 sending, 2 done, 3 failed (contract/ddc-codes.ts DdcTransferStatus). */
    status: smallint("status").notNull().default(2),
    failReason: text("fail_reason"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [index("ddc_transfers_ddc").on(t.ddcId), index("ddc_transfers_sending").on(t.status, t.createdAt)],
);

/** A one-time EIP-4361 challenge: the exact message the user signs; used once, before it expires. */
export const siweChallenges = pgTable(
  "siwe_challenges",
  {
    nonce: text("nonce").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    address: text("address").notNull(),
    message: text("message").notNull(),
    createdAt: ts("created_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [index("siwe_challenges_user").on(t.userId, t.createdAt)],
);

/** A chain address bound to a portal account by a verified signature; an address is bound to one account. */
export const addressBindings = pgTable(
  "address_bindings",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    /** EIP-55 checksummed. */
    address: text("address").notNull(),
    chainId: integer("chain_id").notNull(),
    nonce: text("nonce").notNull(),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [
    uniqueIndex("address_bindings_address").on(sql`lower(${t.address})`),
    index("address_bindings_user").on(t.userId),
  ],
);

/** The DDC service fees (§9 bill types 91 and 92): `mint` and `transfer`, charged with the action (docs/decisions/073). */
export const ddcFees = pgTable("ddc_fees", feeColumns());
