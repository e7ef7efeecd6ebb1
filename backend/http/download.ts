import { createHash } from "node:crypto";
import { fail } from "#contract/envelope.ts";
import { Msg } from "#contract/messages.ts";
import type { Deps } from "#backend/deps.ts";
import type { ByteRange } from "#backend/kit/blobs/index.ts";

/**
 * What a download handler answers (docs/decisions/053): a stored file by id (its bytes streamed from the
 * blob store), or bytes at hand (a DDC's file read from IPFS). `name` and `mime` default to the stored
 * file's; `disposition` to "attachment".
 */
export type Download =
  | { fileId: number; name?: string; mime?: string; disposition?: "inline" | "attachment" }
  | { bytes: Buffer; name: string; mime: string; disposition?: "inline" | "attachment" };

/** What the handler knows of the request beyond its payload: a Range past the first byte continues a download. */
export type DownloadRequest = { continuing: boolean };

/**
 * The one range of `Range: bytes=…` over `size` bytes: null to send everything (no header, several ranges,
 * or a unit we do not serve), "unsatisfiable" for a range past the end (416).
 */
export function rangeOf(header: string | null, size: number): ByteRange | null | "unsatisfiable" {
  const m = header ? /^\s*bytes\s*=\s*(\d*)\s*-\s*(\d*)\s*$/i.exec(header) : null;
  if (!m || (m[1] === "" && m[2] === "")) return null;
  if (m[1] === "") {
    const suffix = Number(m[2]);
    if (suffix === 0 || size === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(m[1]);
  const end = m[2] === "" ? size - 1 : Math.min(Number(m[2]), size - 1);
  if (!Number.isSafeInteger(start) || start >= size || end < start) return "unsatisfiable";
  return { start, end };
}

/** Whether a Range header asks for bytes past the first (the rest of a download already counted). */
export const continuesDownload = (header: string | null) => {
  const m = header ? /^\s*bytes\s*=\s*(\d+)\s*-/i.exec(header) : null;
  return !!m && Number(m[1]) > 0;
};

/** A Content-Disposition header: the name as ASCII (others replaced) and as UTF-8 (RFC 6266). */
export function contentDisposition(kind: "inline" | "attachment", name: string): string {
  const ascii = name.replace(/[^\x20-\x7e]|["\\%;]/g, "_");
  return `${kind}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(name)}`;
}

/** An async iterable as a web stream that pulls one chunk at a time (what the client reads paces the store). */
function streamOf(source: AsyncIterable<Uint8Array>): ReadableStream<Uint8Array> {
  const iterator = source[Symbol.asyncIterator]();
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        try {
          const next = await iterator.next();
          if (next.done) controller.close();
          else controller.enqueue(next.value);
        } catch (error) {
          controller.error(error);
        }
      },
      async cancel() {
        await iterator.return?.();
      },
    },
    { highWaterMark: 0 },
  );
}

const notFound = () =>
  new Response(JSON.stringify(fail(Msg.NOT_FOUND)), {
    status: 200,
    headers: { "Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store" },
  });

/**
 * The answer of a download: the bytes with their type, Content-Disposition, Content-Length, an ETag (a stored
 * file's id: a file never changes under its id), a 304 for a matching If-None-Match, and one Range (206 with
 * Content-Range; 416 past the end; If-Range honoured).
 */
export async function sendDownload(deps: Deps, request: Request, download: Download): Promise<Response> {
  let size: number;
  let name: string;
  let mime: string;
  let etag: string;
  let bytes: (range?: ByteRange) => AsyncIterable<Uint8Array>;
  if ("fileId" in download) {
    const file = await deps.files.open(deps.db, download.fileId);
    if (!file) return notFound();
    ({ size } = file);
    name = download.name ?? file.name;
    mime = download.mime ?? file.mime;
    etag = `"file-${file.id}"`;
    bytes = file.bytes;
  } else {
    const whole = download.bytes;
    size = whole.byteLength;
    name = download.name;
    mime = download.mime;
    etag = `"sha256-${createHash("sha256").update(whole).digest("base64url").slice(0, 22)}"`;
    bytes = async function* (range) {
      yield range ? whole.subarray(range.start, range.end + 1) : whole;
    };
  }
  const headers = new Headers({
    "Content-Type": mime === "text/plain" ? "text/plain; charset=utf-8" : mime,
    "Content-Disposition": contentDisposition(download.disposition ?? "attachment", name),
    "Accept-Ranges": "bytes",
    ETag: etag,
    // no-transform: a compressing server or proxy must leave the bytes (and so the ranges) as they are.
    "Cache-Control": "private, no-cache, no-transform",
    "X-Content-Type-Options": "nosniff",
  });
  const matches = (list: string | null) =>
    !!list && list.split(",").some((tag) => tag.trim().replace(/^W\//, "") === etag || tag.trim() === "*");
  if (matches(request.headers.get("If-None-Match"))) return new Response(null, { status: 304, headers });
  const ifRange = request.headers.get("If-Range");
  const range = ifRange && ifRange.trim() !== etag ? null : rangeOf(request.headers.get("Range"), size);
  if (range === "unsatisfiable") {
    headers.set("Content-Range", `bytes */${size}`);
    headers.delete("Content-Disposition");
    return new Response(null, { status: 416, headers });
  }
  if (range) {
    headers.set("Content-Range", `bytes ${range.start}-${range.end}/${size}`);
    headers.set("Content-Length", String(range.end - range.start + 1));
    return new Response(streamOf(bytes(range)), { status: 206, headers });
  }
  headers.set("Content-Length", String(size));
  return new Response(size === 0 ? null : streamOf(bytes()), { status: 200, headers });
}
