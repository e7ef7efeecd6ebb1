import { existsSync } from "node:fs";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { parentPort, Worker } from "node:worker_threads";

/**
 * Work kept off the web server's main thread (docs/decisions/025): a worker thread answers calls by name.
 *
 * A worker's module is a TypeScript file of the backend named `*.worker.ts`. The built server runs the bundle
 * that `npm run build` makes of it (scripts/build-workers.mjs → build/workers/<name>.worker.mjs); from the
 * sources (tests, `remix dev` before a build) the file runs through tsx's loader in the worker.
 */

/** A worker's source, relative to the project's root, e.g. "backend/domains/chain/engine.worker.ts". */
export type WorkerSource = `${string}.worker.ts`;

/** An error thrown in a worker arrives with its name, message and own fields (an RPC error's code and data). */
export type WorkerFailure = { name: string; message: string; fields: Record<string, unknown> };

export class WorkerCallError extends Error {
  constructor(readonly failure: WorkerFailure) {
    super(failure.message);
    this.name = failure.name;
    Object.assign(this, failure.fields);
  }
}

type Reply = { id: number; ok: true; value: unknown } | { id: number; ok: false; failure: WorkerFailure };

const here = fileURLToPath(import.meta.url);
/** The project's root: two levels up from backend/kit/ in the sources, one up from build/ in the bundle. */
const root = here.endsWith(".ts") ? path.resolve(path.dirname(here), "../..") : path.resolve(path.dirname(here), "..");

/** The folder of worker bundles this process runs its workers from while it runs from the sources; see below. */
let bundles: string | undefined;

/**
 * Opt-in for a process that runs the backend from its sources (the backend tests): its workers run from the
 * bundles in `dir` (made from the same sources by scripts/worker-bundles.mjs) instead of through tsx's loader.
 * That loader costs each new worker a thread of its own and the transform of every module, about a CPU-second
 * a worker, and an in-process service starts two (docs/decisions/088). The built server never calls this: it
 * runs build/workers. `undefined` goes back to the sources.
 */
export function runWorkersFromBundles(dir: string | undefined): void {
  bundles = dir;
}

function workerOf(source: WorkerSource, workerData: unknown): Worker {
  const name = path.basename(source).replace(/\.ts$/, ".mjs");
  if (bundles) {
    const bundled = path.join(bundles, name);
    if (!existsSync(bundled)) throw new Error(`no bundle of the worker ${source} in ${bundles}`);
    return new Worker(bundled, { workerData });
  }
  const built = path.join(root, "build", "workers", name);
  if (!here.endsWith(".ts") && existsSync(built)) return new Worker(built, { workerData });
  const tsx = pathToFileURL(path.join(root, "node_modules/tsx/dist/esm/api/index.mjs")).href;
  const file = pathToFileURL(path.join(root, source)).href;
  const code = `import(${JSON.stringify(tsx)}).then(({ register }) => { register(); return import(${JSON.stringify(file)}); })`;
  return new Worker(code, { eval: true, workerData });
}

export type WorkerClient = {
  /** Calls `op` in the worker; rejects with its error (a WorkerCallError carrying the error's own fields). */
  call<T>(op: string, ...args: unknown[]): Promise<T>;
  /** Ends the worker (calls under way are rejected). */
  close(): Promise<void>;
};

/** Starts a worker thread running `source` with `workerData`. A worker that dies rejects every call under way. */
export function startWorker(source: WorkerSource, workerData?: unknown): WorkerClient {
  const worker = workerOf(source, workerData);
  const waiting = new Map<number, { resolve: (v: unknown) => void; reject: (e: unknown) => void }>();
  let next = 1;
  let dead: Error | undefined;
  worker.on("message", (reply: Reply) => {
    const call = waiting.get(reply.id);
    if (!call) return;
    waiting.delete(reply.id);
    if (!waiting.size) worker.unref();
    if (reply.ok) call.resolve(reply.value);
    else call.reject(new WorkerCallError(reply.failure));
  });
  const fail = (error: Error) => {
    dead = error;
    for (const call of waiting.values()) call.reject(error);
    waiting.clear();
  };
  worker.on("error", fail);
  worker.on("exit", (code) => fail(new Error(`the worker ${source} exited with ${code}`)));
  // A worker waiting for calls does not keep the process alive; one answering a call does (a script awaiting
  // its database would otherwise end with the call under way).
  worker.unref();
  return {
    call<T>(op: string, ...args: unknown[]) {
      if (dead) return Promise.reject(dead);
      const id = next++;
      return new Promise<T>((resolve, reject) => {
        waiting.set(id, { resolve: resolve as (v: unknown) => void, reject });
        worker.ref();
        worker.postMessage({ id, op, args });
      });
    },
    async close() {
      await worker.terminate();
    },
  };
}

/**
 * In a worker's module: answers the calls of its `startWorker` with these functions, one call at a time, or
 * as they come with `{ concurrent: true }` (when the functions order themselves, as a database does).
 */
export function serveWorker(
  ops: Record<string, (...args: never[]) => unknown>,
  /** concurrent: every call at once; besideQueue: these operations at once (they only wait for work already begun). */
  options: { concurrent?: boolean; besideQueue?: readonly string[] } = {},
): void {
  const port = parentPort;
  if (!port) throw new Error("serveWorker runs in a worker thread");
  // One queue: each call runs after the previous one ended, so that state is never touched by two at once.
  let queue: Promise<unknown> = Promise.resolve();
  port.on("message", ({ id, op, args }: { id: number; op: string; args: unknown[] }) => {
    const beside = options.concurrent || options.besideQueue?.includes(op);
    const previous = beside ? Promise.resolve() : queue;
    const run = previous.then(async () => {
      try {
        const fn = ops[op];
        if (!fn) throw new Error(`unknown worker call ${op}`);
        port.postMessage({ id, ok: true, value: await (fn as (...a: unknown[]) => unknown)(...args) } satisfies Reply);
      } catch (error) {
        const e = error instanceof Error ? error : new Error(String(error));
        const fields = Object.fromEntries(
          Object.entries(e).filter(([, v]) => ["string", "number", "boolean"].includes(typeof v)),
        );
        port.postMessage({ id, ok: false, failure: { name: e.name, message: e.message, fields } } satisfies Reply);
      }
    });
    if (!beside) queue = run;
  });
}
