import { sql } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import type { BlobStore } from "./blobs/index.ts";

/**
 * The data migration of docs/decisions/053, run at start after the schema's migrations (backend/index.ts):
 * the bytes of the `files` rows written before the blob store move to it, one row at a time, each read in
 * 1 MB slices as it is written (never more than one file, never one whole, in memory). Each row's move is
 * one transaction: its blob is written and settled, then the row names it and its bytes are cleared, so a
 * process killed at any point (kill -9) leaves rows either moved or untouched, and the next start resumes
 * (a blob written twice is the same content at the same address; a temporary left behind goes with the
 * sweep). Several processes starting at once share the work (FOR UPDATE SKIP LOCKED). When no row has bytes
 * left, the column is dropped.
 */
const SLICE_BYTES = 1024 * 1024;

const rowsOf = <T>(result: unknown) => (result as { rows: T[] }).rows;

async function hasBytesColumn(db: Db): Promise<boolean> {
  const rows = rowsOf(
    await db.execute(sql`
      SELECT 1 FROM information_schema.columns
      WHERE table_schema = current_schema() AND table_name = 'files' AND column_name = 'bytes'`),
  );
  return rows.length > 0;
}

/** The column was dropped by another process meanwhile. */
const isUndefinedColumn = (error: unknown) =>
  [error, (error as { cause?: unknown } | null)?.cause].some(
    (e) => !!e && typeof e === "object" && (e as { code?: unknown }).code === "42703",
  );

async function* slicesOf(tx: Tx, id: number, size: number): AsyncIterable<Uint8Array> {
  for (let offset = 0; offset < size; offset += SLICE_BYTES) {
    const [row] = rowsOf<{ part: Uint8Array }>(
      await tx.execute(
        sql`SELECT substring(bytes FROM ${offset + 1} FOR ${SLICE_BYTES}) AS part FROM files WHERE id = ${id}`,
      ),
    );
    yield row!.part;
  }
}

/** Moves the bytes still in `files` rows to `blobs`; answers how many rows it moved. */
export async function migrateFileBytes(db: Db, blobs: BlobStore): Promise<number> {
  let moved = 0;
  try {
    if (!(await hasBytesColumn(db))) return 0;
    let after = 0;
    for (;;) {
      const next = await db.transaction(async (tx) => {
        const [row] = rowsOf<{ id: number | string; size: number | string }>(
          await tx.execute(sql`
            SELECT id, octet_length(bytes) AS size FROM files
            WHERE bytes IS NOT NULL AND id > ${after}
            ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED`),
        );
        if (!row) return null;
        const id = Number(row.id);
        const written = await blobs.write(slicesOf(tx, id, Number(row.size)));
        await blobs.settle(tx, written);
        await tx.execute(
          sql`UPDATE files SET blob = ${written.address}, size = ${written.size}, bytes = NULL WHERE id = ${id}`,
        );
        return id;
      });
      if (next !== null) {
        moved++;
        after = next;
        continue;
      }
      // Rows another process holds (skipped): wait for them, then look again from the start.
      const [left] = rowsOf<{ n: number | string }>(
        await db.execute(sql`SELECT count(*) AS n FROM files WHERE bytes IS NOT NULL`),
      );
      if (Number(left!.n) === 0) break;
      after = 0;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    await db.execute(sql`ALTER TABLE files DROP COLUMN IF EXISTS bytes`);
  } catch (error) {
    if (!isUndefinedColumn(error)) throw error;
  }
  if (moved > 0) console.warn(`files: moved the bytes of ${moved} stored files to the ${blobs.kind} blob store`);
  return moved;
}
