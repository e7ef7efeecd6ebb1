import { bigint, index, integer, jsonb, pgTable, primaryKey, smallint, text } from "drizzle-orm/pg-core";
import { bytea, ts } from "#backend/db/columns.ts";

/**
 * The Drizzle tables of the fabric domain (docs/decisions/064). The database is each channel's durable block log:
 * a block is written here before `order()` answers, and a channel's world state and key history are rebuilt from
 * these rows at first use after a start, as the chain log does for the EVM engine (docs/decisions/025). The bytes are
 * the ledger's records, written in the transaction that acknowledges them, so they stay here rather than in the file
 * store (docs/decisions/107).
 */

/** Every block of a channel (genesis included): Fabric's `common.Block` bytes as the peer built them. */
export const fabricBlocks = pgTable(
  "fabric_blocks",
  {
    /** The channel: one per consortium service's network (`svc-<app code>`), or a throwaway test channel. */
    channel: text("channel").notNull(),
    number: bigint("number", { mode: "number" }).notNull(),
    /** `common.Block` bytes (header, the transactions' envelopes, metadata with the validation codes). */
    block: bytea("block").notNull(),
    committedAt: ts("committed_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.channel, t.number] })],
);

/**
 * The transaction index: txId → block and validation code; with the transaction's read/write set and event
 * (the same bytes its envelope carries), which is what the rebuild applies in block order.
 */
export const fabricTxs = pgTable(
  "fabric_txs",
  {
    channel: text("channel").notNull(),
    txId: text("tx_id").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    txIndex: integer("tx_index").notNull(),
    /** Fabric's `protos.TxValidationCode` (0 VALID, 11 MVCC_READ_CONFLICT, 12 PHANTOM_READ_CONFLICT, ...). */
    validationCode: smallint("validation_code").notNull(),
    chaincode: text("chaincode").notNull(),
    /** `rwset.TxReadWriteSet` bytes. */
    results: bytea("results").notNull(),
    /** `protos.ChaincodeEvent` bytes, when the chaincode set one. */
    event: bytea("event"),
    /** The commit time, as GetHistoryForKey reports it. */
    committedAt: ts("committed_at").notNull(),
  },
  (t) => [primaryKey({ columns: [t.channel, t.txId] }), index("fabric_txs_block").on(t.channel, t.blockNumber)],
);

/**
 * The chaincode installed on a channel (one per channel: the service's package), by version: a new version is an
 * upgrade. The package is unpacked under `DATA_DIR/fabric/<channel>/<name>/<version>/` (its digest checks it), and its
 * zip is a stored file (`package_file_id`), from which a process that takes the peer over unpacks it again
 * (docs/decisions/099; null for a version installed before).
 */
export const fabricChaincodes = pgTable(
  "fabric_chaincodes",
  {
    channel: text("channel").notNull(),
    name: text("name").notNull(),
    version: text("version").notNull(),
    /** SHA-256 of the package zip (hex). */
    digest: text("digest").notNull(),
    /** The package's entries and sizes as unpacked, for an operator. */
    files: jsonb("files").$type<string[]>().notNull(),
    /** The transaction of its Init (null while none ran). */
    initTxId: text("init_tx_id"),
    /** The package zip in the file store (backend/kit/storage.ts). */
    packageFileId: integer("package_file_id"),
    installedAt: ts("installed_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.channel, t.version] }), index("fabric_chaincodes_name").on(t.channel, t.name)],
);

/**
 * The CA of the gateway's TLS certificates (docs/decisions/065, 099): one row, its key sealed, so that whichever
 * process runs the peer presents a certificate the clients' pinned CA trusts. A CA that DATA_DIR/fabric-gateway held
 * before is copied here once.
 */
export const fabricGatewayCa = pgTable("fabric_gateway_ca", {
  id: smallint("id").primaryKey().default(1),
  certificatePem: text("certificate_pem").notNull(),
  keySealed: text("key_sealed").notNull(),
  createdAt: ts("created_at").notNull().defaultNow(),
});
