import { randomUUID } from "node:crypto";
import * as dagPb from "@ipld/dag-pb";
import type { Blockstore } from "interface-blockstore";
import { exporter } from "ipfs-unixfs-exporter";
import { importer } from "ipfs-unixfs-importer";
import { fixedSize } from "ipfs-unixfs-importer/chunker";
import { balanced } from "ipfs-unixfs-importer/layout";
import { CID } from "multiformats/cid";
import type { Db } from "#backend/db/client.ts";
import type { BlobStore } from "#backend/kit/blobs/index.ts";
import { copyFromDisk, type Copied } from "./copy-from-disk.ts";
import { sharedState, type Fence } from "./shared-state.ts";
import { blockBytes, diskState, type EngineState } from "./state.ts";
import {
  BadCidError,
  NotPinnedError,
  type Added,
  type ByteRange,
  type CountedPin,
  type IpfsEngine,
  type RepoStats,
  type Stat,
} from "./types.ts";

/**
 * The embedded IPFS engine (docs/decisions/039): the UnixFS importer and exporter that Helia itself uses, with no
 * networking, over its state (./state.ts): on disk under DATA_DIR/ipfs with the embedded database, or in the
 * file store and PostgreSQL when those are shared (docs/decisions/096), where another host taking the engine over
 * reads them. Pins are counted per root; every block is referenced by the pinned roots whose DAG holds it, and a
 * block is removed when the last of them is unpinned. The counts live in memory, rebuilt at open by walking the
 * pinned DAGs; blocks no pinned root references (an upload cut short by a crash) are removed then. Pins, unpins
 * and the end of an upload run one at a time (in the one process that owns the engine).
 */

/** Helia's defaults (@helia/unixfs addBytes/addByteStream): the same bytes give the same CID as Helia. */
export const importOptions = () => ({
  cidVersion: 1 as const,
  rawLeaves: true,
  chunker: fixedSize({ chunkSize: 1_048_576 }),
  layout: balanced({ maxChildrenPerNode: 1024 }),
});

/** A CID string in the form the engine keeps (CIDv1, base32); throws BadCidError. */
export function normalCid(text: string): CID {
  try {
    return CID.parse(text.trim()).toV1();
  } catch {
    throw new BadCidError(text);
  }
}

/** A pinned root: its count, its DAG's blocks, its file size, and the mark of its count's last change. */
type Root = { count: number; keys: string[]; size: number; mark: string };

export class EmbeddedIpfs implements IpfsEngine {
  readonly kind = "embedded" as const;
  private readonly state: EngineState;
  /** The shared state, which copies DATA_DIR/ipfs in once at open. */
  private readonly shared?: { state: ReturnType<typeof sharedState>; db: Db };
  /** What the copy from disk did at open, if it ran. */
  copied: Copied | null = null;
  /** Every block kept: its size. */
  private readonly sizes = new Map<string, number>();
  /** Per block, the pinned roots whose DAG holds it. */
  private readonly refs = new Map<string, number>();
  /** Per block, the uploads in progress that wrote or met it (it is not removed while held). */
  private readonly holds = new Map<string, number>();
  private readonly roots = new Map<string, Root>();
  private queue: Promise<unknown> = Promise.resolve();
  private bytes = 0;
  /** The marks of this opening (a pin sweep's look is compared with them; another opening's never match). */
  private readonly opening = randomUUID();
  private changes = 0;

  /** Whether its writes are fenced by the engine's lease (docs/decisions/098): no other process writes meanwhile. */
  private readonly fenced: boolean;

  /**
   * On disk under `dir`; with `shared`, in the file store's blobs and the database (`dir` is then only copied in),
   * its pins and drops fenced by the lease when `shared.fence` is given.
   */
  constructor(
    readonly dir: string,
    shared?: { db: Db; blobs: BlobStore; fence?: Fence },
  ) {
    this.fenced = !!shared?.fence;
    if (shared) {
      const state = sharedState(shared.db, shared.blobs, shared.fence);
      this.shared = { state, db: shared.db };
      this.state = state;
    } else this.state = diskState(dir);
  }

  /** Where the state is kept (/healthz). */
  get stateKind(): EngineState["kind"] {
    return this.state.kind;
  }

