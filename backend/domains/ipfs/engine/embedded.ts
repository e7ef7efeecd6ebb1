import { mkdir, readdir, readFile, rename, rm, stat as statFile, unlink, writeFile } from "node:fs/promises";
import path from "node:path";
import * as dagPb from "@ipld/dag-pb";
import { FsBlockstore } from "blockstore-fs";
import type { Blockstore } from "interface-blockstore";
import { exporter } from "ipfs-unixfs-exporter";
import { importer } from "ipfs-unixfs-importer";
import { fixedSize } from "ipfs-unixfs-importer/chunker";
import { balanced } from "ipfs-unixfs-importer/layout";
import { base32upper } from "multiformats/bases/base32";
import { CID } from "multiformats/cid";
import {
  BadCidError,
  NotPinnedError,
  type Added,
  type ByteRange,
  type IpfsEngine,
  type RepoStats,
  type Stat,
} from "./types.ts";

/**
 * The embedded IPFS engine (docs/decisions/039): the UnixFS importer and exporter that Helia itself uses, over
 * `blockstore-fs` under DATA_DIR/ipfs/blocks, with no networking. Pins are counted per root in
 * DATA_DIR/ipfs/pins/<cid> (one small file each, replaced atomically); every block is referenced by the pinned
 * roots whose DAG holds it, and a block is removed when the last of them is unpinned. The counts live in
 * memory, rebuilt at open by walking the pinned DAGs; blocks no pinned root references (an upload cut short by
 * a crash) are removed then. Pins, unpins and the end of an upload run one at a time.
 */

/** Helia's defaults (@helia/unixfs addBytes/addByteStream): the same bytes give the same CID as Helia. */
export const importOptions = () => ({
  cidVersion: 1 as const,
  rawLeaves: true,
  chunker: fixedSize({ chunkSize: 1_048_576 }),
  layout: balanced({ maxChildrenPerNode: 1024 }),
});

const EXTENSION = ".data";
/** blockstore-fs's file name of a block (its default NextToLast sharding): base32 of the multihash. */
const keyOf = (cid: CID) => base32upper.encoder.encode(cid.multihash.bytes);

/** A CID string in the form the engine keeps (CIDv1, base32); throws BadCidError. */
export function normalCid(text: string): CID {
  try {
    return CID.parse(text.trim()).toV1();
  } catch {
    throw new BadCidError(text);
  }
}

type Root = { count: number; keys: string[]; size: number };

export class EmbeddedIpfs implements IpfsEngine {
  readonly kind = "embedded" as const;
  private readonly store: FsBlockstore;
  private readonly blocksDir: string;
  private readonly pinsDir: string;
  /** Every block on disk: its size. */
  private readonly sizes = new Map<string, number>();
  /** Per block, the pinned roots whose DAG holds it. */
  private readonly refs = new Map<string, number>();
  /** Per block, the uploads in progress that wrote or met it (it is not removed while held). */
  private readonly holds = new Map<string, number>();
  private readonly roots = new Map<string, Root>();
  private queue: Promise<unknown> = Promise.resolve();
  private bytes = 0;

  constructor(readonly dir: string) {
    this.blocksDir = path.join(dir, "blocks");
    this.pinsDir = path.join(dir, "pins");
    this.store = new FsBlockstore(this.blocksDir);
  }

  /** Opens the store, rebuilds the counts and removes the blocks nothing pins; answers what it found. */
  async open(): Promise<{ roots: number; blocks: number; removed: number }> {
    await mkdir(this.pinsDir, { recursive: true });
    await this.store.open();
    for (const shard of await readdir(this.blocksDir, { withFileTypes: true })) {
      if (!shard.isDirectory()) continue;
      for (const file of await readdir(path.join(this.blocksDir, shard.name))) {
        const full = path.join(this.blocksDir, shard.name, file);
        // steno's temporary files of a write cut short.
        if (!file.endsWith(EXTENSION)) {
          await rm(full, { force: true });
          continue;
        }
        this.note(file.slice(0, -EXTENSION.length), (await statFile(full)).size);
      }
    }
    for (const name of await readdir(this.pinsDir)) {
      if (name.endsWith(".tmp")) {
        await rm(path.join(this.pinsDir, name), { force: true });
        continue;
      }
      const count = Number.parseInt(await readFile(path.join(this.pinsDir, name), "utf8"), 10);
      if (!(count > 0)) continue;
      try {
        const cid = normalCid(name);
        const root = await this.walk(cid);
        this.roots.set(cid.toString(), { ...root, count });
        for (const key of root.keys) this.refs.set(key, (this.refs.get(key) ?? 0) + 1);
      } catch (error) {
        console.warn(
          `ipfs: the pinned root ${name} cannot be read (${error instanceof Error ? error.message : String(error)}); its blocks are kept`,
        );
        for (const key of this.sizes.keys()) this.refs.set(key, (this.refs.get(key) ?? 0) + 1);
      }
    }
    let removed = 0;
    for (const key of [...this.sizes.keys()]) if (!this.refs.get(key)) removed += await this.removeBlock(key);
    return { roots: this.roots.size, blocks: this.sizes.size, removed };
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.store.close();
  }

  private note(key: string, size: number) {
    if (this.sizes.has(key)) return;
    this.sizes.set(key, size);
    this.bytes += size;
  }

  private async removeBlock(key: string): Promise<number> {
    const size = this.sizes.get(key);
    if (size === undefined) return 0;
    await unlink(path.join(this.blocksDir, key.slice(-2), key + EXTENSION)).catch((error: NodeJS.ErrnoException) => {
      if (error.code !== "ENOENT") throw error;
    });
    this.sizes.delete(key);
    this.bytes -= size;
    return 1;
  }

