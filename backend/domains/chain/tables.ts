import { bigint, index, integer, jsonb, pgTable, primaryKey, serial, smallint, text } from "drizzle-orm/pg-core";
import { ts } from "#backend/db/columns.ts";

/** A receipt's status, as chain_txs keeps it (the engine's SealedTx). */
export { ReceiptStatus } from "./engine/types.ts";

/**
 * The Drizzle tables of the chain domain (docs/decisions/025). The database is the chains' durable log: a
 * block is recorded here, with its raw transactions, before any of them is answered as accepted, and the
 * engine's LevelDB is brought back to it at start. The same rows are the index of transactions, receipts and
 * logs that the engine itself does not keep.
 */

/** The registry: every chain of the engine (or, with CHAIN_RPC_URL, every name mapped to that node). */
export const chains = pgTable("chains", {
  id: serial("id").primaryKey(),
  /** The registry's name: "open-alliance", "test-network", "service-<id>"… */
  name: text("name").notNull().unique(),
  /** The EIP-155 chain id. */
  chainId: integer("chain_id").notNull(),
  /** What it carries, for operators: "open-alliance", "test", "consortium". */
  purpose: text("purpose").notNull(),
  /** The treasury funded at genesis: its address, and its private key sealed with the server secret. */
  treasuryAddress: text("treasury_address").notNull(),
  treasuryKeySealed: text("treasury_key_sealed").notNull(),
  /** Wei given to the treasury at genesis (decimal). */
  treasuryWei: text("treasury_wei").notNull(),
  /** With CHAIN_NODES: the address of the node that serves it (docs/decisions/094); null on the embedded engine. */
  nodeUrl: text("node_url"),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/**
 * With CHAIN_NODES: the operators' mapping of chains to nodes (docs/decisions/094, addendum). A row sends its chain to
 * the configured node of that address before the pool rule. The file seeds a row for each chain it names (source
 * "file") and keeps those rows in step with itself; a row an operator set (source "operator") wins over the file. A
 * chain without a row stays on the node recorded in `chains.node_url` (the pool's choice). Keys stay in the file.
 */
export const chainNodeMap = pgTable("chain_node_map", {
  /** The registry's name (`chains.name`). */
  chainName: text("chain_name").primaryKey(),
  /** The configured node's address, as the CHAIN_NODES file writes it. */
  nodeUrl: text("node_url").notNull(),
  /** "file": seeded from CHAIN_NODES; "operator": set on the operations page. */
  source: text("source").$type<"file" | "operator">().notNull(),
  /** The operator who set it (null for the file's). */
  setBy: text("set_by"),
  setAt: ts("set_at").notNull().defaultNow(),
});

/** Every sealed block: what replay needs to seal it again to the same hash. */
export const chainBlocks = pgTable(
  "chain_blocks",
  {
    chainId: integer("chain_id").notNull(),
    number: bigint("number", { mode: "number" }).notNull(),
    hash: text("hash").notNull(),
    parentHash: text("parent_hash").notNull(),
    /** Unix seconds, as in the header. */
    timestamp: bigint("timestamp", { mode: "number" }).notNull(),
    gasUsed: text("gas_used").notNull(),
    /** The raw signed transactions in block order (hex). */
    rawTxs: jsonb("raw_txs").$type<string[]>().notNull(),
    sealedAt: ts("sealed_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.number] }), index("chain_blocks_hash").on(t.hash)],
);

/**
 * A chain's engine state at one recorded block, as a stored file (docs/decisions/103): with several processes on one
 * database, the lease's holder writes one every CHAIN_SNAPSHOT_BLOCKS blocks (the last two are kept), and a holder
 * whose DATA_DIR is behind starts from the newest one and replays only the log after it.
 */
export const chainSnapshots = pgTable(
  "chain_snapshots",
  {
    chainId: integer("chain_id").notNull(),
    number: bigint("number", { mode: "number" }).notNull(),
    /** The block's hash: the restored head must have it. */
    hash: text("hash").notNull(),
    fileId: integer("file_id").notNull(),
    /** SHA-256 of the file's bytes (hex), checked before it is read. */
    sha256: text("sha256").notNull(),
    entries: integer("entries").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.chainId, t.number] })],
);

/** The transaction and receipt index (eth_getTransactionByHash, eth_getTransactionReceipt). */
export const chainTxs = pgTable(
  "chain_txs",
  {
    chainId: integer("chain_id").notNull(),
    hash: text("hash").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    blockHash: text("block_hash").notNull(),
    txIndex: integer("tx_index").notNull(),
    fromAddress: text("from_address").notNull(),
    toAddress: text("to_address"),
    /** Receipt status (ReceiptStatus): 1 success, 0 reverted. */
    status: smallint("status").notNull(),
    gasUsed: text("gas_used").notNull(),
    cumulativeGasUsed: text("cumulative_gas_used").notNull(),
    effectiveGasPrice: text("effective_gas_price").notNull(),
    contractAddress: text("contract_address"),
    logsBloom: text("logs_bloom").notNull(),
    /** The transaction's JSON-RPC fields without the block's. */
    rpc: jsonb("rpc").$type<Record<string, unknown>>().notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.hash] }),
    index("chain_txs_block").on(t.chainId, t.blockNumber),
    index("chain_txs_from").on(t.chainId, t.fromAddress, t.blockNumber),
    index("chain_txs_to").on(t.chainId, t.toAddress, t.blockNumber),
  ],
);

