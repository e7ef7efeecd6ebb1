// @ts-check
/**
 * The server entry (docs/decisions/016): `node server/index.js [build/index.js]`, what `npm start` runs.
 * It serves the Remix build with Node's own fetch (it never installs Remix's fetch polyfill, which
 * `remix-serve` did), on PORT (3000) and HOST (all interfaces), and stops gracefully on SIGTERM/SIGINT.
 */
import { createServer } from "node:http";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { broadcastDevReady } from "@remix-run/node";
import cluster from "node:cluster";
import { createApp } from "./app.js";
import { clusterSize, runPrimary } from "./cluster.js";
import { parseTrustProxy } from "./client-address.js";

process.env.NODE_ENV ??= "production";
const mode = process.env.NODE_ENV;

// WORKERS=N (docs/decisions/031): the primary forks N processes running this entry and serves nothing itself.
const size = clusterSize(process.env);
if ("refused" in size) {
  console.error(`[server] not started: ${size.refused}`);
  process.exit(1);
}
if (size.workers > 1 && cluster.isPrimary) {
  runPrimary(size.workers);
} else {
  await serve();
}

async function serve() {
  /** How long the requests under way may take after SIGTERM before their connections are closed. */
  const SHUTDOWN_GRACE_MS = 25_000;
  /** How long an idle keep-alive connection stays open. */
  const KEEP_ALIVE_MS = 65_000;

  // Read before the build starts anything: a wrong TRUST_PROXY stops the process at once.
  const trustProxy = parseTrustProxy(process.env.TRUST_PROXY);

  const buildPath = path.resolve(process.argv[2] ?? "build/index.js");
  // Importing the build validates the environment and starts the embedded backend (app/entry.server.tsx):
  // a bad configuration stops the process here, before it listens.
  /** @type {import("@remix-run/node").ServerBuild} */
  let build;
  try {
    build = await import(pathToFileURL(buildPath).href);
  } catch (error) {
    // A refused configuration (backend/env.ts, app/lib/env.server.ts) is said plainly, without a stack.
    if (error instanceof Error && error.name === "ConfigurationError") {
      console.error(`[server] not started: ${error.message}`);
      process.exit(1);
    }
    throw error;
  }

  let stopping = false;
  const app = createApp({ build, mode, isStopping: () => stopping, trustProxy });
  const server = createServer(app);
  // An idle keep-alive connection stays open longer than the clients and load balancers in front of us keep theirs
  // (60 s is the common idle timeout): with Node's 5 s a client reusing a socket just as the server closed it got
  // ECONNRESET, and a load balancer a 502 (docs/decisions/100). The headers' timeout must be above it.
  server.keepAliveTimeout = KEEP_ALIVE_MS;
  server.headersTimeout = KEEP_ALIVE_MS + 5_000;

  const port = Number(process.env.PORT || 3000);
  const host = process.env.HOST || undefined;
  // A port already taken (another server, or a second start of this one) is said plainly, not as an unhandled
  // 'error' event's stack.
  server.once("error", (error) => {
    const code = /** @type {NodeJS.ErrnoException} */ (error).code;
    const where = `${host ?? "all interfaces"} port ${port}`;
    console.error(
      code === "EADDRINUSE"
        ? `[server] not started: ${where} is already in use`
        : `[server] not started: cannot listen on ${where}: ${error.message}`,
    );
    process.exit(1);
  });
  server.listen({ port, host }, () => {
    console.log(`[server] http://${host ?? "localhost"}:${port} (${mode})`);
    if (mode === "development") void broadcastDevReady(build);
  });

  /**
   * SIGTERM/SIGINT: stop accepting connections, let the requests under way finish (the embedded backend
   * drains its own calls on the same signal: backend/index.ts), close each connection once it is idle,
   * and after the grace period close what is left. The process then ends by itself when nothing is open.
   * @param {NodeJS.Signals} signal
   */
  function stop(signal) {
    if (stopping) return;
    stopping = true;
    console.log(`[server] ${signal}: not accepting connections; finishing the requests under way`);
    server.close((error) => {
      if (error) console.error("[server] close failed", error);
      // A cluster's worker (docs/decisions/031) also holds its channel to the primary open: let it go, or the
      // process would never end by itself.
      if (process.connected) process.disconnect?.();
    });
    server.closeIdleConnections();
    setInterval(() => server.closeIdleConnections(), 100).unref();
    setTimeout(() => server.closeAllConnections(), SHUTDOWN_GRACE_MS).unref();
  }
  process.once("SIGTERM", stop);
  process.once("SIGINT", stop);
}
