import { rmSync } from "node:fs";
import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import type { BackendEnv } from "#backend/env.ts";

/**
 * The embedded engines in a cluster (docs/decisions/031): each engine (the chains today, IPFS when it lands)
 * has one writer, the cluster's "owner" worker, which serves it to the other workers ("peers") over a unix
 * socket of its own, `<BSN_ENGINES_SOCKET>-<engine>`, that only this machine's processes reach. A request is
 * a POST of JSON to a path; the answer is JSON (HTTP 200), or `{ error: { name, message, code? } }` with 500.
 */
export type EngineRoute = (path: string, body: unknown) => Promise<unknown>;
/**
 * Calls whose body or answer is a byte stream (IPFS uploads and downloads): the owner hands the request and
 * response to it for paths under `/stream/`; it answers them itself.
 */
export type EngineStreamRoute = (req: IncomingMessage, res: ServerResponse) => Promise<void>;

export class EngineCallError extends Error {
  constructor(
    message: string,
    readonly code?: number,
    readonly data?: string,
    name = "EngineCallError",
  ) {
    super(message);
    this.name = name;
  }
}

/** An engine's error as a failed call answers it: its name, message, and JSON-RPC code and data when it has them. */
export function engineErrorBody(error: unknown) {
  const e = error as { name?: string; message?: string; code?: unknown; data?: unknown };
  return {
    error: {
      name: e.name ?? "Error",
      message: e.message ?? String(error),
      code: typeof e.code === "number" ? e.code : undefined,
      data: typeof e.data === "string" ? e.data : undefined,
    },
  };
}

export type EngineErrorReply = { error?: { name: string; message: string; code?: number; data?: string } };

/** The caller's side of `engineErrorBody`: the error a failed call's answer carries. */
export const callErrorOf = (reply: EngineErrorReply, status: number | undefined) =>
  new EngineCallError(
    reply.error?.message ?? `HTTP ${status}`,
    reply.error?.code,
    reply.error?.data,
    reply.error?.name,
  );

export const socketOf = (env: Pick<BackendEnv, "cluster">, engine: string) => `${env.cluster!.enginesSocket}-${engine}`;

/** The owner: answers the peers' calls to `engine` with `route`; resolves once listening. */
export async function serveEngine(
  env: Pick<BackendEnv, "cluster">,
  engine: string,
  route: EngineRoute,
  streams?: EngineStreamRoute,
): Promise<Server> {
  const socket = socketOf(env, engine);
  // A socket left by an owner that died is replaced (only the owner, which holds DATA_DIR's lock, gets here).
  rmSync(socket, { force: true });
  const server = createServer((req, res) => {
    if (streams && req.url?.startsWith("/stream/")) {
      streams(req, res).catch((error: unknown) => {
        const e = error as { name?: string; message?: string };
        if (!res.headersSent)
          res
            .writeHead(500, { "Content-Type": "application/json" })
            .end(JSON.stringify({ error: { name: e.name ?? "Error", message: e.message ?? String(error) } }));
        else res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
      return;
    }
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      void (async () => {
        let status = 200;
        let reply: unknown;
        try {
          reply = await route(
            req.url ?? "/",
            chunks.length ? JSON.parse(Buffer.concat(chunks).toString("utf8")) : null,
          );
        } catch (error) {
          status = 500;
          reply = engineErrorBody(error);
        }
        res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(reply));
      })();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(socket, () => resolve());
  });
  server.unref();
  return server;
}

/** A peer: one call to the owner's `engine`; rejects with an EngineCallError carrying the owner's error. */
export function callEngine<T>(
  env: Pick<BackendEnv, "cluster">,
  engine: string,
  path: string,
  body: unknown = null,
): Promise<T> {
  const payload = JSON.stringify(body);
  return new Promise<T>((resolve, reject) => {
    const req = httpRequest(
      {
        socketPath: socketOf(env, engine),
        path,
        method: "POST",
        headers: { "Content-Type": "application/json", "Content-Length": Buffer.byteLength(payload) },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          try {
            const reply = JSON.parse(Buffer.concat(chunks).toString("utf8")) as EngineErrorReply;
            if (res.statusCode === 200) resolve(reply as T);
            else reject(callErrorOf(reply, res.statusCode));
          } catch (error) {
            reject(error);
          }
        });
        res.on("error", reject);
      },
    );
    req.on("error", (error) =>
      reject(new EngineCallError(`the ${engine} owner process is not reachable: ${error.message}`)),
    );
    req.end(payload);
  });
}

/** A peer at start: waits until the owner answers `path` (it starts first; a restarted owner takes a moment). */
export async function waitForEngine(
  env: Pick<BackendEnv, "cluster">,
  engine: string,
  path: string,
  timeoutMs = 120_000,
): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    try {
      await callEngine(env, engine, path);
      return;
    } catch (error) {
      if (Date.now() > until) throw error;
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}
