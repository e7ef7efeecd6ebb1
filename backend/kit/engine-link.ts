import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { createServer, request as httpRequest, type Server } from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import {
  EngineCallError,
  callErrorOf,
  engineErrorBody,
  type EngineErrorReply,
  type EngineRoute,
} from "./engine-socket.ts";

/**
 * Engine calls between portal processes on one database (issue 32, docs/decisions/095). The process that holds an
 * engine's lease (./engine-lease.ts) answers the others' calls to it here, at the address it publishes in the lease:
 * a POST of JSON to `/<engine><path>`, answered with JSON (200) or `{ error: { name, message, code?, data? } }`
 * (500; 409 when this process does not run that engine, so the caller looks for the holder again).
 *
 * Every request is signed with a key derived from the deployment's shared secret (SESSION_SECRET): HMAC-SHA256 of
 * its time, a random nonce, the path and the SHA-256 of its body. A request older or newer than 30 s, a nonce seen in
 * those 30 s, or a bad signature is refused (401) before anything is read into an engine. TLS in front of the port
 * is the deployment's choice (ENGINE_URL may be https://); the signature does not depend on it.
 */
export const REPLAY_WINDOW_MS = 30_000;
/** The longest body a forwarded call may carry (a contract's creation bytecode is the largest). */
const MAX_BODY = 8 * 1024 * 1024;

const HEADER_TIME = "x-engine-time";
const HEADER_NONCE = "x-engine-nonce";
const HEADER_SIGNATURE = "x-engine-signature";

/** The key of the engine calls from the deployment's secrets (newest first): one key per secret. */
export const linkKeys = (secrets: string[]) =>
  secrets.map((s) => createHmac("sha256", s).update("bsn engine link v1").digest());

function signature(key: Buffer, time: string, nonce: string, path: string, body: Buffer): string {
  const digest = createHash("sha256").update(body).digest("hex");
  return createHmac("sha256", key).update(`${time}\n${nonce}\n${path}\n${digest}`).digest("hex");
}

/** The headers that make a call to `path` with `body` acceptable to a holder sharing `key` (now, or at `now`). */
export function signedHeaders(key: Buffer, path: string, body: Buffer, now = Date.now()): Record<string, string> {
  const time = String(now);
  const nonce = randomBytes(12).toString("hex");
  return { [HEADER_TIME]: time, [HEADER_NONCE]: nonce, [HEADER_SIGNATURE]: signature(key, time, nonce, path, body) };
}

/** The nonces of the last 30 s, so that a captured request cannot be sent again. */
class SeenNonces {
  private readonly seen = new Map<string, number>();
  /** False when `nonce` was seen in the window (and remembers it otherwise). */
  fresh(nonce: string, now: number): boolean {
    if (this.seen.size > 10_000) for (const [n, at] of this.seen) if (now - at > REPLAY_WINDOW_MS) this.seen.delete(n);
    if (this.seen.has(nonce)) return false;
    this.seen.set(nonce, now);
    return true;
  }
}

/** Why a request is refused, or null when it is signed by a key of the deployment, in time and not replayed. */
export function verifyRequest(
  keys: Buffer[],
  headers: Record<string, string | string[] | undefined>,
  path: string,
  body: Buffer,
  nonces: { fresh(nonce: string, now: number): boolean },
  now = Date.now(),
): string | null {
  const time = String(headers[HEADER_TIME] ?? "");
  const nonce = String(headers[HEADER_NONCE] ?? "");
  const given = String(headers[HEADER_SIGNATURE] ?? "");
  if (!/^\d{1,16}$/.test(time) || !/^[0-9a-f]{24}$/.test(nonce) || !/^[0-9a-f]{64}$/.test(given)) return "unsigned";
  if (Math.abs(now - Number(time)) > REPLAY_WINDOW_MS) return "outside the replay window";
  const ok = keys.some((key) =>
    timingSafeEqual(Buffer.from(signature(key, time, nonce, path, body), "hex"), Buffer.from(given, "hex")),
  );
  if (!ok) return "bad signature";
  if (!nonces.fresh(nonce, now)) return "replayed";
  return null;
}

export type EngineLinkServer = {
  /** The port it listens on (the one the system gave for port 0). */
  readonly port: number;
  /** Answers `engine`'s calls with `route` (the lease was taken), or stops answering them (it was lost). */
  serve(engine: string, route: EngineRoute | null): void;
  close(): Promise<void>;
};

