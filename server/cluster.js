// @ts-check
/**
 * `WORKERS=N` (docs/decisions/031): N portal processes on one port with node:cluster, against PostgreSQL.
 * The primary serves nothing itself. It forks the first worker as the "owner" (it takes DATA_DIR's lock and
 * contends for the embedded engines' leases like any portal process, docs/decisions/095) and, once that one
 * listens, the N-1 "peers", which keep nothing under DATA_DIR and forward to the engines' holders. A worker that ends unexpectedly is replaced with the same role. SIGTERM/SIGINT
 * stop the peers first, then the owner (the peers may be waiting on its engines), then the primary.
 */
import cluster from "node:cluster";

/** A worker replaced more often than this within a minute makes the primary give up (a crash loop). */
const MAX_RESTARTS_PER_MINUTE = 5;

/**
 * How many workers the environment asks for, or why it is refused: more than one needs DATABASE_URL (the
 * embedded PGlite has one writer).
 * @param {Record<string, string | undefined>} env
 * @returns {{ workers: number } | { refused: string }}
 */
export function clusterSize(env) {
  const raw = env.WORKERS?.trim() || "1";
  const workers = Number(raw);
  if (!/^\d+$/.test(raw) || workers < 1 || workers > 64)
    return { refused: `WORKERS must be a whole number from 1 to 64, not "${raw}"` };
  if (workers > 1 && !env.DATABASE_URL) {
    return {
      refused: `WORKERS=${workers} needs DATABASE_URL: the embedded database (PGlite) has one writer, one process. Set DATABASE_URL to a PostgreSQL server, or WORKERS=1`,
    };
  }
  return { workers };
}

/**
 * Runs the primary of a cluster of `workers` processes, each running this same entry (server/index.js).
 * @param {number} workers
 */
export function runPrimary(workers) {
  /** @type {Map<number, "owner" | "peer">} */
  const roles = new Map();
  /** @type {number[]} */
  const restarts = [];
  let stopping = false;
  let ownerListening = false;

  /** @param {"owner" | "peer"} role */
  const fork = (role) => {
    const worker = cluster.fork({
      BSN_CLUSTER_ROLE: role,
      WORKERS: String(workers),
    });
    roles.set(worker.id, role);
    return worker;
  };

  const owner = fork("owner");
  owner.once("listening", () => {
    ownerListening = true;
    for (let i = 1; i < workers; i++) fork("peer");
    console.log(
      `[cluster] ${workers} workers on one port (primary ${process.pid}; the embedded engines in worker ${owner.process.pid})`,
    );
  });

  cluster.on("exit", (worker, code, signal) => {
    const role = roles.get(worker.id);
    roles.delete(worker.id);
    if (stopping) {
      if (!roles.size) finish(0);
      return;
    }
    // The owner refused to start (DATA_DIR held by another server, a bad configuration): its message is out.
    if (role === "owner" && !ownerListening) return finish(code || 1);
    const now = Date.now();
    restarts.push(now);
    while (restarts.length && restarts[0] < now - 60_000) restarts.shift();
    if (restarts.length > MAX_RESTARTS_PER_MINUTE) {
      console.error(`[cluster] workers keep ending (${restarts.length} in a minute): stopping`);
      return stop("SIGTERM", 1);
    }
    console.error(`[cluster] the ${role} worker ${worker.process.pid} ended (${signal ?? code}); starting another`);
    if (role) fork(role);
  });

  /** @param {number} code */
  function finish(code) {
    process.exit(code);
  }

  /**
   * @param {NodeJS.Signals} signal
   * @param {number} [code]
   */
  function stop(signal, code = 0) {
    if (stopping) return;
    stopping = true;
    const all = Object.values(cluster.workers ?? {}).filter((w) => w !== undefined);
    const peers = all.filter((w) => roles.get(w.id) === "peer");
    const owners = all.filter((w) => roles.get(w.id) === "owner");
    let left = peers.length;
    const stopOwners = () => owners.forEach((w) => w.process.kill(signal));
    if (!left) stopOwners();
    for (const w of peers) {
      w.once("exit", () => {
        if (--left === 0) stopOwners();
      });
      w.process.kill(signal);
    }
    if (!all.length) finish(code);
    process.exitCode = code;
  }
  process.once("SIGTERM", () => stop("SIGTERM"));
  process.once("SIGINT", () => stop("SIGINT"));
}
