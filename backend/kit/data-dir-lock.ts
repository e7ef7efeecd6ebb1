import { createHash } from "node:crypto";
import {
  chmodSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  realpathSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { createConnection, createServer, type Server, type Socket } from "node:net";
import { hostname, tmpdir } from "node:os";
import path from "node:path";
import type { BackendEnv } from "#backend/env.ts";

/**
 * One process owns the embedded data under DATA_DIR (docs/decisions/017-data-dir-lock.md).
 *
 * The exclusion is the operating system's lock on `DATA_DIR/lock/db/LOCK`, taken by opening that small
 * LevelDB (classic-level): the kernel grants it to one process at a time, atomically, and drops it when the
 * holder dies, kill -9 included. Beside it the holder writes `holder.json` (its pid and start time, for the
 * refusal message) and, when it is a server, listens on a unix socket that local commands use to reach it
 * (`npm run backup`). Only the lock's holder ever creates or removes that socket, so a stale one left by a
 * crash is simply replaced.
 */

export type Holder = { pid: number; startedAt: string; lockedAt: string; host: string; command: string };

/** One request of a local command over the lock's socket: a JSON line such as `{"op":"backup"}`. */
export type LockRequest = { op: string } & Record<string, unknown>;
/**
 * Answers a request on the connection (a JSON line, then whatever the request streams), or returns false
 * when it does not know the request.
 */
export type LockRequestHandler = (request: LockRequest, connection: Socket) => Promise<boolean>;

export type DataDirLock = {
  readonly dataDir: string;
  readonly socketPath: string;
  /**
   * Listens on the lock's unix socket and answers local commands with `handler` (a server does this). A
   * failure is only warned about: the lock holds all the same.
   */
  serve(handler: LockRequestHandler): Promise<void>;
  /** Gives the lock back (after the last of this process's holders released it). */
  release(): Promise<void>;
};

/** DATA_DIR is held by another live process. */
export class DataDirInUseError extends Error {
  constructor(
    readonly dataDir: string,
    readonly holder: Holder | undefined,
  ) {
    super(inUseMessage(dataDir, holder));
    this.name = "DataDirInUseError";
  }
}

/** The lock itself could not be taken (permissions, a file system without locks, a damaged lock folder). */
export class DataDirLockError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DataDirLockError";
  }
}

/** Where the lock keeps its files. The socket goes elsewhere when DATA_DIR's path is too long for one. */
export function lockPaths(dataDir: string) {
  const dir = path.join(path.resolve(dataDir), "lock");
  return { dir, db: path.join(dir, "db"), holderFile: path.join(dir, "holder.json"), socket: socketPath(dataDir) };
}

/**
 * A unix socket's path must fit in sun_path (108 bytes on Linux, 104 on macOS, with the final NUL): keep it
 * under 100. A longer DATA_DIR gets one in a private folder of the temporary directory, named by a hash of
 * DATA_DIR's real path, so that it is still one socket per data directory whatever path leads to it.
 */
export const MAX_SOCKET_PATH = 100;
export function socketPath(dataDir: string): string {
  const inside = path.join(path.resolve(dataDir), "lock", "server.sock");
  if (Buffer.byteLength(inside) <= MAX_SOCKET_PATH) return inside;
  const hash = createHash("sha256").update(realDir(dataDir)).digest("hex").slice(0, 24);
  const outside = path.join(privateSocketDir(), `${hash}.sock`);
  if (Buffer.byteLength(outside) > MAX_SOCKET_PATH) {
    throw new DataDirLockError(
      `The temporary directory ${tmpdir()} is too long for a unix socket path: set TMPDIR to a shorter one.`,
    );
  }
  return outside;
}

function realDir(dataDir: string): string {
  try {
    return realpathSync(dataDir);
  } catch {
    return path.resolve(dataDir);
  }
}

/** The shared temporary directory is everyone's: the socket folder there must be this user's alone. */
function ensurePrivateDir(dir: string) {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const stat = lstatSync(dir);
  const uid = typeof process.getuid === "function" ? process.getuid() : stat.uid;
  if (!stat.isDirectory() || stat.uid !== uid || (stat.mode & 0o077) !== 0) {
    throw new DataDirLockError(
      `${dir} must be a folder of this user with mode 700 (it holds the DATA_DIR lock's socket): remove it or set TMPDIR elsewhere.`,
    );
  }
}

function privateSocketDir(): string {
  const uid = typeof process.getuid === "function" ? process.getuid() : 0;
  return path.join(tmpdir(), `bsn-sockets-${uid}`);
}

/**
 * The embedded engines whose data live under DATA_DIR in this configuration. Empty means nothing under
 * DATA_DIR needs an owner: with DATABASE_URL only the mail outbox lives there (files with unique names; the
 * secrets are then required as variables), and several processes may share that folder (WORKERS=N).
 * An engine added later (the embedded chain unless CHAIN_RPC_URL, the IPFS blockstore unless IPFS_API_URL)
 * adds its own line here.
 */
