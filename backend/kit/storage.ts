import path from "node:path";
import { and, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import { files } from "#backend/db/tables.ts";
import type { BackendEnv } from "#backend/env.ts";
import { asIterable, collect, type BlobStore, type ByteRange } from "./blobs/index.ts";
import { parseFilesUrl } from "./blobs/files-url.ts";
import { fsBlobStore } from "./blobs/fs.ts";
import { postgresBlobStore } from "./blobs/postgres.ts";

/**
 * The storage adapter of stored files (ARCHITECTURE "Uploaded files"; docs/decisions/023, 053). Domains keep
 * a file's id and reach its bytes only through this interface. The `files` row keeps a file's metadata and
 * its content address (`blob`, the SHA-256 of its bytes); the bytes are in the blob store chosen at start
 * (backend/kit/blobs/): DATA_DIR/files on the embedded database, PostgreSQL's `file_chunks` with
 * DATABASE_URL, a bucket with FILES_URL. Bytes are streamed in and out; every method takes the query runner
 * (the database or the caller's transaction), so a claim or a new file commits or rolls back with the
 * caller's change (its blob stays behind until the sweep).
 */
export type StoredFile = { id: number; name: string; mime: string; size: number };

/** A stored file whose bytes can be read, whole or a range, as they come from the store. */
export type OpenedFile = StoredFile & { bytes: (range?: ByteRange) => AsyncIterable<Uint8Array> };

export type NewFile = {
  name: string;
  /** Its media type, or how to know it once the bytes are read (an upload's is sniffed from its first bytes). */
  mime: string | (() => string);
  /** The bytes, whole or as they arrive (never gathered here). */
  bytes: Uint8Array | AsyncIterable<Uint8Array>;
  createdAt?: Date;
  /** For an upload: its id, kind and uploader; it stays pending until claimed. */
  upload?: { uploadId: string; kind: string; ownerId: number | null };
};

export interface FileStore {
  /** Where the bytes are. */
  readonly blobs: BlobStore;
  /** Keeps a file, its bytes streamed to the blob store; answers what was stored. */
  put(q: Db | Tx, file: NewFile): Promise<StoredFile>;
  /** A file with its bytes gathered in one buffer (for callers that need it whole: a zip to inspect), or null. */
  read(q: Db | Tx, id: number): Promise<(StoredFile & { bytes: Buffer }) | null>;
  /** A file whose bytes are read as they are sent (downloads), or null. */
  open(q: Db | Tx, id: number): Promise<OpenedFile | null>;
  /**
   * Takes a pending upload for the call that uses it: the upload of this id, of this kind, by this uploader
   * (null: uploaded anonymously), not claimed yet. Answers it, or null (unknown, another user's, another
   * kind, already used or swept). Inside the caller's transaction, a failed call leaves it pending.
   */
  claim(
    q: Db | Tx,
    uploadId: string,
    expected: { kind: string; ownerId: number | null; at: Date },
  ): Promise<StoredFile | null>;
  /** A copy of a stored file (its own id, the same blob), or null when it does not exist. */
  copy(q: Db | Tx, id: number, at: Date): Promise<StoredFile | null>;
  /** Deletes the uploads still pending that arrived before `before`; answers how many. */
  sweep(q: Db | Tx, before: Date): Promise<number>;
  /** Deletes a stored file that no record names any more (its blob goes with the next blob sweep). */
  remove(q: Db | Tx, id: number): Promise<void>;
  /** Removes the blobs written before `before` that no row names (nor a domain's namer); answers how many. */
  sweepBlobs(before: Date): Promise<number>;
}

const meta = { id: files.id, name: files.name, mime: files.mime, size: files.size };

/**
 * The file store over the `files` table and a blob store. `alsoNamed` are the domains' own namers of blobs
 * (`namesBlob` in defineDomain): a blob one of them names is not swept.
 */
export function createFileStore(
  db: Db,
  blobs: BlobStore,
  alsoNamed: readonly ((db: Db, address: string) => Promise<boolean>)[] = [],
): FileStore {
  const named = async (address: string) => {
    if ((await db.select({ id: files.id }).from(files).where(eq(files.blob, address)).limit(1)).length > 0) return true;
    for (const names of alsoNamed) if (await names(db, address)) return true;
    return false;
  };

  async function openRow(q: Db | Tx, id: number): Promise<OpenedFile | null> {
    const [row] = await q
      .select({ ...meta, blob: files.blob })
      .from(files)
      .where(eq(files.id, id));
    if (!row) return null;
    const { blob, ...file } = row;
    if (!blob) throw new Error(`file ${id} has no blob yet (the start-time migration did not run)`);
    return { ...file, bytes: (range) => blobs.read(q, blob, file.size, range) };
  }

  return {
    blobs,

    async put(q, file) {
      const written = await blobs.write(asIterable(file.bytes));
      const insert = async (tx: Db | Tx) => {
        await blobs.settle(tx, written);
        const [row] = await tx
          .insert(files)
          .values({
            name: file.name,
            mime: typeof file.mime === "function" ? file.mime() : file.mime,
            size: written.size,
            blob: written.address,
            ...(file.createdAt ? { createdAt: file.createdAt } : {}),
            ...(file.upload
              ? { uploadId: file.upload.uploadId, kind: file.upload.kind, ownerId: file.upload.ownerId }
              : {}),
          })
          .returning(meta);
        return row!;
      };
      // The settle and the row commit together (a transaction of its own, or a savepoint in the caller's).
      return written.pending ? q.transaction((tx) => insert(tx)) : insert(q);
    },

    async read(q, id) {
      const file = await openRow(q, id);
      if (!file) return null;
      const { bytes, ...rest } = file;
      return { ...rest, bytes: await collect(bytes()) };
    },

    open: openRow,

    async claim(q, uploadId, expected) {
      const [row] = await q
        .update(files)
        .set({ claimedAt: expected.at })
        .where(
          and(
            eq(files.uploadId, uploadId),
            eq(files.kind, expected.kind),
            expected.ownerId === null ? isNull(files.ownerId) : eq(files.ownerId, expected.ownerId),
            isNull(files.claimedAt),
          ),
        )
        .returning(meta);
      return row ?? null;
    },

    async copy(q, id, at) {
      const result = await q.execute(sql`
        INSERT INTO ${files} (name, mime, size, blob, created_at)
        SELECT name, mime, size, blob, ${at.toISOString()}::timestamptz FROM ${files} WHERE id = ${id}
        RETURNING id, name, mime, size`);
      const row = (result as unknown as { rows: { id: number | string; name: string; mime: string; size: number }[] })
        .rows[0];
      return row ? { ...row, id: Number(row.id), size: Number(row.size) } : null;
    },

    async sweep(q, before) {
      const gone = await q
        .delete(files)
        .where(and(isNotNull(files.uploadId), isNull(files.claimedAt), lt(files.createdAt, before)))
        .returning({ id: files.id });
      return gone.length;
    },

    async remove(q, id) {
      await q.delete(files).where(eq(files.id, id));
    },

    sweepBlobs: (before) => blobs.sweep(before, named),
  };
}

/** The blob store the environment chooses (docs/decisions/053): FILES_URL, else DATABASE_URL, else DATA_DIR/files. */
export async function openBlobStore(
  env: Pick<BackendEnv, "dataDir" | "databaseUrl" | "filesUrl">,
  db: Db,
): Promise<BlobStore> {
  if (env.filesUrl) {
    const parsed = parseFilesUrl(env.filesUrl);
    if ("problem" in parsed) throw new Error(`FILES_URL: ${parsed.problem}`);
    // The AWS SDK is loaded only by the servers that use a bucket.
    const { s3BlobStore } = await import("./blobs/s3.ts");
    return s3BlobStore(parsed);
  }
  if (env.databaseUrl) return postgresBlobStore(db);
  return fsBlobStore(path.join(env.dataDir, "files"));
}
