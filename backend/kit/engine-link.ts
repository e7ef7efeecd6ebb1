import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import {
  createServer,
  request as httpRequest,
  type ClientRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from "node:http";
import { request as httpsRequest } from "node:https";
import type { AddressInfo } from "node:net";
import {
  LinkBodyRefusedError,
  STREAM_MARK,
  linkMac,
  verifiedStream,
  withFooter,
  type StreamSignature,
} from "./engine-link-stream.ts";
import {
  EngineCallError,
  callErrorOf,
  engineErrorBody,
  type EngineErrorReply,
  type EngineRoute,
} from "./engine-calls.ts";

/**
 * Engine calls between portal processes on one database (issue 32, docs/decisions/095, 098). The process that holds an
 * engine's lease (./engine-lease.ts) answers the others' calls to it here, at the address it publishes in the lease:
 * a POST of JSON to `/<engine><path>`, answered with JSON (200) or `{ error: { name, message, code?, data? } }`
 * (500; 409 when this process does not run that engine, so the caller looks for the holder again).
 *
 * Every request is signed with a key derived from the deployment's shared secret (SESSION_SECRET): HMAC-SHA256 of
 * its time, a random nonce, the path and the SHA-256 of its body. A request older or newer than 30 s, a nonce seen in
 * those 30 s, or a bad signature is refused (401) before anything is read into an engine. TLS in front of the port
 * is the deployment's choice (ENGINE_URL may be https://); the signature does not depend on it.
 *
 * A streamed call (header `x-engine-stream: 1`; an IPFS upload or download) carries its body as a stream and may be
 * answered with one: its headers and its bytes are signed apart (./engine-link-stream.ts), and the caller sends the
 * bytes only once the holder has checked the headers and answered `100 Continue`. So a call refused, or sent to a
 * process that no longer runs the engine, has consumed none of its body and can be sent again to the next holder.
 */
export const REPLAY_WINDOW_MS = 30_000;
/** The longest body a forwarded call may carry (a contract's creation bytecode is the largest). */
const MAX_BODY = 8 * 1024 * 1024;

const HEADER_TIME = "x-engine-time";
const HEADER_NONCE = "x-engine-nonce";
const HEADER_SIGNATURE = "x-engine-signature";
const HEADER_STREAM = "x-engine-stream";

/** The key of the engine calls from the deployment's secrets (newest first): one key per secret. */
export const linkKeys = (secrets: string[]) =>
  secrets.map((s) => createHmac("sha256", s).update("bsn engine link v1").digest());

/** What the headers sign in place of the body: its SHA-256, or STREAM_MARK for a streamed body. */
const digestOf = (body: Buffer | typeof STREAM_MARK) =>
  body === STREAM_MARK ? STREAM_MARK : createHash("sha256").update(body).digest("hex");

function signature(key: Buffer, time: string, nonce: string, path: string, body: Buffer | typeof STREAM_MARK): string {
  return linkMac(key, time, nonce, path, digestOf(body)).toString("hex");
}

/**
 * The headers that make a call to `path` with `body` acceptable to a holder sharing `key` (now, or at `now`); for a
 * streamed call (`body` STREAM_MARK) the body's own footer is signed under the same time and nonce.
 */
export function signedHeaders(
  key: Buffer,
  path: string,
  body: Buffer | typeof STREAM_MARK,
  now = Date.now(),
): Record<string, string> {
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

type Nonces = { fresh(nonce: string, now: number): boolean };

/** Why a request is refused, or null when it is signed by a key of the deployment, in time and not replayed. */
export function verifyRequest(
  keys: Buffer[],
  headers: Record<string, string | string[] | undefined>,
  path: string,
  body: Buffer | typeof STREAM_MARK,
  nonces: Nonces,
  now = Date.now(),
): string | null {
  const verified = verifySigned(keys, headers, path, body, nonces, now);
  return "refused" in verified ? verified.refused : null;
}

/** The request's signature (the key that made it, its time and nonce), or why it is refused. */
function verifySigned(
  keys: Buffer[],
  headers: Record<string, string | string[] | undefined>,
  path: string,
  body: Buffer | typeof STREAM_MARK,
  nonces: Nonces,
  now = Date.now(),
): StreamSignature | { refused: string } {
  const time = String(headers[HEADER_TIME] ?? "");
  const nonce = String(headers[HEADER_NONCE] ?? "");
  const given = String(headers[HEADER_SIGNATURE] ?? "");
  if (!/^\d{1,16}$/.test(time) || !/^[0-9a-f]{24}$/.test(nonce) || !/^[0-9a-f]{64}$/.test(given))
    return { refused: "unsigned" };
  if (Math.abs(now - Number(time)) > REPLAY_WINDOW_MS) return { refused: "outside the replay window" };
  const key = keys.find((k) =>
    timingSafeEqual(Buffer.from(signature(k, time, nonce, path, body), "hex"), Buffer.from(given, "hex")),
  );
  if (!key) return { refused: "bad signature" };
  if (!nonces.fresh(nonce, now)) return { refused: "replayed" };
  return { key, time, nonce, path };
}

/** What a streamed call is answered with: JSON (an upload's CID), or bytes (a download). */
export type StreamAnswer = { json: unknown } | { bytes: AsyncIterable<Uint8Array> };
/** The holder's answers to an engine's streamed calls: `body` is the call's bytes, verified as they are read. */
export type EngineLinkStreamRoute = (path: string, body: AsyncIterable<Uint8Array>) => Promise<StreamAnswer>;

export type EngineLinkServer = {
  /** The port it listens on (the one the system gave for port 0). */
  readonly port: number;
  /** Answers `engine`'s calls with `route` (the lease was taken), or stops answering them (it was lost). */
  serve(engine: string, route: EngineRoute | null, streams?: EngineLinkStreamRoute): void;
  close(): Promise<void>;
};

/** Listens for the engine calls of the other processes at host:port. */
export async function startEngineLink(keys: Buffer[], host: string, port: number): Promise<EngineLinkServer> {
  const routes = new Map<string, EngineRoute>();
  const streamRoutes = new Map<string, EngineLinkStreamRoute>();
  const nonces = new SeenNonces();
  const server: Server = createServer((req, res) => {
    if (req.headers[HEADER_STREAM]) return answerStream(keys, nonces, streamRoutes, req, res, false);
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
  // A streamed call asks to go on before sending its body: checked first, then 100 Continue (or refused).
  server.on("checkContinue", (req: IncomingMessage, res: ServerResponse) => {
    if (req.headers[HEADER_STREAM]) return answerStream(keys, nonces, streamRoutes, req, res, true);
    res.writeContinue();
    server.emit("request", req, res);
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
    serve: (engine, route, streams) => {
      if (route) routes.set(engine, route);
      else routes.delete(engine);
      if (route && streams) streamRoutes.set(engine, streams);
      else streamRoutes.delete(engine);
    },
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

/** Resolves once `stream` can take more, rejects if it closes first. */
function drained(stream: ClientRequest | ServerResponse): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const done = (error?: Error) => {
      stream.off("drain", onDrain);
      stream.off("close", onClose);
      if (error) reject(error);
      else resolve();
    };
    const onDrain = () => done();
    const onClose = () => done(new Error("the connection closed"));
    stream.once("drain", onDrain);
    stream.once("close", onClose);
  });
}

/**
 * The holder's side of a streamed call: its headers checked before any of its body is read (and `100 Continue` sent
 * only then), its body handed to the engine as it arrives and verified at its end, and the answer JSON or bytes
 * followed by their signature. A body that does not verify is refused (401) and nothing of it is kept by the route.
 */
function answerStream(
  keys: Buffer[],
  nonces: Nonces,
  routes: Map<string, EngineLinkStreamRoute>,
  req: IncomingMessage,
  res: ServerResponse,
  expectsContinue: boolean,
): void {
  // One call per connection (the caller's body may be left unread after a refusal).
  const json = (status: number, value: unknown) => {
    if (res.headersSent) return void res.destroy();
    res.writeHead(status, { "Content-Type": "application/json", Connection: "close" }).end(JSON.stringify(value));
  };
  const url = req.url ?? "/";
  const signed =
    req.method === "POST" ? verifySigned(keys, req.headers, url, STREAM_MARK, nonces) : { refused: "not a POST" };
  if ("refused" in signed)
    return json(401, { error: { name: "EngineCallError", message: `refused: ${signed.refused}` } });
  const match = /^\/([a-z-]+)(\/.*)$/.exec(url);
  const route = match ? routes.get(match[1]!) : undefined;
  if (!match || !route)
    return json(409, { error: { name: "NotEngineHolder", message: "this process does not run that engine" } });
  if (expectsContinue) res.writeContinue();
  const body = verifiedStream(
    signed,
    "body",
    req,
    (error) => new EngineCallError(`the call's body was cut: ${(error as Error)?.message ?? String(error)}`),
  );
  void (async () => {
    let answer: StreamAnswer;
    try {
      answer = await route(match[2]!, body);
    } catch (error) {
      return json(error instanceof LinkBodyRefusedError ? 401 : 500, engineErrorBody(error));
    }
    // What the route did not read of the body (a download's call has none) is let go.
    req.resume();
    if ("json" in answer) return json(200, answer.json);
    res.writeHead(200, { "Content-Type": "application/octet-stream", [HEADER_STREAM]: "1", Connection: "close" });
    try {
      for await (const chunk of withFooter(signed, "reply", answer.bytes)) if (!res.write(chunk)) await drained(res);
      res.end();
    } catch (error) {
      // Cut short: the caller sees no valid footer and refuses what it got.
      res.destroy(error instanceof Error ? error : new Error(String(error)));
    }
  })();
}

/**
 * One signed streamed call to the holder at `address`: its JSON answer or its bytes (verified as they are read; an
 * answer cut short or not signed ends in an error). `body` is read only once the holder has checked the call and
 * answered `100 Continue`: an error before that has consumed none of it (`EngineUnreachableError.sent` is false,
 * and a NotEngineHolderError leaves it whole too), so the same call can be sent again to the next holder. An error of
 * `body` itself (the caller's own source) abandons the call and is thrown as it is.
 */
export function callLinkedStream(
  keys: Buffer[],
  address: string,
  engine: string,
  path: string,
  body: AsyncIterable<Uint8Array> | null,
  options: { signal?: AbortSignal; timeoutMs?: number } = {},
): Promise<StreamAnswer> {
  const full = `/${engine}${path}`;
  const url = new URL(full, address);
  const send = url.protocol === "https:" ? httpsRequest : httpRequest;
  const headers = signedHeaders(keys[0]!, full, STREAM_MARK);
  const signed: StreamSignature = {
    key: keys[0]!,
    time: headers[HEADER_TIME]!,
    nonce: headers[HEADER_NONCE]!,
    path: full,
  };
  const timeoutMs = options.timeoutMs ?? 60_000;
  let consumed = false;
  let answered = false;
  let sourceFailed = false;
  const tracked = body
    ? (async function* () {
        consumed = true;
        yield* body;
      })()
    : null;
  return new Promise<StreamAnswer>((resolve, reject) => {
    const req = send(
      url,
      {
        method: "POST",
        // A connection of its own: a body left half sent never spoils a kept-alive socket.
        agent: false,
        timeout: timeoutMs,
        signal: options.signal,
        headers: {
          "Content-Type": "application/octet-stream",
          Expect: "100-continue",
          [HEADER_STREAM]: "1",
          ...headers,
        },
      },
      (res) => {
        answered = true;
        if (res.statusCode === 200 && res.headers[HEADER_STREAM]) {
          const cut = (error: unknown) =>
            new EngineUnreachableError(
              `the ${engine} engine's holder at ${address} stopped answering: ${(error as Error)?.message ?? String(error)}`,
            );
          return resolve({ bytes: verifiedStream(signed, "reply", res, cut) });
        }
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("error", (error) => reject(new EngineUnreachableError(error.message, consumed)));
        res.on("end", () => {
          req.destroy();
          let reply: EngineErrorReply;
          try {
            reply = JSON.parse(Buffer.concat(chunks).toString("utf8"));
          } catch {
            return reject(new EngineCallError(`the ${engine} holder answered HTTP ${res.statusCode} without JSON`));
          }
          if (res.statusCode === 200) resolve({ json: reply });
          else if (res.statusCode === 409) reject(new NotEngineHolderError(reply.error?.message ?? "not the holder"));
          else reject(callErrorOf(reply, res.statusCode));
        });
      },
    );
    req.flushHeaders();
    req.on("continue", () => {
      void (async () => {
        try {
          for await (const chunk of withFooter(signed, "body", tracked)) {
            if (answered) return;
            if (!req.write(chunk)) await drained(req);
          }
          req.end();
        } catch (error) {
          if (answered || req.destroyed) return;
          // The caller's own source failed (e.g. an upload over its capacity): its error, as it is.
          sourceFailed = true;
          req.destroy();
          reject(error);
        }
      })();
    });
    req.on("timeout", () => req.destroy(new Error(`no answer in ${timeoutMs} ms`)));
    req.on("error", (error: NodeJS.ErrnoException) => {
      if (sourceFailed) return;
      if (error.name === "AbortError") return reject(error);
      reject(
        new EngineUnreachableError(
          `the ${engine} engine's holder at ${address} is not reachable: ${error.message}`,
          consumed,
        ),
      );
    });
  });
}
