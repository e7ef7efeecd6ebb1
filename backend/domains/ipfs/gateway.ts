import { unstable_parseMultipartFormData } from "@remix-run/node";
import { fileTypeFromBuffer } from "file-type";
import { IPFS_GATEWAY_PREFIX, IPFS_UPLOAD_LIMIT_BYTES, type IpfsKeyKind } from "#contract/ipfs-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Deps } from "#backend/deps.ts";
import { BodyTooLargeError, discardRest } from "#backend/kit/body-limit.ts";
import type { Endpoint } from "#backend/kit/domain.ts";
import billing from "#backend/domains/billing/index.ts";
import { normalCid } from "./engine/embedded.ts";
import { BadCidError, EngineUnavailableError, NotPinnedError } from "./engine/types.ts";
import { gatewayOfService, pinnedFile, recordFile, serviceOfKey } from "./records.ts";
import { KEY_SHAPE } from "./keys.ts";
import { meterOf } from "./meter.ts";
import { engineOf } from "./node.ts";
import { activeContent, chinaDay, cleanName, contentTypeOf, parseRange } from "./rules.ts";

/**
 * The city node gateways of IPFS services (issue 13; docs/decisions/039): every city node serves at
 * `/ipfs-gw/<city node code>`, so that traffic is metered per gateway.
 * - `POST …/upload` with the upload key (`Authorization: Bearer <key>` or `X-Api-Key`): the file as the raw body
 *   (its name in `X-File-Name`, URL-encoded, or `?name=`) or as the first file of a multipart form; streamed
 *   to the engine while it arrives, counted against the service's free capacity. Answers JSON with the CID.
 * - `GET|HEAD …/ipfs/<cid>` with the download key: the file of one of the service's own pins, with Range
 *   support; every byte sent is metered for the service, the gateway, the day and the file (CID).
 * Refusals are JSON `{ code, message }`: 401 unknown key, 403 deactivated key or another gateway, 402 unpaid
 * bills (SPEC §5), 413 over capacity, 404 a CID the service has not pinned, 503 with Retry-After while the IPFS
 * node (IPFS_API_URL) is not answering (docs/decisions/076).
 */

const TEXT: Record<string, string> = {
  [Msg.IPFS_KEY_UNKNOWN]:
    "Unknown IPFS key: send the service's upload key (uploads) or download key (downloads) in `Authorization: Bearer <key>` or `X-Api-Key`.",
  [Msg.IPFS_KEY_DEACTIVATED]:
    "This IPFS key is deactivated (or its service unsubscribed): activate it in the console, or use another key.",
  [Msg.IPFS_NOT_THIS_GATEWAY]:
    "This service does not use this city node gateway: use one of the gateways listed on the service's page.",
  [Msg.UNPAID_BILLS]: "Unpaid bills block IPFS uploads and downloads (SPEC §5): pay them in My bills, then try again.",
  [Msg.IPFS_OVER_CAPACITY]:
    "The file does not fit in the service's free capacity: delete files or upgrade the capacity.",
  [Msg.NOT_FOUND]: "Not found: this service has not pinned that CID.",
  [Msg.INVALID_PARAMS]: "Bad request.",
  [Msg.IPFS_ENGINE_FAILED]: "The IPFS engine failed; nothing was stored. Please try again later.",
  [Msg.IPFS_UNAVAILABLE]: "The IPFS node is not answering; nothing was stored or read. Please try again in a minute.",
};

/** How long a client is asked to wait when the IPFS node is not answering. */
const RETRY_AFTER_SECONDS = 30;
const unavailable = () => refusal(503, Msg.IPFS_UNAVAILABLE, {}, { "Retry-After": String(RETRY_AFTER_SECONDS) });
const isUnavailable = (error: unknown) =>
  error instanceof EngineUnavailableError || (error as Error)?.name === "EngineUnavailableError";

function refusal(
  status: number,
  code: string,
  extra: Record<string, unknown> = {},
  headers: Record<string, string> = {},
) {
  return new Response(JSON.stringify({ code, message: TEXT[code] ?? code, ...extra }), {
    status,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store", ...headers },
  });
}

/** The key of a request: `Authorization: Bearer <key>` or `X-Api-Key`. */
function keyOf(request: Request): string | null {
  const auth = request.headers.get("authorization");
  const bearer = auth && /^Bearer\s+(\S+)$/i.exec(auth.trim())?.[1];
  return bearer || request.headers.get("x-api-key")?.trim() || null;
}

class OverCapacity extends Error {}

/** The bytes of `source` passed on and counted; past `free` bytes it throws OverCapacity. The first bytes are kept for sniffing. */
function counted(
  source: AsyncIterable<Uint8Array>,
  free: number,
  seen: { bytes: number; head: Uint8Array[]; headBytes: number },
) {
  return (async function* () {
    for await (const chunk of source) {
      seen.bytes += chunk.byteLength;
      if (seen.bytes > free) throw new OverCapacity();
      if (seen.headBytes < 4100) {
        seen.head.push(chunk.slice(0, 4100 - seen.headBytes));
        seen.headBytes += Math.min(chunk.byteLength, 4100 - seen.headBytes);
      }
      yield chunk;
    }
  })();
}

