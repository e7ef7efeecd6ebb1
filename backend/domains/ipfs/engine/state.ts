import { mkdir, readdir, readFile, rename, rm, stat as statFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import { FsBlockstore } from "blockstore-fs";
import type { Blockstore } from "interface-blockstore";
import { base32upper } from "multiformats/bases/base32";
import type { CID } from "multiformats/cid";

/**
 * Where the embedded IPFS engine keeps what it has acknowledged: its blocks and its counted pins. The engine's
 * rules (docs/decisions/039: pins counted per root, blocks referenced by the pinned roots, the counts rebuilt at
 * open) are the same over both states:
 * - on disk (`diskState`, the embedded database: one process holds DATA_DIR), blockstore-fs under
 *   DATA_DIR/ipfs/blocks and a file per pinned root under DATA_DIR/ipfs/pins;
 * - shared (`sharedState` in ./shared-state.ts, DATABASE_URL or FILES_URL; docs/decisions/096), the blocks in the
 *   file store's blobs and the pins in PostgreSQL, where another host taking the engine over reads them.
 */
export type KeptBlock = {
  key: string;
  size: number;
  /**
   * Written so recently that an upload still under way in another process on the same shared state may be about to
   * pin it: not removed at open even when no pinned root holds it (a later open does).
   */
  young?: boolean;
};
/** A pin as it was kept: `cid` as written (the engine parses it), `count` as read (the engine skips nonsense). */
export type KeptPin = { cid: string; count: number };

export interface EngineState {
  readonly kind: "disk" | "shared";
  /** What the importer and the exporter write and read through. */
  readonly blockstore: Blockstore;
  /** A block's key in this state (the same for every CID of the same multihash). */
  keyOf(cid: CID): string;
  open(): Promise<void>;
  /** Every kept block and its size (what a write cut short left behind is cleared first). */
  blocks(): AsyncIterable<KeptBlock>;
  /** Forgets a block; its bytes go at once (disk) or with the next blob sweep (shared). */
  removeBlock(key: string): Promise<void>;
  /** Every pinned root and its count. */
  pins(): AsyncIterable<KeptPin>;
  /**
   * Adds `delta` to a root's count (`known` is the engine's count) and answers the count kept; 0 removes the pin.
   * The shared state counts in the database (a process that opened the same state too cannot lose a pin).
   */
  changePin(cid: string, delta: 1 | -1, known: number): Promise<number>;
  close(): Promise<void>;
}

/** A block's bytes in one buffer, whatever shape the blockstore answered in. */
export async function blockBytes(
  output: Uint8Array | Iterable<Uint8Array> | AsyncIterable<Uint8Array>,
): Promise<Uint8Array> {
  if (output instanceof Uint8Array) return output;
  const parts: Uint8Array[] = [];
  for await (const part of output) parts.push(part);
  return parts.length === 1 ? parts[0]! : Buffer.concat(parts);
}

const EXTENSION = ".data";
/** blockstore-fs's file name of a block (its default NextToLast sharding): base32 of the multihash. */
export const diskKeyOf = (cid: CID) => base32upper.encoder.encode(cid.multihash.bytes);

/** The on-disk state under `dir` (DATA_DIR/ipfs), exactly as the engine has always kept it. */
export function diskState(dir: string): EngineState {
  const blocksDir = path.join(dir, "blocks");
  const pinsDir = path.join(dir, "pins");
  const store = new FsBlockstore(blocksDir);
  return {
    kind: "disk",
    blockstore: store,
    keyOf: diskKeyOf,
    async open() {
      await mkdir(pinsDir, { recursive: true });
      await store.open();
    },
    async *blocks() {
      for (const shard of await readdir(blocksDir, { withFileTypes: true })) {
        if (!shard.isDirectory()) continue;
        for (const file of await readdir(path.join(blocksDir, shard.name))) {
          const full = path.join(blocksDir, shard.name, file);
          // steno's temporary files of a write cut short.
          if (!file.endsWith(EXTENSION)) {
            await rm(full, { force: true });
            continue;
          }
          yield { key: file.slice(0, -EXTENSION.length), size: (await statFile(full)).size };
        }
      }
    },
    async removeBlock(key) {
      await unlink(path.join(blocksDir, key.slice(-2), key + EXTENSION)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== "ENOENT") throw error;
      });
    },
    async *pins() {
      for (const name of await readdir(pinsDir)) {
        if (name.endsWith(".tmp")) {
          await rm(path.join(pinsDir, name), { force: true });
          continue;
        }
        yield { cid: name, count: Number.parseInt(await readFile(path.join(pinsDir, name), "utf8"), 10) };
      }
    },
    async changePin(cid, delta, known) {
      const file = path.join(pinsDir, cid);
      const count = Math.max(0, known + delta);
      if (count === 0) await rm(file, { force: true });
      else {
        // Replaced atomically: written aside, renamed.
        await writeFile(`${file}.tmp`, `${count}\n`);
        await rename(`${file}.tmp`, file);
      }
      return count;
    },
    close: () => store.close(),
  };
}