  /** One at a time: pins, unpins and the end of uploads. */
  private locked<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A root's DAG: its blocks (each once) and its file size. */
  private async walk(root: CID): Promise<Omit<Root, "count">> {
    const keys = new Set<string>();
    const stack = [root];
    while (stack.length) {
      const cid = stack.pop()!;
      const key = keyOf(cid);
      if (keys.has(key)) continue;
      if (!this.sizes.has(key)) throw new Error(`block ${cid.toString()} is missing`);
      keys.add(key);
      if (cid.code === dagPb.code) {
        const node = dagPb.decode(await readFile(path.join(this.blocksDir, key.slice(-2), key + EXTENSION)));
        for (const link of node.Links) stack.push(link.Hash);
      }
    }
    const entry = await exporter(root, this.store);
    if (entry.type !== "file" && entry.type !== "raw") throw new Error(`${root.toString()} is not a file`);
    return { keys: [...keys], size: Number(entry.size) };
  }

  /** What the importer writes through: blocks already kept are not written again; each is held until the upload ends. */
  private tracking(held: Set<string>): Blockstore {
    const store = this.store;
    const hold = (key: string) => {
      if (held.has(key)) return;
      held.add(key);
      this.holds.set(key, (this.holds.get(key) ?? 0) + 1);
    };
    const put = async (cid: CID, bytes: Uint8Array, options?: { signal?: AbortSignal }) => {
      const key = keyOf(cid);
      hold(key);
      if (!this.sizes.has(key)) {
        await store.put(cid, bytes, options);
        this.note(key, bytes.byteLength);
      }
      return cid;
    };
    return new Proxy(store, {
      get: (target, prop, receiver) => (prop === "put" ? put : Reflect.get(target, prop, receiver)),
    }) as unknown as Blockstore;
  }

  async add(source: AsyncIterable<Uint8Array>, options: { signal?: AbortSignal } = {}): Promise<Added> {
    const held = new Set<string>();
    let ok = false;
    try {
      let root: CID | undefined;
      for await (const entry of importer([{ content: source }], this.tracking(held), importOptions())) {
        options.signal?.throwIfAborted();
        root = entry.cid;
      }
      if (!root) throw new Error("nothing was imported");
      const cid = root;
      const added = await this.locked(async () => {
        const pinned = await this.pinLocked(cid);
        return { cid: cid.toString(), size: pinned.size };
      });
      ok = true;
      return added;
    } finally {
      await this.locked(async () => {
        for (const key of held) {
          const left = (this.holds.get(key) ?? 1) - 1;
          if (left > 0) this.holds.set(key, left);
          else this.holds.delete(key);
          // A failed upload's blocks go unless another pin or upload has them.
          if (!ok && left <= 0 && !this.refs.get(key)) await this.removeBlock(key);
        }
      });
    }
  }

  private async writePin(cid: string, count: number) {
    const file = path.join(this.pinsDir, cid);
    if (count <= 0) return rm(file, { force: true });
    await writeFile(`${file}.tmp`, `${count}\n`);
    await rename(`${file}.tmp`, file);
  }

  private async pinLocked(cid: CID): Promise<Root> {
    const id = cid.toString();
    const known = this.roots.get(id);
    if (known) {
      await this.writePin(id, known.count + 1);
      known.count += 1;
      return known;
    }
    const root: Root = { ...(await this.walk(cid)), count: 1 };
    await this.writePin(id, 1);
    for (const key of root.keys) this.refs.set(key, (this.refs.get(key) ?? 0) + 1);
    this.roots.set(id, root);
    return root;
  }

  async pin(text: string): Promise<void> {
    const cid = normalCid(text);
    await this.locked(() => this.pinLocked(cid));
  }

  async unpin(text: string): Promise<{ removedBlocks: number }> {
    const id = normalCid(text).toString();
    return this.locked(async () => {
      const root = this.roots.get(id);
      if (!root) throw new NotPinnedError(id);
      await this.writePin(id, root.count - 1);
      root.count -= 1;
      if (root.count > 0) return { removedBlocks: 0 };
      this.roots.delete(id);
      let removedBlocks = 0;
      for (const key of root.keys) {
        const left = (this.refs.get(key) ?? 1) - 1;
        if (left > 0) {
          this.refs.set(key, left);
          continue;
        }
        this.refs.delete(key);
        if (!this.holds.get(key)) removedBlocks += await this.removeBlock(key);
      }
      return { removedBlocks };
    });
  }

  async pins(text: string): Promise<number> {
    return this.roots.get(normalCid(text).toString())?.count ?? 0;
  }

  async stat(text: string): Promise<Stat | null> {
    const id = normalCid(text).toString();
    const root = this.roots.get(id);
    return root ? { cid: id, size: root.size, blocks: root.keys.length } : null;
  }

  async *cat(text: string, range?: ByteRange, options: { signal?: AbortSignal } = {}): AsyncIterable<Uint8Array> {
    const cid = normalCid(text);
    if (!this.roots.has(cid.toString())) throw new NotPinnedError(cid.toString());
    const entry = await exporter(cid, this.store, { signal: options.signal });
    if (entry.type !== "file" && entry.type !== "raw") throw new NotPinnedError(cid.toString());
    yield* entry.content({ offset: range?.offset, length: range?.length, signal: options.signal });
  }

  async repoStats(): Promise<RepoStats> {
    return { blocks: this.sizes.size, bytes: this.bytes };
  }
}
