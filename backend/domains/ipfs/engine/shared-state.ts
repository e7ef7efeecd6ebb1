import { and, eq, lte, sql } from "drizzle-orm";
import type { Blockstore, InputPair, Pair } from "interface-blockstore";
import { NotFoundError } from "interface-store";
import { CID } from "multiformats/cid";
import * as raw from "multiformats/codecs/raw";
import { create as digestOf } from "multiformats/hashes/digest";
import type { MultihashDigest } from "multiformats/hashes/interface";
import { sha256 } from "multiformats/hashes/sha2";
import type { Db, Tx } from "#backend/db/client.ts";
import type { BlobStore } from "#backend/kit/blobs/index.ts";
import { ipfsBlocks, ipfsPins } from "../tables.ts";
import type { EngineState } from "./state.ts";

/**
 * The engine's state where another host can read it (docs/decisions/096): each block is a blob of the file store
 * (PostgreSQL's file_chunks, or FILES_URL's bucket), named by a row of `ipfs_blocks`; the pins are rows of
 * `ipfs_pins`. The blob store addresses bytes by their SHA-256, and a sha2-256 CID's multihash digest is exactly
 * that, for raw leaves and dag-pb nodes alike (the digest is of the block's bytes, whatever its codec): so a
 * block's blob address is its digest in hex, and a block of any other hash is refused.
 */

export class UnsupportedHashError extends Error {
  constructor(code: number) {
    super(`only sha2-256 blocks are kept in the shared store (multihash code 0x${code.toString(16)})`);
    this.name = "UnsupportedHashError";
  }
}

/** A sha2-256 multihash's blob address: its digest in hex; throws UnsupportedHashError for any other hash. */
export function blobAddressOf(of: CID | MultihashDigest): string {
  const multihash = "multihash" in of ? of.multihash : of;
  if (multihash.code !== sha256.code || multihash.digest.byteLength !== 32)
    throw new UnsupportedHashError(multihash.code);
  return Buffer.from(multihash.digest).toString("hex");
}

async function* asIterable(bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>) {
  if (bytes instanceof Uint8Array) yield bytes;
  else yield* bytes;
}

/**
 * interface-blockstore over the file store's blobs. `sizes` holds the kept blocks (read from ipfs_blocks at open):
 * a blob is read by address and size. A put writes the blob, checks that its bytes hash to the CID, and names it
 * in ipfs_blocks in the transaction that settles it (PostgreSQL), so the blob sweep never sees it unnamed and old.
 */
export class BlobBlockstore implements Blockstore {
  readonly sizes = new Map<string, number>();

  constructor(
    private readonly db: Db,
    private readonly blobs: BlobStore,
  ) {}

  has(cid: CID): boolean {
    try {
      return this.sizes.has(blobAddressOf(cid));
    } catch {
      return false;
    }
  }

  async put(
    cid: CID,
    bytes: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
    options?: { signal?: AbortSignal },
  ) {
    const address = blobAddressOf(cid);
    options?.signal?.throwIfAborted();
    const written = await this.blobs.write(asIterable(bytes));
    // Left unnamed, such a blob goes with the blob sweep.
    if (written.address !== address) throw new Error(`the bytes of block ${cid.toString()} do not hash to its CID`);
    const name = async (q: Db | Tx) => {
      await this.blobs.settle(q, written);
      await q.insert(ipfsBlocks).values({ address, size: written.size }).onConflictDoNothing();
    };
    if (written.pending) await this.db.transaction(name);
    else await name(this.db);
    this.sizes.set(address, written.size);
    return cid;
  }

  async *get(cid: CID, options?: { signal?: AbortSignal }): AsyncGenerator<Uint8Array> {
    const address = blobAddressOf(cid);
    const size = this.sizes.get(address);
    if (size === undefined) throw new NotFoundError(`block ${cid.toString()} is not kept`);
    options?.signal?.throwIfAborted();
    yield* this.blobs.read(this.db, address, size);
  }

  /** Forgets a block by address: its row goes now, its blob with the next sweep (another row may name the same bytes). */
  async forget(address: string, q: Db | Tx = this.db) {
    await q.delete(ipfsBlocks).where(eq(ipfsBlocks.address, address));
    this.sizes.delete(address);
  }

