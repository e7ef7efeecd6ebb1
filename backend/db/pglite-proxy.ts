import type { QueryOptions, Results } from "@electric-sql/pglite";
import { startWorker, type WorkerClient } from "#backend/kit/worker.ts";
import type { WireOptions } from "./pglite.worker.ts";

/**
 * The embedded database in a worker thread (docs/decisions/031): the part of PGlite's client that Drizzle
 * (drizzle-orm/pglite), the migrator and the backup use — query, exec, transaction, dumpDataDir, close —
 * answered by db/pglite.worker.ts. A transaction opens on the worker, its statements carry its id and go one
 * after another (each waits for its answer), and it ends with a commit or, when its function throws, a
 * rollback; meanwhile PGlite holds every other query, as it does in one thread.
 *
 * Parsers cannot cross a thread: the only ones accepted are those that keep a type's text as it is (what
 * Drizzle passes for dates, timestamps, intervals and numeric arrays), sent as the list of those type oids.
 */
type TxHandle = {
  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>>;
  exec(sql: string): Promise<Results[]>;
  rollback(): Promise<void>;
  readonly closed: boolean;
};

function wire(options: QueryOptions | undefined): WireOptions | undefined {
  if (!options) return undefined;
  const { rowMode, parsers, ...rest } = options;
  if (Object.keys(rest).length)
    throw new Error(`the database thread does not take the query options ${Object.keys(rest).join(", ")}`);
  const textOids = Object.entries(parsers ?? {}).map(([oid, parse]) => {
    if (parse("\u0000probe", Number(oid)) !== "\u0000probe")
      throw new Error(`the database thread only keeps a type as text; type ${oid} has another parser`);
    return Number(oid);
  });
  return { rowMode, textOids };
}

/** A rollback asked for by the transaction's function itself (tx.rollback()). */
class RollbackRequested extends Error {
  constructor() {
    super("rollback");
    this.name = "RollbackRequested";
  }
}

export class PGliteThread {
  private constructor(private readonly worker: WorkerClient) {}

  /** Starts the thread on the data folder and waits until the database is open. */
  static async open(dir: string): Promise<PGliteThread> {
    const worker = startWorker("backend/db/pglite.worker.ts", { dir });
    try {
      await worker.call("ready");
    } catch (error) {
      await worker.close();
      throw error;
    }
    return new PGliteThread(worker);
  }

  query<T>(sql: string, params?: unknown[], options?: QueryOptions): Promise<Results<T>> {
    return this.worker.call("query", sql, params, wire(options), undefined);
  }

  exec(sql: string): Promise<Results[]> {
    return this.worker.call("exec", sql, undefined);
  }

  async transaction<T>(fn: (tx: TxHandle) => Promise<T>): Promise<T> {
    const id = await this.worker.call<number>("begin");
    let closed = false;
    const live = () => {
      if (closed) throw new Error("Transaction is closed");
    };
    const tx: TxHandle = {
      query: <R>(sql: string, params?: unknown[], options?: QueryOptions) => (
        live(),
        this.worker.call<Results<R>>("query", sql, params, wire(options), id)
      ),
      exec: (sql: string) => (live(), this.worker.call<Results[]>("exec", sql, id)),
      rollback: async () => {
        live();
        throw new RollbackRequested();
      },
      get closed() {
        return closed;
      },
    };
    let result: T;
    try {
      result = await fn(tx);
    } catch (error) {
      closed = true;
      await this.worker.call("end", id, false);
      if (error instanceof RollbackRequested) return undefined as T;
      throw error;
    }
    closed = true;
    await this.worker.call("end", id, true);
    return result;
  }

  /** The data folder as a tar (the live backup: docs/decisions/017). */
  async dumpDataDir(compression: "none" | "gzip" | "auto" = "auto"): Promise<Blob> {
    const bytes = await this.worker.call<Uint8Array<ArrayBuffer>>("dumpDataDir", compression);
    return new Blob([bytes]);
  }

  async close(): Promise<void> {
    try {
      await this.worker.call("close");
    } finally {
      await this.worker.close();
    }
  }
}
