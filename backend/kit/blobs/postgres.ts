import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, lt, sql } from "drizzle-orm";
import type { Db } from "#backend/db/client.ts";
import { fileChunks } from "#backend/db/tables.ts";
import type { BlobStore, Written } from "./index.ts";
import { rechunk } from "./index.ts";

/** At most this many bytes a chunk (the brief of docs/decisions/053: 1 MB). */
export const CHUNK_BYTES = 1024 * 1024;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

/**
 * Blobs in PostgreSQL itself (DATABASE_URL without FILES_URL; docs/decisions/053): the `file_chunks` table,
 * chunks of at most 1 MB by (address, seq). A write inserts its chunks one by one, each in its own short
 * statement, under a temporary address `tmp:<random>` (no connection is held while the client sends); the
 * row that names the blob renames them in its own transaction (`settle`), so they take their address when
 * that row commits. Reads fetch one chunk at a time.
 */
export function postgresBlobStore(db: Db): BlobStore {
  return {
    kind: "postgres",

    async write(bytes) {
      const pending = `tmp:${randomBytes(16).toString("hex")}`;
      const hash = createHash("sha256");
      let size = 0;
      let seq = 0;
      try {
        for await (const chunk of rechunk(bytes, CHUNK_BYTES)) {
          hash.update(chunk);
          size += chunk.byteLength;
          await db.insert(fileChunks).values({ address: pending, seq: seq++, bytes: chunk });
        }
      } catch (error) {
        await db
          .delete(fileChunks)
          .where(eq(fileChunks.address, pending))
          .catch(() => undefined);
        throw error;
      }
      return { address: hash.digest("hex"), size, pending } satisfies Written;
    },

    async settle(q, written) {
      if (!written.pending) return;
      // One writer of an address at a time; the same bytes written again replace the chunks kept (and make
      // them young, so that a sweep under way leaves them: it re-reads a row it waited for).
      await q.execute(sql`SELECT pg_advisory_xact_lock(hashtext(${written.address}))`);
      await q.delete(fileChunks).where(eq(fileChunks.address, written.address));
      await q
        .update(fileChunks)
        .set({ address: written.address, createdAt: sql`now()` })
        .where(eq(fileChunks.address, written.pending));
    },

    async *read(q, address, size, range) {
      const start = range?.start ?? 0;
      const end = range?.end ?? size - 1;
      if (end < start) return;
      for (let seq = Math.floor(start / CHUNK_BYTES); seq <= Math.floor(end / CHUNK_BYTES); seq++) {
        const [row] = await q
          .select({ bytes: fileChunks.bytes })
          .from(fileChunks)
          .where(and(eq(fileChunks.address, address), eq(fileChunks.seq, seq)));
        if (!row) throw new Error(`blob ${address} lacks its chunk ${seq}`);
        const from = seq * CHUNK_BYTES;
        yield row.bytes.subarray(Math.max(0, start - from), Math.min(row.bytes.byteLength, end - from + 1));
      }
    },

    async sweep(before, named) {
      let removed = 0;
      // Temporary chunks of a write that never settled (killed, or its row rolled back).
      await db.execute(
        sql`DELETE FROM ${fileChunks} WHERE ${fileChunks.address} LIKE 'tmp:%' AND ${fileChunks.createdAt} < ${before.toISOString()}::timestamptz`,
      );
      const candidates = rowsOf<{ address: string }>(
        await db.execute(sql`
          SELECT address FROM ${fileChunks}
          WHERE seq = 0 AND address NOT LIKE 'tmp:%' AND created_at < ${before.toISOString()}::timestamptz`),
      );
      for (const { address } of candidates) {
        if (await named(address)) continue;
        // Deleted only while still old and unnamed: a write settling the same bytes holds the rows and
        // makes them young; this statement waits for it and then leaves them.
        const gone = await db.execute(sql`
          DELETE FROM ${fileChunks} c
          WHERE c.address = ${address} AND c.created_at < ${before.toISOString()}::timestamptz
            AND NOT EXISTS (SELECT 1 FROM files f WHERE f.blob = ${address})
          RETURNING c.seq`);
        if (rowsOf(gone).length > 0) removed++;
      }
      return removed;
    },

    async *list() {
      let after = "";
      for (;;) {
        const rows = await db
          .select({ address: fileChunks.address })
          .from(fileChunks)
          .where(and(eq(fileChunks.seq, 0), gt(fileChunks.address, after), lt(fileChunks.address, "tmp:")))
          .orderBy(fileChunks.address)
          .limit(500);
        for (const r of rows) yield r.address;
        if (rows.length < 500) return;
        after = rows[rows.length - 1]!.address;
      }
    },

    async close() {},
  };
}