  /** Opens the store, rebuilds the counts and removes the blocks nothing pins; answers what it found. */
  async open(): Promise<{ roots: number; blocks: number; removed: number }> {
    if (this.shared) this.copied = await copyFromDisk(this.dir, this.shared.state, this.shared.db);
    await this.state.open();
    const young = new Set<string>();
    for await (const block of this.state.blocks()) {
      this.note(block.key, block.size);
      if (block.young) young.add(block.key);
    }
    for await (const { cid: name, count } of this.state.pins()) {
      if (!(count > 0)) continue;
      try {
        const cid = normalCid(name);
        const root = await this.walk(cid);
        this.roots.set(cid.toString(), { ...root, count, mark: this.nextMark() });
        for (const key of root.keys) this.refs.set(key, (this.refs.get(key) ?? 0) + 1);
      } catch (error) {
        console.warn(
          `ipfs: the pinned root ${name} cannot be read (${error instanceof Error ? error.message : String(error)}); its blocks are kept`,
        );
        for (const key of this.sizes.keys()) this.refs.set(key, (this.refs.get(key) ?? 0) + 1);
      }
    }
    let removed = 0;
    // Unfenced, a young block may be an upload under way in another process that opened the same shared state (the
    // tests' second engines; docs/decisions/096): left for a later open. Under the lease (docs/decisions/098) no other
    // process can pin any more, so an unreferenced block is what a cut-short upload left, whatever its age.
    for (const key of [...this.sizes.keys()])
      if (!this.refs.get(key) && (this.fenced || !young.has(key))) removed += await this.removeBlock(key);
    return { roots: this.roots.size, blocks: this.sizes.size, removed };
  }

  async close(): Promise<void> {
    await this.queue.catch(() => undefined);
    await this.state.close();
  }

  private note(key: string, size: number) {
    if (this.sizes.has(key)) return;
    this.sizes.set(key, size);
    this.bytes += size;
  }

  private async removeBlock(key: string): Promise<number> {
    const size = this.sizes.get(key);
    if (size === undefined) return 0;
    await this.state.removeBlock(key);
    this.sizes.delete(key);
    this.bytes -= size;
    return 1;
  }

  /** A new mark for a root whose count changed (or was read at open). */
  private nextMark(): string {
    return `${this.opening}:${++this.changes}`;
  }

  /** One at a time: pins, unpins and the end of uploads. */
  private locked<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  /** A root's DAG: its blocks (each once) and its file size. */
  private async walk(root: CID): Promise<Omit<Root, "count" | "mark">> {
    const keys = new Set<string>();
    const stack = [root];
    while (stack.length) {
      const cid = stack.pop()!;
      const key = this.state.keyOf(cid);
      if (keys.has(key)) continue;
      if (!this.sizes.has(key)) throw new Error(`block ${cid.toString()} is missing`);
      keys.add(key);
      if (cid.code === dagPb.code) {
        const node = dagPb.decode(await blockBytes(this.state.blockstore.get(cid)));
        for (const link of node.Links) stack.push(link.Hash);
      }
    }
    const entry = await exporter(root, this.state.blockstore);
    if (entry.type !== "file" && entry.type !== "raw") throw new Error(`${root.toString()} is not a file`);
    return { keys: [...keys], size: Number(entry.size) };
  }

  /** What the importer writes through: blocks already kept are not written again; each is held until the upload ends. */
  private tracking(held: Set<string>): Blockstore {
    const store = this.state.blockstore;
    const hold = (key: string) => {
      if (held.has(key)) return;
      held.add(key);
      this.holds.set(key, (this.holds.get(key) ?? 0) + 1);
    };
    const put = async (cid: CID, bytes: Uint8Array, options?: { signal?: AbortSignal }) => {
      const key = this.state.keyOf(cid);
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

  private async pinLocked(cid: CID): Promise<Root> {
    const id = cid.toString();
    const known = this.roots.get(id);
    if (known) {
      known.count = await this.state.changePin(id, 1, known.count);
      known.mark = this.nextMark();
      return known;
    }
    const walked = await this.walk(cid);
    const root: Root = { ...walked, count: await this.state.changePin(id, 1, 0), mark: this.nextMark() };
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
      return this.unpinLocked(id, root);
    });
  }

  /** Takes one pin of a root away; its blocks no other root holds go with its last. */
  private async unpinLocked(id: string, root: Root): Promise<{ removedBlocks: number }> {
    root.count = await this.state.changePin(id, -1, root.count);
    root.mark = this.nextMark();
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
  }

  async countedPins(): Promise<CountedPin[]> {
    return [...this.roots].map(([cid, root]) => ({ cid, count: root.count, mark: root.mark }));
  }

  async trim(cid: string, mark: string, by: number): Promise<{ trimmed: number; removedBlocks: number }> {
    const id = normalCid(cid).toString();
    return this.locked(async () => {
      const root = this.roots.get(id);
      // Changed since that look (or another opening's): nothing is taken.
      if (!root || root.mark !== mark || !(by >= 1)) return { trimmed: 0, removedBlocks: 0 };
      let trimmed = 0;
      let removedBlocks = 0;
      while (trimmed < by && root.count > 0) {
        removedBlocks += (await this.unpinLocked(id, root)).removedBlocks;
        trimmed++;
      }
      return { trimmed, removedBlocks };
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
    const entry = await exporter(cid, this.state.blockstore, { signal: options.signal });
    if (entry.type !== "file" && entry.type !== "raw") throw new NotPinnedError(cid.toString());
    yield* entry.content({ offset: range?.offset, length: range?.length, signal: options.signal });
  }

  async repoStats(): Promise<RepoStats> {
    return { blocks: this.sizes.size, bytes: this.bytes };
  }
}
