import { request as httpRequest, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { BackendEnv } from "#backend/env.ts";
import { callEngine, EngineCallError, serveEngine, socketOf } from "#backend/kit/engine-socket.ts";
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
 * The embedded IPFS engine in a cluster of portal processes (docs/decisions/031, 039): the owner runs it and
 * serves it on `<BSN_ENGINES_SOCKET>-ipfs`; a peer's engine sends every call there. JSON calls go through the
 * kit's engine socket; uploads (`/stream/add`, the body is the file) and downloads (`/stream/cat`, the answer is
 * the bytes) stream both ways, so no process holds a whole file.
 */
const ENGINE = "ipfs";

/** An owner's errors, back under their own names on the peer. */
function rethrow(error: unknown): never {
  if (error instanceof EngineCallError) {
    if (error.name === "NotPinnedError") throw new NotPinnedError(error.message.replace(/ is not pinned here$/, ""));
    if (error.name === "BadCidError") throw new BadCidError(error.message.replace(/^not a CID: /, ""));
  }
  throw error;
}

async function readJson(res: IncomingMessage): Promise<Record<string, unknown>> {
  const chunks: Buffer[] = [];
  for await (const chunk of res) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString("utf8")) as Record<string, unknown>;
}

function failure(status: number | undefined, reply: Record<string, unknown>): EngineCallError {
  const e = (reply.error ?? {}) as { name?: string; message?: string };
  return new EngineCallError(e.message ?? `HTTP ${status}`, undefined, undefined, e.name);
}

export class PeerIpfs implements IpfsEngine {
  readonly kind = "peer" as const;
  constructor(private readonly env: Pick<BackendEnv, "cluster">) {}

  private call<T>(path: string, body: unknown = null): Promise<T> {
    return callEngine<T>(this.env, ENGINE, path, body).catch(rethrow);
  }

  add(source: AsyncIterable<Uint8Array>, options: { signal?: AbortSignal } = {}): Promise<Added> {
    return new Promise<Added>((resolve, reject) => {
      const req = httpRequest(
        {
          socketPath: socketOf(this.env, ENGINE),
          path: "/stream/add",
          method: "POST",
          headers: { "Content-Type": "application/octet-stream" },
          signal: options.signal,
        },
        (res) => {
          readJson(res).then(
            (reply) => (res.statusCode === 200 ? resolve(reply as Added) : reject(failure(res.statusCode, reply))),
            reject,
          );
        },
      );
      req.on("error", reject);
      void (async () => {
        try {
          for await (const chunk of source) if (!req.write(chunk)) await new Promise((r) => req.once("drain", r));
          req.end();
        } catch (error) {
          req.destroy(error instanceof Error ? error : new Error(String(error)));
          reject(error);
        }
      })();
    }).catch(rethrow);
  }

  async *cat(cid: string, range?: ByteRange, options: { signal?: AbortSignal } = {}): AsyncIterable<Uint8Array> {
    const query = new URLSearchParams({
      cid,
      ...(range ? { offset: String(range.offset) } : {}),
      ...(range?.length !== undefined ? { length: String(range.length) } : {}),
    });
    const res = await new Promise<IncomingMessage>((resolve, reject) => {
      const req = httpRequest(
        {
          socketPath: socketOf(this.env, ENGINE),
          path: `/stream/cat?${query}`,
          method: "POST",
          signal: options.signal,
        },
        resolve,
      );
      req.on("error", reject);
      req.end();
    });
    if (res.statusCode !== 200) rethrow(failure(res.statusCode, await readJson(res)));
    for await (const chunk of res) yield chunk as Uint8Array;
  }

  stat(cid: string): Promise<Stat | null> {
    return this.call<{ stat: Stat | null }>("/stat", { cid }).then((r) => r.stat);
  }
  async pin(cid: string): Promise<void> {
    await this.call("/pin", { cid });
  }
  unpin(cid: string): Promise<{ removedBlocks: number }> {
    return this.call("/unpin", { cid });
  }
  pins(cid: string): Promise<number> {
    return this.call<{ pins: number }>("/pins", { cid }).then((r) => r.pins);
  }
  repoStats(): Promise<RepoStats> {
    return this.call("/repo");
  }
  async close(): Promise<void> {}
}

/** The owner: serves `engine` to the peers; resolves once listening. */
export function servePeers(env: Pick<BackendEnv, "cluster">, engine: IpfsEngine): Promise<Server> {
  const json = async (path: string, body: unknown) => {
    const cid = String((body as { cid?: unknown } | null)?.cid ?? "");
    if (path === "/repo") return engine.repoStats();
    if (path === "/stat") return { stat: await engine.stat(cid) };
    if (path === "/pin") return engine.pin(cid).then(() => ({}));
    if (path === "/unpin") return engine.unpin(cid);
    if (path === "/pins") return { pins: await engine.pins(cid) };
    throw new Error(`no engine call ${path}`);
  };
  const streams = async (req: IncomingMessage, res: ServerResponse) => {
    const url = new URL(req.url ?? "/", "http://owner.invalid");
    if (url.pathname === "/stream/add") {
      const added = await engine.add(req as AsyncIterable<Uint8Array>);
      res.writeHead(200, { "Content-Type": "application/json" }).end(JSON.stringify(added));
      return;
    }
    if (url.pathname === "/stream/cat") {
      req.resume();
      const offset = url.searchParams.get("offset");
      const length = url.searchParams.get("length");
      const range =
        offset === null ? undefined : { offset: Number(offset), length: length === null ? undefined : Number(length) };
      const source = engine.cat(url.searchParams.get("cid") ?? "", range)[Symbol.asyncIterator]();
      // The first chunk before the head, so that an unknown CID is an error answer rather than a cut stream.
      let next = await source.next();
      res.writeHead(200, { "Content-Type": "application/octet-stream" });
      while (!next.done) {
        if (!res.write(next.value)) await new Promise((r) => res.once("drain", r));
        next = await source.next();
      }
      res.end();
      return;
    }
    throw new Error(`no engine stream ${url.pathname}`);
  };
  return serveEngine(env, ENGINE, json, streams);
}
