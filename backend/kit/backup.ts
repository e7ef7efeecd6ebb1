import {
  createWriteStream,
  existsSync,
  mkdirSync,
  readdirSync,
  renameSync,
  rmdirSync,
  rmSync,
  statSync,
  type Stats,
} from "node:fs";
import type { Socket } from "node:net";
import path from "node:path";
import { pipeline } from "node:stream/promises";
import { extract, Header, list, Pack, Parser, ReadEntry } from "tar";
import type { BackendEnv } from "#backend/env.ts";
import { describeFilesUrl } from "./blobs/files-url.ts";
import {
  acquireDataDirLock,
  DataDirInUseError,
  embeddedEngines,
  readHolder,
  requestHolder,
  type LockRequestHandler,
} from "./data-dir-lock.ts";

/**
 * Backups of everything under DATA_DIR (docs/decisions/017-data-dir-lock.md): one gzip tar archive holding
 * `bsn-backup.json` (what it is) and then the DATA_DIR tree as it is on disk (`pgdata/`, `outbox/`, the
 * secrets, any other file), the lock folder left out. Restoring is extracting it into an empty DATA_DIR.
 *
 * While a server runs it owns DATA_DIR, and only it can take a consistent copy of the embedded database:
 * `npm run backup` asks it over the lock's unix socket, and the server streams the archive back, its
 * database part made by PGlite's dumpDataDir() (the data folder read between two queries). With no server,
 * the command takes the lock itself and copies the files.
 */

export const MANIFEST = "bsn-backup.json";
export const FORMAT = "bsn-data-backup";

export type Manifest = {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  /** "server": streamed by the running server (pid); "offline": copied by the command, no server running. */
  madeBy: "server" | "offline";
  pid: number;
  /** "pglite": the embedded database is in pgdata/; "postgres": DATABASE_URL, the database is not here. */
  database: "pglite" | "postgres";
  dataDir: string;
  /**
   * Where the bytes of stored files were (docs/decisions/053): "data-dir" in files/ (archived here), "postgres"
   * in the database's file_chunks (pg_dump's job), "bucket" in FILES_URL's bucket (`bucket`: which; NOT in
   * the archive). Absent in archives made before.
   */
  files?: "data-dir" | "postgres" | "bucket";
  bucket?: string;
};

/** The environment a backup reads. */
type BackupEnv = Pick<BackendEnv, "dataDir" | "databaseUrl"> & { filesUrl?: string };

/** What the operator must know of the stored files' bytes of an archive (backup and restore say it). */
export function filesNote(manifest: Manifest): string | null {
  switch (manifest.files) {
    case "data-dir":
      return "Stored files: their bytes (DATA_DIR/files) are in this archive.";
    case "postgres":
      return "Stored files: their bytes are in the PostgreSQL database (table file_chunks): pg_dump saves them with the rest of the database.";
    case "bucket":
      return `Stored files: their bytes are NOT in this archive. They are in the bucket of FILES_URL (${manifest.bucket}): back the bucket up with its own tools (versioning, replication, or a copy such as aws s3 sync), at the same time as this archive.`;
    default:
      return null;
  }
}

/** A refusal or failure the backup and restore commands explain in one line. */
export class BackupError extends Error {
  name = "BackupError";
}

/** The tar of a folder's content that a running engine makes itself, put under DATA_DIR/<dir>. */
type LiveDump = { dir: string; tar: Uint8Array };

/** Top-level names under DATA_DIR that are never copied: the lock (its socket, holder) and restore leftovers. */
const isSkipped = (name: string) => name === "lock" || name === MANIFEST || name.startsWith(".restore-");

/**
 * The archive of DATA_DIR as a gzip stream: the manifest first, then each live dump under its folder, then
 * every other file as it is on disk (regular files, folders and symbolic links; sockets and the like left out).
 */
async function packDataDir(dataDir: string, manifest: Manifest, dumps: LiveDump[]): Promise<Pack> {
  const pack = new Pack({
    cwd: dataDir,
    gzip: true,
    portable: true,
    filter: (_path: string, entry: Stats | ReadEntry) =>
      entry instanceof ReadEntry || entry.isFile() || entry.isDirectory() || entry.isSymbolicLink(),
  });
  pack.add(memoryEntry(MANIFEST, Buffer.from(JSON.stringify(manifest, null, 2) + "\n")));
  for (const dump of dumps) {
    pack.add(memoryEntry(dump.dir, undefined));
    const parser = new Parser({ strict: true });
    const parsed = new Promise<void>((resolve, reject) => {
      parser.on("end", resolve);
      parser.on("error", reject);
    });
    parser.on("entry", (entry: ReadEntry) => {
      entry.path = path.posix.join(dump.dir, entry.path.replace(/^\/+/, ""));
      pack.add(entry);
    });
    parser.end(Buffer.from(dump.tar.buffer, dump.tar.byteOffset, dump.tar.byteLength));
    await parsed;
  }
  const dumped = new Set(dumps.map((d) => d.dir));
  if (existsSync(dataDir)) {
    for (const name of readdirSync(dataDir).sort()) if (!isSkipped(name) && !dumped.has(name)) pack.add(name);
  }
  pack.end();
  return pack;
}

