import { createReadStream, createWriteStream } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { createGunzip, createGzip } from "node:zlib";
import type { LevelStore } from "./level.ts";

/**
 * A chain's snapshot file (docs/decisions/103): every key and value of its two LevelDB stores (blocks, state) as
 * they were at one sealed block, so another host starts from that block and replays only the log's tail. Gzip of a
 * magic line, then records: the store (0 blocks, 1 state), the key's and the value's lengths (32-bit big-endian),
 * the key, the value.
 */
const MAGIC = Buffer.from("bsn-chain-snapshot 1\n");
const HEADER = 9;
/** Entries written to a store per batch while restoring. */
const BATCH = 2_000;

export type SnapshotStores = { blocks: LevelStore; state: LevelStore };

/** Writes the stores as they are now (both read from one moment: iterators are made before anything else runs). */
export async function writeSnapshotFile(stores: SnapshotStores, file: string): Promise<{ entries: number }> {
  const sources = [stores.blocks.entries(), stores.state.entries()] as const;
  let entries = 0;
  async function* records() {
    yield MAGIC;
    for (const [index, source] of sources.entries()) {
      for await (const [key, value] of source) {
        const header = Buffer.allocUnsafe(HEADER);
        header.writeUInt8(index, 0);
        header.writeUInt32BE(key.byteLength, 1);
        header.writeUInt32BE(value.byteLength, 5);
        entries++;
        yield Buffer.concat([header, key, value]);
      }
    }
  }
  await pipeline(Readable.from(records()), createGzip({ level: 1 }), createWriteStream(file));
  return { entries };
}

/** Reads a snapshot file into empty stores; throws on a file that is not one, or cut short. */
export async function readSnapshotFile(file: string, stores: SnapshotStores): Promise<{ entries: number }> {
  const targets = [stores.blocks, stores.state];
  const batches: [Uint8Array, Uint8Array][][] = [[], []];
  let pending: Buffer = Buffer.alloc(0);
  let magicSeen = false;
  let entries = 0;
  const flush = async (index: number) => {
    if (batches[index]!.length) await targets[index]!.putRaw(batches[index]!.splice(0));
  };
  for await (const chunk of createReadStream(file).pipe(createGunzip())) {
    pending = pending.length ? Buffer.concat([pending, chunk as Buffer]) : (chunk as Buffer);
    if (!magicSeen) {
      if (pending.length < MAGIC.length) continue;
      if (!pending.subarray(0, MAGIC.length).equals(MAGIC)) throw new Error("not a chain snapshot file");
      pending = pending.subarray(MAGIC.length);
      magicSeen = true;
    }
    let at = 0;
    while (pending.length - at >= HEADER) {
      const index = pending.readUInt8(at);
      const keyLength = pending.readUInt32BE(at + 1);
      const valueLength = pending.readUInt32BE(at + 5);
      const end = at + HEADER + keyLength + valueLength;
      if (index > 1) throw new Error("not a chain snapshot file");
      if (pending.length < end) break;
      const key = Uint8Array.prototype.slice.call(pending, at + HEADER, at + HEADER + keyLength);
      const value = Uint8Array.prototype.slice.call(pending, at + HEADER + keyLength, end);
      batches[index]!.push([key, value]);
      entries++;
      if (batches[index]!.length >= BATCH) await flush(index);
      at = end;
    }
    pending = pending.subarray(at);
  }
  if (!magicSeen || pending.length) throw new Error("the chain snapshot file is cut short");
  await flush(0);
  await flush(1);
  return { entries };
}