type Authorized =
  | { refused: Response }
  | {
      service: Awaited<ReturnType<typeof serviceOfKey>> extends infer R
        ? R extends { service: infer S }
          ? S
          : never
        : never;
      nodeId: number;
    };

async function authorize(request: Request, deps: Deps, code: string, kind: IpfsKeyKind): Promise<Authorized> {
  const key = keyOf(request);
  if (!key || !KEY_SHAPE.test(key))
    return { refused: refusal(401, Msg.IPFS_KEY_UNKNOWN, {}, { "WWW-Authenticate": 'Bearer realm="ipfs-gateway"' }) };
  const found = await serviceOfKey(deps.db, key, kind);
  if ("refused" in found) {
    return found.refused === "unknown"
      ? { refused: refusal(401, Msg.IPFS_KEY_UNKNOWN, {}, { "WWW-Authenticate": 'Bearer realm="ipfs-gateway"' }) }
      : { refused: refusal(403, Msg.IPFS_KEY_DEACTIVATED) };
  }
  const nodeId = await gatewayOfService(deps.db, found.service.id, code);
  if (nodeId === null) return { refused: refusal(403, Msg.IPFS_NOT_THIS_GATEWAY) };
  // SPEC §5: unpaid (usage) bills block IPFS upload and download.
  if (await billing.api.hasBlockingBills(deps.db, found.service.userId, 1, deps.now()))
    return { refused: refusal(402, Msg.UNPAID_BILLS) };
  return { service: found.service, nodeId };
}