/** The log index (eth_getLogs and the receipts' logs). */
export const chainLogs = pgTable(
  "chain_logs",
  {
    chainId: integer("chain_id").notNull(),
    blockNumber: bigint("block_number", { mode: "number" }).notNull(),
    logIndex: integer("log_index").notNull(),
    blockHash: text("block_hash").notNull(),
    txHash: text("tx_hash").notNull(),
    txIndex: integer("tx_index").notNull(),
    address: text("address").notNull(),
    topic0: text("topic0"),
    topic1: text("topic1"),
    topic2: text("topic2"),
    topic3: text("topic3"),
    data: text("data").notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.chainId, t.blockNumber, t.logIndex] }),
    index("chain_logs_address").on(t.chainId, t.address, t.blockNumber),
    index("chain_logs_topic0").on(t.chainId, t.topic0, t.blockNumber),
    index("chain_logs_tx").on(t.chainId, t.txHash),
  ],
);

/**
 * Dedicated networks (docs/decisions/046): one per dedicated-node project, run by the provisioner. Its chain id
 * is the `chains` row of the same name (purpose "dedicated"), whose blocks are this network's orderer's log.
 */
export const dedicatedNetworks = pgTable("dedicated_networks", {
  id: serial("id").primaryKey(),
  /** "prn-<lowercase letters>": the same name as its `chains` row. */
  name: text("name").notNull().unique(),
  chainId: integer("chain_id").notNull(),
  /** The consensus the project chose (recorded; the embedded orderer seals alone). */
  consensus: text("consensus").notNull(),
  /** How many peers run (grows only). */
  peers: integer("peers").notNull(),
  /** "running" or "stopped" (stopped: the nodes ended, the state kept). */
  state: text("state").notNull(),
  /** The gateway's authorized user, and its password as scrypt: "scrypt$<salt>$<hash>" (base64). */
  authUser: text("auth_user").notNull(),
  authPasswordHash: text("auth_password_hash").notNull(),
  /** The network's CA: its self-signed certificate and its private key (PKCS#8 PEM) sealed with the server secret. */
  caCertificatePem: text("ca_certificate_pem").notNull(),
  caKeySealed: text("ca_key_sealed").notNull(),
  /** docs/decisions/074: JSON-RPC calls per second each node takes, and the stored bytes above which transactions are refused; null: no limit. */
  requestsPerSecond: integer("requests_per_second"),
  storageLimitBytes: bigint("storage_limit_bytes", { mode: "number" }),
  createdAt: ts("created_at").notNull().defaultNow(),
});

/** The certificates the network's CA issued to its nodes (CN=<node>.<network>), with each node's sealed key. */
export const dedicatedCertificates = pgTable(
  "dedicated_certificates",
  {
    networkId: integer("network_id")
      .notNull()
      .references(() => dedicatedNetworks.id, { onDelete: "cascade" }),
    /** "orderer", "peer-1", …, "gateway". */
    node: text("node").notNull(),
    subject: text("subject").notNull(),
    serial: text("serial").notNull(),
    notAfter: ts("not_after").notNull(),
    /** SHA-256 of the certificate's DER, hex. */
    fingerprint: text("fingerprint").notNull(),
    certificatePem: text("certificate_pem").notNull(),
    keySealed: text("key_sealed").notNull(),
  },
  (t) => [primaryKey({ columns: [t.networkId, t.node] })],
);
