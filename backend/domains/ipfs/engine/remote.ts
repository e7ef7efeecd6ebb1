import { normalCid } from "./embedded.ts";
import { NotPinnedError, type Added, type ByteRange, type IpfsEngine, type RepoStats, type Stat } from "./types.ts";

/**
 * A kubo node or an IPFS Cluster's IPFS proxy through `kubo-rpc-client` (IPFS_API_URL; docs/decisions/039),
 * with the same import settings as the embedded engine. Kubo's pins are a set, not counts: the count of a root
 * is the number of pinned files that name it, given by the domain (`countOf`), and `unpin` takes kubo's pin
 * away only when that count is 0. Blocks then go at kubo's next garbage collection, not at once.
 */
type Kubo = Awaited<ReturnType<typeof import("kubo-rpc-client").create>>;

export class RemoteIpfs implements IpfsEngine {
  readonly kind = "remote" as const;
  private client: Kubo | undefined;

  constructor(
    private readonly url: string,
    /** How many pinned files name this root (the database's count), after the caller's own change. */
    private readonly countOf: (cid: string) => Promise<number>,
  ) {}

  private async kubo(): Promise<Kubo> {
    if (!this.client) {
      const { create } = await import("kubo-rpc-client");
      this.client = create({ url: this.url });
    }
    return this.client;
  }

  async add(source: AsyncIterable<Uint8Array>, options: { signal?: AbortSignal } = {}): Promise<Added> {
    const kubo = await this.kubo();
    let size = 0;
    async function* counted() {
      for await (const chunk of source) {
        size += chunk.byteLength;
        yield chunk;
      }
    }
    // Helia's defaults (docs/decisions/039); kubo's balanced layout gives the same CIDs up to 174 MiB, and beyond
    // that when the node sets Import.UnixFSFileMaxLinks to 1024.
    const added = await kubo.add(counted(), {
      cidVersion: 1,
      rawLeaves: true,
      chunker: "size-1048576",
      pin: true,
      signal: options.signal,
    });
    return { cid: added.cid.toV1().toString(), size };
  }

  async *cat(cid: string, range?: ByteRange, options: { signal?: AbortSignal } = {}): AsyncIterable<Uint8Array> {
    const kubo = await this.kubo();
    yield* kubo.cat(normalCid(cid), { offset: range?.offset, length: range?.length, signal: options.signal });
  }

  async stat(cid: string): Promise<Stat | null> {
    const kubo = await this.kubo();
    const root = normalCid(cid);
    try {
      for await (const pinned of kubo.pin.ls({ paths: [root] })) if (!pinned.cid) break;
    } catch {
      return null;
    }
    const stat = await kubo.files.stat(`/ipfs/${root.toString()}`);
    return { cid: root.toString(), size: Number(stat.size), blocks: Number(stat.blocks ?? 0) + 1 };
  }

  async pin(cid: string): Promise<void> {
    await (await this.kubo()).pin.add(normalCid(cid));
  }

  async unpin(cid: string): Promise<{ removedBlocks: number }> {
    const root = normalCid(cid);
    if ((await this.countOf(root.toString())) > 0) return { removedBlocks: 0 };
    try {
      await (await this.kubo()).pin.rm(root);
    } catch (error) {
      if (/not pinned/i.test(String(error))) throw new NotPinnedError(root.toString());
      throw error;
    }
    return { removedBlocks: 0 };
  }

  async pins(cid: string): Promise<number> {
    return this.countOf(normalCid(cid).toString());
  }

  async repoStats(): Promise<RepoStats> {
    const stat = await (await this.kubo()).repo.stat();
    return { blocks: Number(stat.numObjects), bytes: Number(stat.repoSize) };
  }

  async close(): Promise<void> {
    this.client = undefined;
  }
}