/** Listens for the engine calls of the other processes at host:port. */
export async function startEngineLink(keys: Buffer[], host: string, port: number): Promise<EngineLinkServer> {
  const routes = new Map<string, EngineRoute>();
  const nonces = new SeenNonces();
  const server: Server = createServer((req, res) => {
    const reply = (status: number, value: unknown) =>
      res.writeHead(status, { "Content-Type": "application/json" }).end(JSON.stringify(value));
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_BODY) {
        reply(413, { error: { name: "EngineCallError", message: "the call's body is too large" } });
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on("end", () => {
      const body = Buffer.concat(chunks);
      const url = req.url ?? "/";
      const refused = req.method === "POST" ? verifyRequest(keys, req.headers, url, body, nonces) : "not a POST";
      if (refused) return reply(401, { error: { name: "EngineCallError", message: `refused: ${refused}` } });
      const match = /^\/([a-z-]+)(\/.*)$/.exec(url);
      const route = match ? routes.get(match[1]!) : undefined;
      if (!match || !route)
        return reply(409, { error: { name: "NotEngineHolder", message: "this process does not run that engine" } });
      void (async () => {
        try {
          reply(200, await route(match[2]!, body.length ? JSON.parse(body.toString("utf8")) : null));
        } catch (error) {
          reply(500, engineErrorBody(error));
        }
      })();
    });
  });
  // Longer than the callers' idle sockets live (Node's agents: 5 s), so a caller never reuses one this side just closed.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // Exclusive: in a cluster's worker (node:cluster) a shared handle would give every worker the same port and
    // spread the calls over them, the holder and the others alike.
    server.listen({ port, host, exclusive: true }, () => resolve());
  });
  server.unref();
  return {
    port: (server.address() as AddressInfo).port,
    serve: (engine, route) => (route ? routes.set(engine, route) : routes.delete(engine)),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** The holder answered that it does not run the engine (any more): look for the holder again. */
export class NotEngineHolderError extends EngineCallError {
  constructor(message: string) {
    super(message, undefined, undefined, "NotEngineHolder");
  }
}

/** The holder could not be reached at all (refused, reset before an answer, or silent for `timeoutMs`). */
export class EngineUnreachableError extends EngineCallError {
  constructor(
    message: string,
    /** False when the connection was never made (so the call certainly did not run): it can be sent again. */
    readonly sent = true,
  ) {
    super(message, undefined, undefined, "EngineUnreachable");
  }
}

/** Errors of a connection that was never made. */
const NOT_CONNECTED = new Set(["ECONNREFUSED", "ENOTFOUND", "EHOSTUNREACH", "ENETUNREACH", "EAI_AGAIN"]);

/** One signed call to the holder at `address`: its JSON answer, or an EngineCallError with the holder's error. */
export function callLinked<T>(
  keys: Buffer[],
  address: string,
  engine: string,
  path: string,
  body: unknown = null,
  timeoutMs = 60_000,
): Promise<T> {
  const payload = Buffer.from(JSON.stringify(body));
  const full = `/${engine}${path}`;
  const url = new URL(full, address);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise<T>((resolve, reject) => {
    const req = send(
      url,
      {
        method: "POST",
        timeout: timeoutMs,
        headers: {
          "Content-Type": "application/json",
          "Content-Length": payload.length,
          ...signedHeaders(keys[0]!, full, payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          let reply: EngineErrorReply;
          try {
            reply = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          } catch {
            return reject(new EngineCallError(`the ${engine} holder answered HTTP ${res.statusCode} without JSON`));
          }
          if (res.statusCode === 200) resolve(reply as T);
          else if (res.statusCode === 409) reject(new NotEngineHolderError(reply.error?.message ?? "not the holder"));
          else reject(callErrorOf(reply, res.statusCode));
        });
        res.on("error", (error) => reject(new EngineUnreachableError(error.message)));
      },
    );
    req.on("timeout", () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        new EngineUnreachableError(
          `the ${engine} engine's holder at ${address} is not reachable: ${error.message}`,
          !NOT_CONNECTED.has(error.code ?? ""),
        ),
      ),
    );
    req.end(payload);
  });
}
