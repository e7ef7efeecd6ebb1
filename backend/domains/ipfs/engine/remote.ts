import { normalCid } from "./embedded.ts";
import {
  EngineUnavailableError,
  NotPinnedError,
  type Added,
  type ByteRange,
  type CountedPin,
  type IpfsEngine,
  type RepoStats,
  type Stat,
} from "./types.ts";

/**
 * A kubo node or an IPFS Cluster's IPFS proxy through `kubo-rpc-client` (IPFS_API_URL; docs/decisions/039),
 * with the same import settings as the embedded engine. Kubo's pins are a set, not counts: the count of a root
 * is the number of pinned files that name it, given by the domain (`countOf`), and `unpin` takes kubo's pin
 * away only when that count is 0. Blocks then go at kubo's next garbage collection, not at once.
 * A node that cannot be reached (refused, reset, no answer in time) is an EngineUnavailableError
 * (docs/decisions/076); the calls without a stream of bytes give up after 10 s.
 */
type Kubo = Awaited<ReturnType<typeof import("kubo-rpc-client").create>>;

/** How long a call without a stream of bytes (pin, stat, repo) waits for the node. */
const CALL_TIMEOUT_MS = 10_000;

/** Transport failures: the node is down, restarting, unreachable, or gave no answer in time. */
const DOWN =
  /fetch failed|ECONNREFUSED|ECONNRESET|EHOSTUNREACH|ENETUNREACH|ENOTFOUND|EAI_AGAIN|ETIMEDOUT|socket hang up|other side closed|UND_ERR|request timed out/i;

function causes(error: unknown): unknown[] {
  const chain: unknown[] = [];
  for (let e = error; e && chain.length < 5; e = (e as { cause?: unknown }).cause) chain.push(e);
  return chain;
}

/** Whether `error` says the node could not be reached (not that it refused what was asked). */
export function nodeDown(error: unknown, signal?: AbortSignal): boolean {
  if (signal?.aborted) return false;
  return causes(error).some((e) => {
    const { name, message, code, status } = e as { name?: string; message?: string; code?: string; status?: number };
    if (name === "TimeoutError") return true;
    if (status === 502 || status === 503 || status === 504) return true;
    return DOWN.test(`${code ?? ""} ${message ?? ""}`);
  });
}

function mapped(error: unknown, signal?: AbortSignal): unknown {
  return nodeDown(error, signal) ? new EngineUnavailableError(error) : error;
}

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
    try {
      const added = await kubo.add(counted(), {
        cidVersion: 1,
        rawLeaves: true,
        chunker: "size-1048576",
        pin: true,
        signal: options.signal,
      });
      return { cid: added.cid.toV1().toString(), size };
    } catch (error) {
      throw mapped(error, options.signal);
    }
  }

  async *cat(cid: string, range?: ByteRange, options: { signal?: AbortSignal } = {}): AsyncIterable<Uint8Array> {
    const kubo = await this.kubo();
    const root = normalCid(cid);
    try {
      yield* kubo.cat(root, { offset: range?.offset, length: range?.length, signal: options.signal });
    } catch (error) {
      throw mapped(error, options.signal);
    }
  }

  async stat(cid: string): Promise<Stat | null> {
    const kubo = await this.kubo();
    const root = normalCid(cid);
    try {
      try {
        for await (const pinned of kubo.pin.ls({ paths: [root], timeout: CALL_TIMEOUT_MS })) if (!pinned.cid) break;
      } catch (error) {
        if (nodeDown(error)) throw error;
        return null;
      }
      const stat = await kubo.files.stat(`/ipfs/${root.toString()}`, { timeout: CALL_TIMEOUT_MS });
      return { cid: root.toString(), size: Number(stat.size), blocks: Number(stat.blocks ?? 0) + 1 };
    } catch (error) {
      throw mapped(error);
    }
  }

  async pin(cid: string): Promise<void> {
    try {
      await (await this.kubo()).pin.add(normalCid(cid), { timeout: CALL_TIMEOUT_MS });
    } catch (error) {
      throw mapped(error);
    }
  }

  async unpin(cid: string): Promise<{ removedBlocks: number }> {
    const root = normalCid(cid);
    if ((await this.countOf(root.toString())) > 0) return { removedBlocks: 0 };
    try {
      await (await this.kubo()).pin.rm(root, { timeout: CALL_TIMEOUT_MS });
    } catch (error) {
      if (/not pinned/i.test(String(error))) throw new NotPinnedError(root.toString());
      throw mapped(error);
    }
    return { removedBlocks: 0 };
  }

  async pins(cid: string): Promise<number> {
    return this.countOf(normalCid(cid).toString());
  }

  async repoStats(): Promise<RepoStats> {
    try {
      const stat = await (await this.kubo()).repo.stat({ timeout: CALL_TIMEOUT_MS });
      return { blocks: Number(stat.numObjects), bytes: Number(stat.repoSize) };
    } catch (error) {
      throw mapped(error);
    }
  }

  /**
   * None: kubo keeps one pin per CID, not counts, and cannot say whether an upload under way holds one, so the pin
   * sweep leaves a node by URL to its operator (`ipfs pin ls` against the portal's files; docs/decisions/108).
   */
  async countedPins(): Promise<CountedPin[]> {
    return [];
  }

  async trim(): Promise<{ trimmed: number; removedBlocks: number }> {
    return { trimmed: 0, removedBlocks: 0 };
  }

  async close(): Promise<void> {
    this.client = undefined;
  }
}
