import { and, eq, isNotNull, isNull, lt, sql } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import { files } from "#backend/db/tables.ts";

/**
 * The storage adapter of stored files (ARCHITECTURE "Uploaded files"; docs/decisions/023). Domains keep a
 * file's id and reach its bytes only through this interface, so the bytes can move (a bucket, a directory)
 * without touching them. The implementation today keeps the bytes in the `files` table (bytea): every
 * process sees them, in PGlite and PostgreSQL alike. Every method takes the query runner (the database or
 * the caller's transaction), so a claim or a new file commits or rolls back with the caller's change.
 */
export type StoredFile = { id: number; name: string; mime: string; size: number };

export type NewFile = {
  name: string;
  mime: string;
  /** The bytes, whole or as they arrive. */
  bytes: Uint8Array | AsyncIterable<Uint8Array>;
  createdAt?: Date;
  /** For an upload: its id, kind and uploader; it stays pending until claimed. */
  upload?: { uploadId: string; kind: string; ownerId: number | null };
};

export interface FileStore {
  /** Keeps a file; answers what was stored. */
  put(q: Db | Tx, file: NewFile): Promise<StoredFile>;
  /** A file with its bytes, or null. */
  read(q: Db | Tx, id: number): Promise<(StoredFile & { bytes: Buffer }) | null>;
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
  /** A copy of a stored file (its own id), or null when it does not exist. */
  copy(q: Db | Tx, id: number, at: Date): Promise<StoredFile | null>;
  /** Deletes the uploads still pending that arrived before `before`; answers how many. */
  sweep(q: Db | Tx, before: Date): Promise<number>;
  /** Deletes a stored file that no record names any more (its bytes moved elsewhere). */
  remove(q: Db | Tx, id: number): Promise<void>;
}

const meta = { id: files.id, name: files.name, mime: files.mime, size: files.size };

async function collect(bytes: NewFile["bytes"]): Promise<Buffer> {
  if (bytes instanceof Uint8Array) return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const chunks: Uint8Array[] = [];
  for await (const chunk of bytes) chunks.push(chunk);
  return Buffer.concat(chunks);
}

/** The bytes in the `files` table: one bytea value per file (PostgreSQL's limit, 1 GB, is far above §9's). */
export const databaseFileStore: FileStore = {
  async put(q, file) {
    const bytes = await collect(file.bytes);
    const [row] = await q
      .insert(files)
      .values({
        name: file.name,
        mime: file.mime,
        size: bytes.byteLength,
        bytes,
        ...(file.createdAt ? { createdAt: file.createdAt } : {}),
        ...(file.upload
          ? { uploadId: file.upload.uploadId, kind: file.upload.kind, ownerId: file.upload.ownerId }
          : {}),
      })
      .returning(meta);
    return row;
  },

  async read(q, id) {
    const [row] = await q
      .select({ ...meta, bytes: files.bytes })
      .from(files)
      .where(eq(files.id, id));
    return row ?? null;
  },

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
      INSERT INTO ${files} (name, mime, size, bytes, created_at)
      SELECT name, mime, size, bytes, ${at.toISOString()}::timestamptz FROM ${files} WHERE id = ${id}
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
};