export function embeddedEngines(env: Pick<BackendEnv, "databaseUrl">): string[] {
  const engines: string[] = [];
  if (!env.databaseUrl) engines.push("database (PGlite)");
  return engines;
}

type Held = { lock: DataDirLock; count: number };
// Per process, kept on globalThis so that a re-evaluated module (remix dev) finds the lock it already holds.
const registry = ((
  globalThis as typeof globalThis & { __bsnDataDirLocks?: Map<string, Promise<Held>> }
).__bsnDataDirLocks ??= new Map());

/**
 * Takes the lock of DATA_DIR, before anything under it is opened; throws DataDirInUseError naming the holder
 * when another process has it. Within one process the lock is shared: each call returns a handle whose
 * release() counts down, and the last one gives the lock back.
 */
export async function acquireDataDirLock(dataDir: string): Promise<DataDirLock> {
  const key = path.resolve(dataDir);
  let pending = registry.get(key);
  if (!pending) {
    pending = open(key).then((lock) => ({ lock, count: 0 }));
    registry.set(key, pending);
    pending.catch(() => registry.delete(key));
  }
  const held = await pending;
  held.count += 1;
  let released = false;
  return {
    dataDir: key,
    socketPath: held.lock.socketPath,
    serve: (handler) => held.lock.serve(handler),
    release: async () => {
      if (released) return;
      released = true;
      held.count -= 1;
      if (held.count > 0) return;
      registry.delete(key);
      await held.lock.release();
    },
  };
}

