import { PGlite, type QueryOptions, type Transaction } from "@electric-sql/pglite";
import { workerData } from "node:worker_threads";
import { serveWorker } from "#backend/kit/worker.ts";

/**
 * The embedded database's thread (docs/decisions/031): PGlite runs here, so its SQL (WASM) never runs on the
 * web server's main thread. The main thread talks to it through db/pglite-proxy.ts, which Drizzle uses as
 * its PGlite client. Calls are served as they come: PGlite orders them itself (a query waits for the
 * transaction under way), and the statements of one transaction arrive one after another on its id.
 */
const { dir } = workerData as { dir: string };
const opened = PGlite.create(dir);

/** The transactions under way, by id: their PGlite handle and how to end them. */
const open = new Map<number, { tx: Transaction; end: (commit: boolean) => void; done: Promise<unknown> }>();
let nextTx = 1;
const ROLLBACK = Symbol("rollback");

/** Options as they cross the thread: the type oids the caller keeps as text (its parsers all answer their input). */
export type WireOptions = { rowMode?: "array" | "object"; textOids?: number[] };

function optionsOf(wire: WireOptions | undefined): QueryOptions | undefined {
  if (!wire) return undefined;
  const parsers = Object.fromEntries((wire.textOids ?? []).map((oid) => [oid, (value: string) => value]));
  return { rowMode: wire.rowMode, parsers };
}

function txOf(id: number): Transaction {
  const entry = open.get(id);
  if (!entry) throw new Error(`no transaction ${id} is open`);
  return entry.tx;
}

serveWorker(
  {
    ready: async () => {
      await opened;
      return true;
    },
    query: async (
      sql: string,
      params: unknown[] | undefined,
      options: WireOptions | undefined,
      txId: number | undefined,
    ) =>
      txId ? txOf(txId).query(sql, params, optionsOf(options)) : (await opened).query(sql, params, optionsOf(options)),
    exec: async (sql: string, txId: number | undefined) => (txId ? txOf(txId).exec(sql) : (await opened).exec(sql)),
    /** Opens a transaction and answers its id once BEGIN ran; PGlite holds every other query until it ends. */
    begin: async () => {
      const pg = await opened;
      const id = nextTx++;
      return new Promise<number>((started, failed) => {
        // Read by the callback, which runs after BEGIN: later than this assignment.
        const done: Promise<unknown> = pg
          .transaction(
            (tx) =>
              new Promise<void>((commit, rollback) => {
                open.set(id, { tx, end: (ok) => (ok ? commit() : rollback(ROLLBACK)), done });
                started(id);
              }),
          )
          .catch((error: unknown) => {
            if (error !== ROLLBACK) throw error;
          })
          .finally(() => open.delete(id));
        done.catch(failed);
      });
    },
    /** Commits (true) or rolls back (false) a transaction; answers once it ended. */
    end: async (txId: number, commit: boolean) => {
      const entry = open.get(txId);
      if (!entry) throw new Error(`no transaction ${txId} is open`);
      entry.end(commit);
      await entry.done;
      return true;
    },
    dumpDataDir: async (compression: "none" | "gzip" | "auto") => {
      const blob = await (await opened).dumpDataDir(compression);
      return new Uint8Array(await blob.arrayBuffer());
    },
    close: async () => {
      await (await opened).close();
      return true;
    },
  },
  { concurrent: true },
);