/** A file (or, without content, a private folder) made in memory, as a tar entry. */
function memoryEntry(name: string, content: Buffer | undefined): ReadEntry {
  const header = new Header({
    path: content ? name : `${name}/`,
    type: content ? "File" : "Directory",
    mode: content ? 0o600 : 0o700,
    size: content?.length ?? 0,
    mtime: new Date(),
  });
  const entry = new ReadEntry(header);
  entry.end(content ?? Buffer.alloc(0));
  return entry;
}

type Dumpable = { dumpDataDir(compression?: "none" | "gzip" | "auto"): Promise<Blob> };
/** The PGlite instance behind a Drizzle database, when it is one. */
function pgliteOf(db: unknown): Dumpable | undefined {
  const client = (db as { $client?: Partial<Dumpable> } | undefined)?.$client;
  return typeof client?.dumpDataDir === "function" ? (client as Dumpable) : undefined;
}

function manifestFor(env: BackupEnv, madeBy: Manifest["madeBy"]): Manifest {
  return {
    format: FORMAT,
    version: 1,
    createdAt: new Date().toISOString(),
    madeBy,
    pid: process.pid,
    database: env.databaseUrl ? "postgres" : "pglite",
    dataDir: env.dataDir,
    files: env.filesUrl ? "bucket" : env.databaseUrl ? "postgres" : "data-dir",
    ...(env.filesUrl ? { bucket: describeFilesUrl(env.filesUrl) } : {}),
  };
}

/**
 * The running server's side: answers `{"op":"backup"}` on the lock's socket with `{"ok":true,...}` and the
 * archive. The database is dumped first, in one step between two queries; the other files follow as they are.
 * One backup at a time.
 */
export function answerBackups(services: { db: unknown; env: BackupEnv }): LockRequestHandler {
  let busy = false;
  return async (request, connection) => {
    if (request.op !== "backup") return false;
    if (busy) {
      connection.end(JSON.stringify({ ok: false, message: "a backup of this DATA_DIR is already being made" }) + "\n");
      return true;
    }
    busy = true;
    try {
      const pglite = pgliteOf(services.db);
      const dumps: LiveDump[] = pglite
        ? [{ dir: "pgdata", tar: new Uint8Array(await (await pglite.dumpDataDir("none")).arrayBuffer()) }]
        : [];
      const manifest = manifestFor(services.env, "server");
      const pack = await packDataDir(services.env.dataDir, manifest, dumps);
      connection.write(JSON.stringify({ ok: true, manifest }) + "\n");
      await pipeline(pack, connection);
    } finally {
      busy = false;
    }
    return true;
  };
}

/** `backups/bsn-backup-2026-11-23T10-15-30Z.tar.gz` under the current directory. */
export function defaultBackupFile(now = new Date()): string {
  return path.resolve("backups", `bsn-backup-${timestamp(now)}.tar.gz`);
}

const timestamp = (date: Date) =>
  date
    .toISOString()
    .replace(/\.\d+Z$/, "Z")
    .replace(/:/g, "-");

export const PG_DUMP_ADVICE =
  "DATABASE_URL is set: the database is a PostgreSQL server, which this command does not copy. Back it up with " +
  'pg_dump (e.g. pg_dump --format=custom --file=bsn.dump "$DATABASE_URL") and restore it with pg_restore. ' +
  "This archive holds the files under DATA_DIR only.";

export type BackupResult = { file: string; manifest: Manifest; entries: number; bytes: number };

/**
 * `npm run backup`: writes the archive of DATA_DIR to `file`. Asks the running server when one holds the lock;
 * otherwise takes the lock and copies the files itself. `say` receives the lines meant for the operator.
 */