async function open(dataDir: string): Promise<DataDirLock> {
  const paths = lockPaths(dataDir);
  try {
    mkdirSync(paths.dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    throw new DataDirLockError(`Cannot create ${paths.dir}: ${(error as Error).message}`, { cause: error });
  }
  const { ClassicLevel } = await import("classic-level");
  const db = new ClassicLevel(paths.db);
  try {
    await db.open();
  } catch (error) {
    const code = (error as { cause?: { code?: string } }).cause?.code;
    if (code === "LEVEL_LOCKED") throw new DataDirInUseError(dataDir, await readLiveHolder(dataDir));
    const reason = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new DataDirLockError(`Cannot take the lock of DATA_DIR ${dataDir} (${paths.db}): ${reason}`, {
      cause: error,
    });
  }
  const holder: Holder = {
    pid: process.pid,
    startedAt: new Date(Date.now() - process.uptime() * 1000).toISOString(),
    lockedAt: new Date().toISOString(),
    host: hostname(),
    command: process.argv
      .slice(1)
      .map((a) => path.basename(a))
      .join(" ")
      .slice(0, 200),
  };
  const temporary = `${paths.holderFile}.${process.pid}.tmp`;
  writeFileSync(temporary, JSON.stringify(holder, null, 2) + "\n", { mode: 0o600 });
  renameSync(temporary, paths.holderFile);

  let server: Server | undefined;
  const connections = new Set<Socket>();
  let closed = false;
  return {
    dataDir,
    socketPath: paths.socket,
    async serve(handler) {
      if (server || closed) return;
      const listening = createServer({ allowHalfOpen: true }, (connection) => {
        connections.add(connection);
        connection.once("close", () => connections.delete(connection));
        answer(connection, handler, dataDir);
      });
      try {
        if (path.dirname(paths.socket) !== paths.dir) ensurePrivateDir(path.dirname(paths.socket));
        // The lock is ours, so a socket file here is a dead holder's: replace it.
        rmSync(paths.socket, { force: true });
        await new Promise<void>((resolve, reject) => {
          listening.once("error", reject);
          listening.listen(paths.socket, () => {
            listening.off("error", reject);
            resolve();
          });
        });
        chmodSync(paths.socket, 0o600);
      } catch (error) {
        listening.close();
        // The lock still holds; only the local commands cannot reach this process.
        console.warn(
          `DATA_DIR ${dataDir}: cannot listen on ${paths.socket} (npm run backup cannot reach this server): ${(error as Error).message}`,
        );
        return;
      }
      server = listening;
      // The socket must not keep a process alive that has nothing else to do.
      listening.unref();
    },
    async release() {
      if (closed) return;
      closed = true;
      if (server) {
        const listening = server;
        // A request under way (a backup being streamed) is cut: the command sees an incomplete archive and says so.
        for (const connection of connections) connection.destroy();
        await new Promise<void>((resolve) => listening.close(() => resolve()));
        rmSync(paths.socket, { force: true });
      }
      // Removed while the lock is still ours: after close() the file may already be the next holder's.
      if (readHolder(dataDir)?.pid === process.pid) rmSync(paths.holderFile, { force: true });
      await db.close();
    },
  };
}

const MAX_REQUEST = 4096;

/** Reads one JSON line and hands it to the handler; answers unknown or bad requests itself. */
function answer(connection: Socket, handler: LockRequestHandler, dataDir: string) {
  let buffered = "";
  const reply = (body: object) => connection.end(JSON.stringify(body) + "\n");
  connection.on("error", () => connection.destroy());
  const onData = (chunk: Buffer) => {
    buffered += chunk.toString("utf8");
    const newline = buffered.indexOf("\n");
    if (newline < 0) {
      if (buffered.length > MAX_REQUEST) {
        connection.off("data", onData);
        reply({ ok: false, message: "request too long" });
      }
      return;
    }
    connection.off("data", onData);
    connection.pause();
    let request: LockRequest;
    try {
      request = JSON.parse(buffered.slice(0, newline)) as LockRequest;
      if (typeof request?.op !== "string") throw new Error("no op");
    } catch {
      reply({ ok: false, message: "bad request: one JSON line with an op" });
      return;
    }
    if (request.op === "holder") {
      reply({ ok: true, holder: readHolder(dataDir) });
      return;
    }
    handler(request, connection).then(
      (known) => {
        if (!known) reply({ ok: false, message: `unknown request ${request.op}` });
      },
      (error: unknown) => {
        console.error("DATA_DIR lock request failed:", error);
        if (connection.writable) reply({ ok: false, message: (error as Error).message });
        else connection.destroy();
      },
    );
  };
  connection.on("data", onData);
}

/** The holder recorded beside the lock (whoever wrote it last). */
export function readHolder(dataDir: string): Holder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(lockPaths(dataDir).holderFile, "utf8")) as Holder;
    return typeof parsed.pid === "number" ? parsed : undefined;
  } catch {
    return undefined;
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/**
 * The holder of a lock found taken. Its file is written just after the lock is taken, so for a moment it may
 * still name the previous (dead) holder: look again for a little while.
 */
async function readLiveHolder(dataDir: string): Promise<Holder | undefined> {
  let holder = readHolder(dataDir);
  for (let attempt = 0; attempt < 20; attempt += 1) {
    if (holder && (holder.host !== hostname() || (holder.pid !== process.pid && alive(holder.pid)))) return holder;
    await new Promise((resolve) => setTimeout(resolve, 50));
    holder = readHolder(dataDir);
  }
  return holder;
}

function inUseMessage(dataDir: string, holder: Holder | undefined): string {
  const who = holder
    ? `process ${holder.pid}${holder.host !== hostname() ? ` on ${holder.host}` : ""} started at ${holder.startedAt}`
    : "another process";
  return `DATA_DIR ${dataDir} is in use by ${who}; stop it first or use another DATA_DIR`;
}

/**
 * At the start of a server: takes the lock when some embedded engine keeps its data under DATA_DIR, before
 * any of them opens. Refused, the process ends with the holder's name and exit code 1, not a stack trace.
 */
export async function lockDataDirOrExit(
  env: Pick<BackendEnv, "dataDir" | "databaseUrl">,
): Promise<DataDirLock | undefined> {
  if (embeddedEngines(env).length === 0) return undefined;
  try {
    return await acquireDataDirLock(env.dataDir);
  } catch (error) {
    if (error instanceof DataDirInUseError || error instanceof DataDirLockError) {
      console.error(error.message);
      process.exit(1);
    }
    throw error;
  }
}

/**
 * Sends one request to the process holding DATA_DIR over its socket; resolves with the connection once the
 * reply's first line (JSON) has arrived, the rest of the stream still unread on the connection.
 */
export async function requestHolder(
  dataDir: string,
  request: LockRequest,
): Promise<{ reply: { ok: boolean; message?: string } & Record<string, unknown>; connection: Socket }> {
  const connection = createConnection(socketPath(dataDir));
  await new Promise<void>((resolve, reject) => {
    connection.once("error", reject);
    connection.once("connect", () => {
      connection.off("error", reject);
      resolve();
    });
  });
  connection.write(JSON.stringify(request) + "\n");
  return new Promise((resolve, reject) => {
    let buffered = Buffer.alloc(0);
    const onData = (chunk: Buffer) => {
      buffered = Buffer.concat([buffered, chunk]);
      const newline = buffered.indexOf(0x0a);
      if (newline < 0) {
        if (buffered.length > MAX_REQUEST) fail(new Error("the holder's reply has no first line"));
        return;
      }
      connection.off("data", onData);
      connection.off("error", fail);
      connection.off("end", ended);
      connection.pause();
      const rest = buffered.subarray(newline + 1);
      if (rest.length > 0) connection.unshift(rest);
      try {
        resolve({ reply: JSON.parse(buffered.subarray(0, newline).toString("utf8")), connection });
      } catch (error) {
        fail(error as Error);
      }
    };
    const fail = (error: Error) => {
      connection.destroy();
      reject(error);
    };
    const ended = () => fail(new Error("the holder closed the connection without a reply"));
    connection.on("data", onData);
    connection.once("error", fail);
    connection.once("end", ended);
  });
}