async function upload(request: Request, deps: Deps, code: string): Promise<Response> {
  const auth = await authorize(request, deps, code, "upload");
  if ("refused" in auth) return auth.refused;
  const { service } = auth;
  const free = Math.max(0, service.capacityBytes - service.usedBytes);
  const type = request.headers.get("content-type") ?? "";
  const multipart = /^multipart\/form-data/i.test(type);
  const length = Number(request.headers.get("content-length") ?? NaN);
  if (!multipart && length > free) return refusal(413, Msg.IPFS_OVER_CAPACITY, { freeBytes: free });
  const engine = engineOf(deps);
  const seen = { bytes: 0, head: [] as Uint8Array[], headBytes: 0 };
  let name = cleanName(
    decodeURIComponentSafe(request.headers.get("x-file-name")) ?? new URL(request.url).searchParams.get("name"),
  );
  let added: { cid: string; size: number } | null = null;
  let rawReader: ReadableStreamDefaultReader<Uint8Array> | undefined;
  try {
    if (multipart) {
      await unstable_parseMultipartFormData(request, async (part) => {
        if (added || !part.filename) {
          for await (const _ of part.data) void _;
          return undefined;
        }
        name = cleanName(part.filename);
        added = await engine.add(counted(part.data, free, seen));
        return undefined;
      });
    } else if (request.body) {
      const reader = request.body.getReader();
      rawReader = reader;
      added = await engine.add(
        counted(
          (async function* () {
            for (;;) {
              const { done, value } = await reader.read();
              if (done) return;
              yield value;
            }
          })(),
          free,
          seen,
        ),
      );
    }
  } catch (error) {
    if (error instanceof OverCapacity) {
      // The rest of a raw body is read and thrown away, so that the client gets the answer (body-limit.ts).
      if (rawReader && request.body) {
        rawReader.releaseLock();
        discardRest(request.body);
      }
      return refusal(413, Msg.IPFS_OVER_CAPACITY, { freeBytes: free });
    }
    if (error instanceof BodyTooLargeError || (error as Error)?.name === "BodyTooLargeError") throw error;
    if (isUnavailable(error)) {
      console.warn(`[ipfs] upload refused: ${(error as Error).message}`);
      if (rawReader && request.body) {
        rawReader.releaseLock();
        discardRest(request.body);
      }
      return unavailable();
    }
    console.error("[ipfs] upload failed:", error);
    return refusal(500, Msg.IPFS_ENGINE_FAILED);
  }
  if (!added)
    return refusal(400, Msg.INVALID_PARAMS, {
      message: "No file: send the bytes as the body, or a multipart form with a file field.",
    });
  const file = added as { cid: string; size: number };
  const sniffed = (await fileTypeFromBuffer(Buffer.concat(seen.head)).catch(() => undefined))?.mime;
  const contentType = contentTypeOf(name, sniffed);
  const recorded = await recordFile(
    deps.db,
    service,
    { name, cid: file.cid, size: file.size, contentType },
    deps.now(),
  );
  if (!recorded) {
    // Another upload took the capacity meanwhile: this pin goes.
    await engine.unpin(file.cid).catch(() => undefined);
    return refusal(413, Msg.IPFS_OVER_CAPACITY, { freeBytes: Math.max(0, service.capacityBytes - service.usedBytes) });
  }
  return new Response(
    JSON.stringify({
      code: 0,
      cid: file.cid,
      name,
      size: file.size,
      contentType,
      ipfsFileId: recorded.row.id,
      alreadyStored: recorded.alreadyStored,
      usedBytes: recorded.usedBytes,
      capacityBytes: service.capacityBytes,
      path: `${IPFS_GATEWAY_PREFIX}${code}/ipfs/${file.cid}`,
    }),
    { status: 200, headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" } },
  );
}

function decodeURIComponentSafe(value: string | null): string | null {
  if (value === null) return null;
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

async function download(request: Request, deps: Deps, code: string, cidText: string): Promise<Response> {
  const auth = await authorize(request, deps, code, "download");
  if ("refused" in auth) return auth.refused;
  let cid: string;
  try {
    cid = normalCid(cidText).toString();
  } catch (error) {
    if (error instanceof BadCidError)
      return refusal(400, Msg.INVALID_PARAMS, { message: `Not a CID: ${cidText.slice(0, 100)}` });
    throw error;
  }
  // Only the CIDs this key's own service pinned: knowing another user's CID is not enough.
  const file = await pinnedFile(deps.db, auth.service.id, cid);
  if (!file) return refusal(404, Msg.NOT_FOUND);
  const range = parseRange(request.headers.get("range"), file.size);
  const headers: Record<string, string> = {
    "Content-Type": file.contentType,
    "Accept-Ranges": "bytes",
    ETag: `"${cid}"`,
    // no-transform: the compression middleware leaves the bytes (and their Range and Content-Length) alone.
    "Cache-Control": "private, no-cache, no-transform",
    "X-Content-Type-Options": "nosniff",
    "Content-Security-Policy": "sandbox; default-src 'none'",
    "X-Ipfs-Path": `/ipfs/${cid}`,
    "Content-Disposition": `${activeContent(file.contentType) ? "attachment" : "inline"}; filename*=UTF-8''${encodeURIComponent(file.name)}`,
  };
  if (range === "unsatisfiable")
    return new Response(null, { status: 416, headers: { ...headers, "Content-Range": `bytes */${file.size}` } });
  const slice = range ?? { offset: 0, length: file.size };
  headers["Content-Length"] = String(slice.length);
  if (range) headers["Content-Range"] = `bytes ${range.offset}-${range.offset + range.length - 1}/${file.size}`;
  const status = range ? 206 : 200;
  if (request.method === "HEAD" || slice.length === 0) return new Response(null, { status, headers });
  const engine = engineOf(deps);
  const source = engine.cat(cid, range ?? undefined)[Symbol.asyncIterator]();
  // The first chunk before the head: a pin gone meanwhile is a 404, not a cut stream.
  let first: IteratorResult<Uint8Array>;
  try {
    first = await source.next();
  } catch (error) {
    if (error instanceof NotPinnedError || (error as Error)?.name === "NotPinnedError")
      return refusal(404, Msg.NOT_FOUND);
    if (isUnavailable(error)) {
      console.warn(`[ipfs] download refused: ${(error as Error).message}`);
      return unavailable();
    }
    throw error;
  }
  const meter = meterOf(deps);
  const serviceId = auth.service.id;
  const nodeId = auth.nodeId;
  const count = (bytes: number) => meter.add(serviceId, nodeId, chinaDay(deps.now()), cid, bytes);
  let pending: IteratorResult<Uint8Array> | null = first;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      const next = pending ?? (await source.next());
      pending = null;
      if (next.done) return controller.close();
      // Counted as it is handed to the connection: a client that leaves early pays for what it got.
      count(next.value.byteLength);
      controller.enqueue(next.value);
    },
    async cancel() {
      await source.return?.();
    },
  });
  return new Response(body, { status, headers });
}

export const ipfsGateway: Endpoint = {
  methods: ["GET", "HEAD", "POST"],
  path: IPFS_GATEWAY_PREFIX,
  auth: "key",
  bodyLimitBytes: IPFS_UPLOAD_LIMIT_BYTES,
  streamBody: true,
  // 10 files a second per address (docs/decisions/067): each request is a whole upload or download, which the
  // service's capacity and traffic meter bound besides.
  ratePerMinute: 600,
  async handle(request, deps) {
    const [code = "", action = "", ...rest] = new URL(request.url).pathname
      .slice(IPFS_GATEWAY_PREFIX.length)
      .split("/");
    const node = decodeURIComponentSafe(code) ?? "";
    if (request.method === "POST" && action === "upload" && rest.length === 0) return upload(request, deps, node);
    if ((request.method === "GET" || request.method === "HEAD") && action === "ipfs" && rest.length === 1 && rest[0])
      return download(request, deps, node, decodeURIComponentSafe(rest[0]) ?? "");
    return refusal(404, Msg.NOT_FOUND, { message: "Not found: POST <gateway>/upload, or GET <gateway>/ipfs/<cid>." });
  },
};