  async delete(cid: CID) {
    await this.forget(blobAddressOf(cid));
  }

  async *putMany(source: Iterable<InputPair> | AsyncIterable<InputPair>, options?: { signal?: AbortSignal }) {
    for await (const { cid, bytes } of source) yield await this.put(cid, bytes, options);
  }

  async *getMany(source: Iterable<CID> | AsyncIterable<CID>, options?: { signal?: AbortSignal }) {
    for await (const cid of source) yield { cid, bytes: this.get(cid, options) } satisfies Pair;
  }

  async *deleteMany(source: Iterable<CID> | AsyncIterable<CID>) {
    for await (const cid of source) {
      await this.delete(cid);
      yield cid;
    }
  }

  /** Every block, as a raw CID: the codec is not kept (the blob address is the multihash's alone). */
  async *getAll(options?: { signal?: AbortSignal }): AsyncGenerator<Pair> {
    for (const address of [...this.sizes.keys()]) {
      const cid = CID.createV1(raw.code, digestOf(sha256.code, Buffer.from(address, "hex")));
      yield { cid, bytes: this.get(cid, options) };
    }
  }
}

/** Inside a write's transaction: throws unless this process holds the engine's lease (EngineLease.fence). */
export type Fence = (tx: Tx) => Promise<void>;

/**
 * The shared state over the database and the file store's blobs. With `fence` (the engine owned through its lease,
 * docs/decisions/098), the writes that take state away or make it count (a pin's count, a block forgotten) run in a
 * transaction fenced by the lease: a process that lost it cannot pin, unpin or drop a block any more, and a takeover
 * waits for such a write under way. Writing a block stays unfenced: an unpinned block is acknowledged by no one.
 */
export function sharedState(db: Db, blobs: BlobStore, fence?: Fence): EngineState & { blockstore: BlobBlockstore } {
  const blockstore = new BlobBlockstore(db, blobs);
  const fenced = <T>(work: (q: Db | Tx) => Promise<T>): Promise<T> =>
    fence
      ? db.transaction(async (tx) => {
          await fence(tx);
          return work(tx);
        })
      : work(db);
  return {
    kind: "shared",
    blockstore,
    keyOf: (cid) => blobAddressOf(cid),
    async open() {},
    async *blocks() {
      let after = "";
      for (;;) {
        const rows = await db
          .select({
            key: ipfsBlocks.address,
            size: ipfsBlocks.size,
            young: sql<boolean>`${ipfsBlocks.createdAt} > now() - interval '1 hour'`,
          })
          .from(ipfsBlocks)
          .where(sql`${ipfsBlocks.address} > ${after}`)
          .orderBy(ipfsBlocks.address)
          .limit(1000);
        for (const row of rows) {
          blockstore.sizes.set(row.key, row.size);
          yield row;
        }
        if (rows.length < 1000) return;
        after = rows[rows.length - 1]!.key;
      }
    },
    removeBlock: (key) => fenced((q) => blockstore.forget(key, q)),
    async *pins() {
      yield* await db.select({ cid: ipfsPins.cid, count: ipfsPins.count }).from(ipfsPins);
    },
    changePin: (cid, delta) =>
      fenced(async (q) => {
        if (delta > 0) {
          const [row] = await q
            .insert(ipfsPins)
            .values({ cid, count: 1 })
            .onConflictDoUpdate({
              target: ipfsPins.cid,
              set: { count: sql`${ipfsPins.count} + 1`, updatedAt: sql`now()` },
            })
            .returning({ count: ipfsPins.count });
          return row!.count;
        }
        const [row] = await q
          .update(ipfsPins)
          .set({ count: sql`${ipfsPins.count} - 1`, updatedAt: sql`now()` })
          .where(eq(ipfsPins.cid, cid))
          .returning({ count: ipfsPins.count });
        if (!row || row.count <= 0) {
          await q.delete(ipfsPins).where(and(eq(ipfsPins.cid, cid), lte(ipfsPins.count, 0)));
          return 0;
        }
        return row.count;
      }),
    async close() {},
  };
}
