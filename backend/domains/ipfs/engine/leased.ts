import type { Deps } from "#backend/deps.ts";
import { NotLeaseHolderError } from "#backend/kit/engine-lease.ts";
import { EngineUnreachableError, NotEngineHolderError, type StreamAnswer } from "#backend/kit/engine-link.ts";
import { EngineOwnership, FORWARD_PATIENCE_MS } from "#backend/kit/engine-owner.ts";
import { EngineCallError } from "#backend/kit/engine-calls.ts";
import type { EmbeddedIpfs } from "./embedded.ts";
import type { Fence } from "./shared-state.ts";
import {
  BadCidError,
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
 * The embedded IPFS engine among portal processes on one PostgreSQL (issue 32 item 3, docs/decisions/098): the holder
 * of the `ipfs` lease opens it over the shared state (docs/decisions/096) and answers the others over the engine link
 * (docs/decisions/095); every other process sends each call there. JSON calls for the pins and stats; uploads
 * (`/stream/add`, the body is the file) and downloads (`/stream/cat`, the answer is the bytes) stream both ways, signed,
 * so no process holds a whole file. A takeover opens the engine again from the shared state.
 *
 * What is sent again when the holder changes (EngineOwnership): every call that cannot have run; reads always (a
 * download cut by the holder's end goes on from the byte it reached, at the next holder); an upload only when none of
 * its bytes were read yet. An upload cut after that, and a pin or unpin that may have run, fail with
 * EngineUnavailableError: the gateway's 503 with Retry-After, nothing recorded for the user.
 */
const ENGINE = "ipfs";

export class LeasedIpfs implements IpfsEngine {
  readonly kind = "embedded" as const;
  /** The engine, while this process holds the lease. */
  private engine: EmbeddedIpfs | null = null;
  private readonly ownership: EngineOwnership;

  constructor(
    deps: Deps,
    /** The embedded engine over the shared state, its writes fenced by `fence` (not opened). */
    private readonly open: (fence: Fence) => EmbeddedIpfs,
    /** False for a cluster's peer worker (docs/decisions/031): it never runs the engine. */
    contend: boolean,
  ) {
    this.ownership = new EngineOwnership(
      deps,
      ENGINE,
      {
        becomeOwner: () => this.becomeOwner(),
        becomePeer: () => this.becomePeer(),
        answer: (path, body) => this.answer(path, body),
        stream: (path, body) => this.answerStream(path, body),
      },
      contend,
    );
  }

  /** Takes the lease and opens the engine, or waits until its holder answers. */
  start(): Promise<void> {
    return this.ownership.start();
  }

  /** The engine when this process runs it (tests: what its open copied in). */
  get local(): EmbeddedIpfs | null {
    return this.engine;
  }

  /** Where the state is kept (/healthz): always the shared store, whichever process runs the engine. */
  get stateKind(): "shared" | "disk" {
    return this.engine?.stateKind ?? "shared";
  }

  /** Who runs the engine (/healthz): holder, address, epoch, and whether it is this process. */
  holder() {
    return this.ownership.holder();
  }

  private async becomeOwner(): Promise<void> {
    const engine = this.open((tx) => this.ownership.fence(tx));
    const opened = await engine.open();
    if (engine.copied)
      console.warn(
        `ipfs: ${engine.copied.blocks} block(s) and ${engine.copied.pins} pin(s) were copied from DATA_DIR/ipfs into the shared store; the folder is now ${engine.copied.movedTo}`,
      );
    if (opened.removed) console.warn(`ipfs: ${opened.removed} block(s) no pin references were removed at open`);
    this.engine = engine;
  }

  private async becomePeer(): Promise<void> {
    const engine = this.engine;
    this.engine = null;
    await engine?.close();
  }

  private opened(): EmbeddedIpfs {
    if (!this.engine) throw new NotEngineHolderError("this process does not run the ipfs engine now");
    return this.engine;
  }

  /** The holder's answers to the JSON calls. */
  private async answer(path: string, body: unknown): Promise<unknown> {
    const engine = this.opened();
    const cid = String((body as { cid?: unknown } | null)?.cid ?? "");
    if (path === "/health" || path === "/repo") return engine.repoStats();
    if (path === "/stat") return { stat: await engine.stat(cid) };
    if (path === "/pin") return engine.pin(cid).then(() => ({}));
    if (path === "/unpin") return engine.unpin(cid);
    if (path === "/pins") return { pins: await engine.pins(cid) };
    if (path === "/counted-pins") return { pins: await engine.countedPins() };
    if (path === "/trim") {
      const { mark, by } = body as { mark?: unknown; by?: unknown };
      return engine.trim(cid, String(mark ?? ""), Number(by ?? 0));
    }
    throw new Error(`no engine call ${path}`);
  }

  /** The holder's answers to the streamed calls: an upload's CID, a download's bytes. */
  private async answerStream(path: string, body: AsyncIterable<Uint8Array>): Promise<StreamAnswer> {
    const engine = this.opened();
    const url = new URL(path, "http://holder.invalid");
    if (url.pathname === "/stream/add") return { json: await engine.add(body) };
    if (url.pathname === "/stream/cat") {
      const offset = Number(url.searchParams.get("offset") ?? 0);
      const length = url.searchParams.get("length");
      const range = { offset, length: length === null ? undefined : Number(length) };
      const source = engine.cat(url.searchParams.get("cid") ?? "", range)[Symbol.asyncIterator]();
      // The first chunk before the answer's head, so that an unpinned CID is an error rather than a cut stream.
      const first = await source.next();
      return {
        bytes: (async function* () {
          try {
            for (let next = first; !next.done; next = await source.next()) yield next.value;
          } finally {
            await source.return?.();
          }
        })(),
      };
    }
    throw new Error(`no engine stream ${url.pathname}`);
  }

  /** An error of a forwarded call as the domain knows it. */
  private failed(error: unknown): unknown {
    if (
      error instanceof EngineUnreachableError ||
      error instanceof NotEngineHolderError ||
      error instanceof NotLeaseHolderError
    )
      return new EngineUnavailableError(error);
    if (error instanceof EngineCallError) {
      if (error.name === "NotPinnedError") return new NotPinnedError(error.message.replace(/ is not pinned here$/, ""));
      if (error.name === "BadCidError") return new BadCidError(error.message.replace(/^not a CID: /, ""));
      if (error.name === "NotLeaseHolderError") return new EngineUnavailableError(error);
    }
    return error;
  }

  private async call<T>(path: string, body: unknown, resendable: boolean): Promise<T> {
    try {
      return await this.ownership.call<T>(path, body, resendable);
    } catch (error) {
      throw this.failed(error);
    }
  }

  private async stream(
    path: string,
    body: AsyncIterable<Uint8Array> | null,
    resendable: boolean,
    signal?: AbortSignal,
  ): Promise<StreamAnswer> {
    try {
      return await this.ownership.stream(path, body, resendable, signal);
    } catch (error) {
      throw this.failed(error);
    }
  }

  async add(source: AsyncIterable<Uint8Array>, options: { signal?: AbortSignal } = {}): Promise<Added> {
    const answer = await this.stream("/stream/add", source, false, options.signal);
    if (!("json" in answer)) throw new Error("the ipfs engine answered an upload with bytes");
    return answer.json as Added;
  }

  async *cat(cid: string, range?: ByteRange, options: { signal?: AbortSignal } = {}): AsyncIterable<Uint8Array> {
    let offset = range?.offset ?? 0;
    let left = range?.length;
    const until = Date.now() + FORWARD_PATIENCE_MS;
    for (;;) {
      const query = new URLSearchParams({
        cid,
        offset: String(offset),
        ...(left !== undefined ? { length: String(left) } : {}),
      });
      const answer = await this.stream(`/stream/cat?${query}`, null, true, options.signal);
      if (!("bytes" in answer)) throw new Error("the ipfs engine answered a download with JSON");
      try {
        for await (const chunk of answer.bytes) {
          offset += chunk.byteLength;
          if (left !== undefined) left -= chunk.byteLength;
          yield chunk;
        }
        return;
      } catch (error) {
        // The holder ended in the middle: the rest from the next one (a read is safe to repeat), from where it was.
        if (!(error instanceof EngineUnreachableError) || Date.now() > until || options.signal?.aborted)
          throw this.failed(error);
        console.warn(`ipfs: a download was cut at byte ${offset} (${error.message}); going on from the next holder`);
      }
    }
  }

  stat(cid: string): Promise<Stat | null> {
    return this.call<{ stat: Stat | null }>("/stat", { cid }, true).then((r) => r.stat);
  }
  async pin(cid: string): Promise<void> {
    await this.call("/pin", { cid }, false);
  }
  unpin(cid: string): Promise<{ removedBlocks: number }> {
    return this.call("/unpin", { cid }, false);
  }
  pins(cid: string): Promise<number> {
    return this.call<{ pins: number }>("/pins", { cid }, true).then((r) => r.pins);
  }
  repoStats(): Promise<RepoStats> {
    return this.call("/repo", null, true);
  }
  countedPins(): Promise<CountedPin[]> {
    return this.call<{ pins: CountedPin[] }>("/counted-pins", null, true).then((r) => r.pins);
  }
  /** Sent again after a handover: the next holder's opening has other marks, so a trim that ran is not repeated. */
  trim(cid: string, mark: string, by: number): Promise<{ trimmed: number; removedBlocks: number }> {
    return this.call("/trim", { cid, mark, by }, true);
  }

  /** Stops taking the lease and answering, closes the engine here, then hands the lease over at once. */
  async close(): Promise<void> {
    await this.ownership.stop();
    await this.becomePeer();
    await this.ownership.release();
  }
}