export async function backup(
  env: BackupEnv,
  file: string,
  say: (line: string) => void = () => undefined,
): Promise<BackupResult> {
  const target = path.resolve(file);
  const inside = path.relative(env.dataDir, target);
  if (!inside.startsWith("..") && !path.isAbsolute(inside))
    throw new BackupError(`The backup file ${target} is inside DATA_DIR ${env.dataDir}: write it somewhere else.`);
  if (existsSync(target)) throw new BackupError(`${target} exists already: name a new file.`);
  mkdirSync(path.dirname(target), { recursive: true });
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  try {
    if (embeddedEngines(env).length === 0) {
      say(PG_DUMP_ADVICE);
      await pipeline(
        await packDataDir(env.dataDir, manifestFor(env, "offline"), []),
        createWriteStream(partial, { mode: 0o600 }),
      );
    } else {
      await backupEmbedded(env, partial, say);
    }
    const checked = await readArchive(partial);
    renameSync(partial, target);
    return { file: target, manifest: checked.manifest, entries: checked.entries.length, bytes: statSync(target).size };
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}

async function backupEmbedded(env: BackupEnv, partial: string, say: (line: string) => void) {
  let lock;
  try {
    lock = await acquireDataDirLock(env.dataDir);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error;
    const holder = error.holder ?? readHolder(env.dataDir);
    const who = holder ? `process ${holder.pid} (started at ${holder.startedAt})` : "another process";
    let answer: Awaited<ReturnType<typeof requestHolder>>;
    try {
      answer = await requestHolder(env.dataDir, { op: "backup" });
    } catch {
      throw new BackupError(
        `DATA_DIR ${env.dataDir} is in use by ${who}, which does not take backup requests (it may still be starting, or is not a server, e.g. npm run db:seed): try again once the server is up, or stop that process.`,
      );
    }
    if (!answer.reply.ok) {
      answer.connection.destroy();
      throw new BackupError(`The server (${who}) refused the backup: ${answer.reply.message ?? "no reason given"}`);
    }
    say(`Asked the running server, ${who}, for a snapshot of DATA_DIR ${env.dataDir}.`);
    await receive(answer.connection, partial);
    return;
  }
  try {
    say(`No server holds DATA_DIR ${env.dataDir}: copying its files (the lock is held meanwhile).`);
    await pipeline(
      await packDataDir(env.dataDir, manifestFor(env, "offline"), []),
      createWriteStream(partial, { mode: 0o600 }),
    );
  } finally {
    await lock.release();
  }
}

async function receive(connection: Socket, file: string) {
  connection.resume();
  await pipeline(connection, createWriteStream(file, { mode: 0o600 }));
}

/**
 * Reads a whole archive (so a truncated or damaged one fails here): its manifest, which must come first and be
 * ours, and the names of the other entries.
 */
export async function readArchive(file: string): Promise<{ manifest: Manifest; entries: string[] }> {
  const entries: string[] = [];
  let manifestText: string | undefined;
  let first = true;
  try {
    await list({
      file,
      strict: true,
      onReadEntry: (entry) => {
        if (first && entry.path === MANIFEST) {
          const chunks: Buffer[] = [];
          entry.on("data", (chunk: Buffer) => chunks.push(chunk));
          entry.on("end", () => (manifestText = Buffer.concat(chunks).toString("utf8")));
        } else {
          entries.push(entry.path);
        }
        first = false;
      },
    });
  } catch (error) {
    throw new BackupError(`${file} is not a readable backup archive: ${(error as Error).message}`);
  }
  let manifest: Manifest | undefined;
  try {
    manifest = manifestText === undefined ? undefined : (JSON.parse(manifestText) as Manifest);
  } catch {
    manifest = undefined;
  }
  if (manifest?.format !== FORMAT || manifest.version !== 1)
    throw new BackupError(
      `${file} is not a backup made by npm run backup (no ${MANIFEST} of format ${FORMAT} v1 first).`,
    );
  return { manifest, entries };
}

export type RestoreResult = { manifest: Manifest; dataDir: string; entries: number; movedAside?: string };

/**
 * `npm run restore`: brings an archive back into `dataDir`, which must be empty (or missing) unless `replace`
 * moves its current content aside first (to `<DATA_DIR>.replaced-<time>`). Refused while a process holds
 * DATA_DIR; holds the lock itself meanwhile, so no server starts on a half-restored folder.
 */
export async function restore(
  file: string,
  dataDir: string,
  options: { replace?: boolean } = {},
): Promise<RestoreResult> {
  const source = path.resolve(file);
  if (!existsSync(source)) throw new BackupError(`${source} does not exist.`);
  const { manifest, entries } = await readArchive(source);
  const target = path.resolve(dataDir);
  mkdirSync(target, { recursive: true, mode: 0o700 });
  const lock = await acquireDataDirLock(target);
  try {
    const present = readdirSync(target).filter((name) => !isSkipped(name) && name !== "lost+found");
    let movedAside: string | undefined;
    if (present.length > 0) {
      if (!options.replace) {
        throw new BackupError(
          `DATA_DIR ${target} is not empty (${present.slice(0, 5).join(", ")}${present.length > 5 ? ", ..." : ""}): restore into an empty folder, or add --replace to move its content aside first.`,
        );
      }
      movedAside = `${target}.replaced-${timestamp(new Date())}`;
      mkdirSync(movedAside, { mode: 0o700 });
      for (const name of present) renameSync(path.join(target, name), path.join(movedAside, name));
    }
    const staging = path.join(target, `.restore-${process.pid}-${Date.now()}`);
    mkdirSync(staging, { mode: 0o700 });
    try {
      await extract({
        file: source,
        cwd: staging,
        strict: true,
        filter: (entryPath: string) =>
          entryPath !== MANIFEST && !isSkipped(entryPath.replace(/^\.\//, "").split("/")[0]),
      });
      for (const name of readdirSync(staging)) renameSync(path.join(staging, name), path.join(target, name));
      rmdirSync(staging);
    } catch (error) {
      rmSync(staging, { recursive: true, force: true });
      throw new BackupError(`Could not extract ${source} into ${target}: ${(error as Error).message}`);
    }
    return { manifest, dataDir: target, entries: entries.length, movedAside };
  } finally {
    await lock.release();
  }
}
