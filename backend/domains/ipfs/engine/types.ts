/**
 * The IPFS engine (docs/decisions/039): what the ipfs domain asks of an IPFS node, whichever runs it. The
 * embedded one (UnixFS importer and exporter over an on-disk blockstore under DATA_DIR/ipfs), a kubo node or
 * an IPFS Cluster through `kubo-rpc-client` (IPFS_API_URL), or, among portal processes on one PostgreSQL, the
 * embedded engine of the holder of its lease reached over the engine link (docs/decisions/098). The same CIDs everywhere: CIDv1, raw leaves, 1 MiB fixed
 * chunks, balanced layout of up to 1024 links per node (Helia's defaults).
 */

/** What an upload gave: the root CID (CIDv1, base32) and the file's size in bytes. */
export type Added = { cid: string; size: number };

/** A pinned root: its file size and how many blocks its DAG has. */
export type Stat = { cid: string; size: number; blocks: number };

/**
 * A counted pin (the embedded engine): its root, how many pins it holds, and the mark of the count's last change
 * (different after any pin or unpin of that root, and in every opening of the engine).
 */
export type CountedPin = { cid: string; count: number; mark: string };

/** The repository: the blocks kept and their bytes. */
export type RepoStats = { blocks: number; bytes: number };

/** A byte range of a file: `length` bytes from `offset` (to the end when absent). */
export type ByteRange = { offset: number; length?: number };

export interface IpfsEngine {
  /** Which implementation answers (for /healthz). */
  readonly kind: "embedded" | "remote";
  /**
   * Imports a stream of bytes as one UnixFS file and pins its root once (a count: the same root added twice is
   * pinned twice and needs two unpins). A failed or aborted stream leaves nothing behind.
   */
  add(source: AsyncIterable<Uint8Array>, options?: { signal?: AbortSignal }): Promise<Added>;
  /** The file's bytes, or the slice `range`; throws NotPinnedError when the root is not pinned. */
  cat(cid: string, range?: ByteRange, options?: { signal?: AbortSignal }): AsyncIterable<Uint8Array>;
  /** A pinned root's size and block count, or null when it is not pinned. */
  stat(cid: string): Promise<Stat | null>;
  /** Pins a root present in the store once more (counted). */
  pin(cid: string): Promise<void>;
  /**
   * Takes one pin of a root away; when none is left, the blocks of its DAG that no other pinned root
   * references are removed. Resolves with the blocks removed.
   */
  unpin(cid: string): Promise<{ removedBlocks: number }>;
  /** How many pins a root holds (0 when none). */
  pins(cid: string): Promise<number>;
  /** The repository's blocks and bytes. */
  repoStats(): Promise<RepoStats>;
  /**
   * Every counted pin (the pin sweep, docs/decisions/108); none from a kubo node, whose pins are not counted (one
   * per CID) and stay its operator's.
   */
  countedPins(): Promise<CountedPin[]>;
  /**
   * Takes up to `by` pins of a root away, only if its count has not changed since the look that gave `mark`; the
   * blocks of its DAG no other root holds go with its last. Resolves with the pins taken and the blocks removed.
   */
  trim(cid: string, mark: string, by: number): Promise<{ trimmed: number; removedBlocks: number }>;
  close(): Promise<void>;
}

export class NotPinnedError extends Error {
  constructor(cid: string) {
    super(`${cid} is not pinned here`);
    this.name = "NotPinnedError";
  }
}

export class BadCidError extends Error {
  constructor(cid: string) {
    super(`not a CID: ${cid.slice(0, 120)}`);
    this.name = "BadCidError";
  }
}

/**
 * The IPFS node (IPFS_API_URL) cannot be reached or did not answer in time (docs/decisions/076): nothing was
 * done. The gateways answer 503 with Retry-After, the /vueapi paths a 503 ApiError (MSG_45014).
 */
export class EngineUnavailableError extends Error {
  constructor(cause: unknown) {
    super(`the IPFS node is not answering: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
    this.name = "EngineUnavailableError";
  }
}
