import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, rmSync } from "node:fs";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { and, desc, eq, lte } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import type { WorkerClient } from "#backend/kit/worker.ts";
import type { FileStore } from "#backend/kit/storage.ts";
import type { ChainSpec, Head } from "./engine/types.ts";
import { chainSnapshots } from "./tables.ts";

/** Snapshots kept per chain: the newest, and the one before in case the newest cannot be read. */
const KEEP = 2;

type Taken = Head & { entries: number };

async function sha256Of(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

const problem = (error: unknown) => (error instanceof Error ? error.message : String(error));

/**
 * The embedded chains' snapshots (docs/decisions/103), with several processes on one database: the holder of the
 * chains' lease copies a chain's engine state into the file store every `every` blocks, and a holder whose DATA_DIR is
 * behind (a new host, or one that was away) starts each chain from its newest snapshot, then replays the log's tail.
 * A snapshot that cannot be written or read costs only a longer replay: the log in `chain_blocks` stays the truth.
 */
export class ChainSnapshots {
  private readonly db: Db;
  private readonly files: FileStore;
  private readonly now: () => Date;

  constructor(
    deps: { db: Db; files: FileStore; now: () => Date },
    private readonly worker: WorkerClient,
    /** Blocks between snapshots (CHAIN_SNAPSHOT_BLOCKS); 0: none are written. */
    readonly every: number,
    /** Throws unless this process still holds the chains' lease: a former holder keeps nothing (docs/decisions/095). */
    private readonly fence: (tx: Tx) => Promise<void>,
  ) {
    this.db = deps.db;
    this.files = deps.files;
    this.now = deps.now;
  }

  /**
   * After block `number` of the chain was recorded, and before the next is sealed: on every `every`-th block, the
   * engine is asked for a snapshot now (its calls run in order, so it copies this block's state), kept in the
   * background.
   */
  after(spec: ChainSpec, number: number): void {
    if (this.every <= 0 || number % this.every !== 0) return;
    const file = `${spec.dir}.snapshot-${number}.gz`;
    // Begun now, in the engine's order; written while the next blocks are sealed.
    const taken = this.worker
      .call<Head>("snapshot", spec.name, file)
      .then(async (head) => ({ ...head, ...(await this.worker.call<{ entries: number }>("snapshotWritten", file)) }));
    void this.keep(spec, number, file, taken).catch((error) =>
      console.error(`chain ${spec.name}: the snapshot at block ${number} was not kept: ${problem(error)}`),
    );
  }

  private async keep(spec: ChainSpec, number: number, file: string, taken: Promise<Taken>): Promise<void> {
    try {
      const head = await taken;
      if (head.number !== number) return;
      const sha256 = await sha256Of(file);
      await this.db.transaction(async (tx) => {
        await this.fence(tx);
        const stored = await this.files.put(tx, {
          name: `${spec.name}-${number}.snapshot.gz`,
          mime: "application/gzip",
          bytes: Readable.from(createReadStream(file)),
          createdAt: this.now(),
        });
        await tx
          .insert(chainSnapshots)
          .values({ chainId: spec.chainId, number, hash: head.hash, fileId: stored.id, sha256, entries: head.entries })
          .onConflictDoNothing();
        const older = await tx
          .select({ number: chainSnapshots.number, fileId: chainSnapshots.fileId })
          .from(chainSnapshots)
          .where(eq(chainSnapshots.chainId, spec.chainId))
          .orderBy(desc(chainSnapshots.number))
          .offset(KEEP);
        for (const row of older) {
          await tx
            .delete(chainSnapshots)
            .where(and(eq(chainSnapshots.chainId, spec.chainId), eq(chainSnapshots.number, row.number)));
          await this.files.remove(tx, row.fileId);
        }
      });
    } finally {
      rmSync(file, { force: true });
    }
  }

  /**
   * At open, before the replay: when the engine's head is below the newest snapshot of a recorded block, the engine
   * starts from that snapshot instead (answers its head), else nothing changes (null). A snapshot that cannot be read
   * is passed over with a warning for the one before it; one that restores to another block than recorded leaves the
   * chain at its genesis, to be replayed whole.
   */
  async restoreIfBehind(spec: ChainSpec, head: Head, recordedHead: number): Promise<Head | null> {
    const rows = await this.db
      .select()
      .from(chainSnapshots)
      .where(and(eq(chainSnapshots.chainId, spec.chainId), lte(chainSnapshots.number, recordedHead)))
      .orderBy(desc(chainSnapshots.number))
      .limit(KEEP);
    const file = `${spec.dir}.restore.gz`;
    try {
      for (const row of rows) {
        if (row.number <= head.number) return null;
        try {
          const opened = await this.files.open(this.db, row.fileId);
          if (!opened) throw new Error(`its file ${row.fileId} is missing`);
          await pipeline(Readable.from(opened.bytes()), createWriteStream(file));
          if ((await sha256Of(file)) !== row.sha256) throw new Error("its file does not have the recorded SHA-256");
        } catch (error) {
          console.warn(`chain ${spec.name}: the snapshot at block ${row.number} cannot be read: ${problem(error)}`);
          continue;
        }
        try {
          const restored = await this.worker.call<Head>("restore", spec, file);
          if (restored.number === row.number && restored.hash === row.hash) return restored;
          throw new Error(`it gave block ${restored.number} ${restored.hash}, the record says ${row.hash}`);
        } catch (error) {
          console.warn(
            `chain ${spec.name}: the snapshot at block ${row.number} was not restored (${problem(error)}); replaying from the genesis`,
          );
          return this.worker.call<Head>("reset", spec);
        }
      }
      return null;
    } finally {
      rmSync(file, { force: true });
    }
  }
}
