import type { Db, Tx } from "#backend/db/client.ts";

/**
 * The blob store under the storage kit (docs/decisions/053): the bytes of stored files, by content address
 * (the SHA-256 of the bytes, 64 hex digits). Three backends, chosen at start (`openBlobStore`):
 * - the embedded database (no DATABASE_URL): DATA_DIR/files (./fs.ts);
 * - DATABASE_URL without FILES_URL: PostgreSQL's `file_chunks` table, in chunks of at most 1 MB (./postgres.ts);
 * - FILES_URL: an S3-compatible bucket (./s3.ts).
 * A blob is written first (`write`, streamed, never held whole), then `settle`d in the transaction of the row
 * that names it: on disk and in a bucket the blob is durable before that row commits; in PostgreSQL the
 * chunks take their address in that transaction. Blobs no row names are removed by `sweep`, the young ones
 * excepted (a row that names them may be about to commit).
 */
export type Written = {
  /** The content address. */
  address: string;
  size: number;
  /** Where the bytes wait to be settled (PostgreSQL's temporary address), or null. */
  pending: string | null;
};

/** A byte range, both ends included (HTTP's `Range: bytes=start-end`). */
export type ByteRange = { start: number; end: number };

export interface BlobStore {
  readonly kind: "fs" | "postgres" | "s3";
  /** Streams `bytes` in; when it answers, the blob is kept (but may be swept until `settle`d and named). */
  write(bytes: AsyncIterable<Uint8Array>): Promise<Written>;
  /** Makes a written blob the one its address names, in the transaction of the row that names it. */
  settle(q: Db | Tx, written: Written): Promise<void>;
  /** The bytes of a blob (of `size` bytes), or of one range of them, as they are read. */
  read(q: Db | Tx, address: string, size: number, range?: ByteRange): AsyncIterable<Uint8Array>;
  /**
   * Removes the blobs written before `before` that `named` says no row names, and what a write left behind
   * (killed before it ended); answers how many blobs were removed.
   */
  sweep(before: Date, named: (address: string) => Promise<boolean>): Promise<number>;
  /** Every kept blob's address (backups, tests). */
  list(): AsyncIterable<string>;
  close(): Promise<void>;
}

/** A content address: 64 lowercase hex digits. */
export const isAddress = (value: string) => /^[0-9a-f]{64}$/.test(value);

/** The bytes of `source` in pieces of exactly `size` bytes (the last one shorter); at most one piece held. */
export async function* rechunk(source: AsyncIterable<Uint8Array>, size: number): AsyncIterable<Buffer> {
  let parts: Uint8Array[] = [];
  let held = 0;
  for await (const chunk of source) {
    let rest = chunk;
    while (rest.byteLength > 0) {
      const take = Math.min(size - held, rest.byteLength);
      parts.push(rest.subarray(0, take));
      held += take;
      rest = rest.subarray(take);
      if (held === size) {
        yield Buffer.concat(parts, held);
        parts = [];
        held = 0;
      }
    }
  }
  if (held > 0) yield Buffer.concat(parts, held);
}

/** Bytes whole or as they arrive, as an async iterable. */
export async function* asIterable(bytes: Uint8Array | AsyncIterable<Uint8Array>): AsyncIterable<Uint8Array> {
  if (bytes instanceof Uint8Array) yield bytes;
  else yield* bytes;
}

/** Every byte of `source` in one buffer (for the callers that need a file whole: a zip to inspect…). */
export async function collect(source: AsyncIterable<Uint8Array>): Promise<Buffer> {
  const chunks: Uint8Array[] = [];
  for await (const chunk of source) chunks.push(chunk);
  if (chunks.length === 1) {
    const only = chunks[0]!;
    return Buffer.isBuffer(only) ? only : Buffer.from(only.buffer, only.byteOffset, only.byteLength);
  }
  return Buffer.concat(chunks);
}
