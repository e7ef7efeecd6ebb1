import { existsSync, mkdirSync, readdirSync, readFileSync, statSync, truncateSync, writeFileSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { backup, BackupError, MANIFEST, PG_DUMP_ADVICE, readArchive, restore } from "#backend/kit/backup.ts";
import { acquireDataDirLock, lockPaths } from "#backend/kit/data-dir-lock.ts";
import { hold, stop, type Holding } from "./lock-processes.ts";
import { scratchDir } from "../support/scratch.ts";

// docs/decisions/017-data-dir-lock.md. The running server's PGlite snapshot is tested over HTTP in
// tests/backend/backup.test.ts; here DATA_DIR holds files only.
const fresh = (name = "bsn-backup-") => scratchDir(name);
const running: Holding[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => stop(h, "SIGKILL")));
});

/** A DATA_DIR as the embedded default leaves it: a database folder, secrets, the outbox, the lock folder. */
function sampleDataDir(): string {
  const dataDir = fresh("bsn-data-");
  mkdirSync(path.join(dataDir, "pgdata/base/1"), { recursive: true });
  writeFileSync(path.join(dataDir, "pgdata/PG_VERSION"), "17\n");
  writeFileSync(path.join(dataDir, "pgdata/base/1/1259"), Buffer.alloc(8192, 7));
  writeFileSync(path.join(dataDir, "session-secret"), "s3cret\n", { mode: 0o600 });
  mkdirSync(path.join(dataDir, "outbox"));
  writeFileSync(path.join(dataDir, "outbox/1-a.json"), JSON.stringify({ to: "a@example.com" }));
  return dataDir;
}

/** Every file under a folder (but the lock's) with its content, to compare two folders. */
function tree(dir: string, prefix = ""): Record<string, string> {
  const out: Record<string, string> = {};
  for (const name of readdirSync(path.join(dir, prefix)).sort()) {
    const rel = path.join(prefix, name);
    if (rel === "lock") continue;
    if (statSync(path.join(dir, rel)).isDirectory()) Object.assign(out, tree(dir, rel));
    else out[rel] = readFileSync(path.join(dir, rel)).toString("base64");
  }
  return out;
}

const embedded = (dataDir: string) => ({ dataDir, databaseUrl: undefined });

describe("npm run backup and npm run restore", () => {
  it("with no server, copies DATA_DIR under the lock; restore brings back the same files into an empty folder", async () => {
    const dataDir = sampleDataDir();
    const lock = await acquireDataDirLock(dataDir);
    await lock.release(); // leaves the lock folder behind, as a stopped server does
    const said: string[] = [];
    const file = path.join(fresh(), "b.tar.gz");
    const result = await backup(embedded(dataDir), file, (line) => said.push(line));
    expect(said[0]).toMatch(/^No server holds DATA_DIR/);
    expect(result.manifest).toMatchObject({
      format: "bsn-data-backup",
      version: 1,
      madeBy: "offline",
      database: "pglite",
      dataDir,
    });
    expect(existsSync(`${file}.partial`)).toBe(false);
    const { entries } = await readArchive(file);
    expect(entries).toContain("pgdata/PG_VERSION");
    expect(entries.some((e) => e.startsWith("lock"))).toBe(false);
    expect(statSync(file).mode & 0o077).toBe(0);

    const target = path.join(fresh(), "restored");
    const restored = await restore(file, target);
    expect(restored.manifest.createdAt).toBe(result.manifest.createdAt);
    expect(tree(target)).toEqual(tree(dataDir));
    expect(statSync(path.join(target, "session-secret")).mode & 0o777).toBe(0o600);
    expect(readdirSync(target).filter((n) => n.startsWith(".restore-") || n === MANIFEST)).toEqual([]);
    // The restored folder is free: a server may start on it.
    await (await acquireDataDirLock(target)).release();
  });

  it(
    "asks the process holding DATA_DIR for the snapshot, and says so when it does not take requests",
    { timeout: 30_000 },
    async () => {
      const dataDir = sampleDataDir();
      const server = await hold(dataDir, "backups");
      running.push(server);
      const file = path.join(fresh(), "b.tar.gz");
      const said: string[] = [];
      const result = await backup(embedded(dataDir), file, (line) => said.push(line));
      expect(said[0]).toMatch(new RegExp(`^Asked the running server, process ${server.pid} `));
      expect(result.manifest).toMatchObject({ madeBy: "server", pid: server.pid });
      const target = fresh();
      await restore(file, target);
      expect(tree(target)).toEqual(tree(dataDir));

      await stop(server, "SIGKILL");
      const mute = await hold(dataDir, "plain");
      running.push(mute);
      const refused = backup(embedded(dataDir), path.join(fresh(), "c.tar.gz"));
      await expect(refused).rejects.toThrow(BackupError);
      await expect(backup(embedded(dataDir), path.join(fresh(), "d.tar.gz"))).rejects.toThrow(
        `DATA_DIR ${dataDir} is in use by process ${mute.pid} (started at`,
      );
    },
  );

  it(
    "restore refuses while a process holds the target, and a non-empty target unless --replace",
    { timeout: 30_000 },
    async () => {
      const dataDir = sampleDataDir();
      const file = path.join(fresh(), "b.tar.gz");
      await backup(embedded(dataDir), file);

      const busy = fresh();
      const holder = await hold(busy);
      running.push(holder);
      await expect(restore(file, busy)).rejects.toThrow(
        `DATA_DIR ${busy} is in use by process ${holder.pid} started at`,
      );
      expect(readdirSync(busy)).toEqual(["lock"]);

      const used = fresh();
      writeFileSync(path.join(used, "session-secret"), "other\n");
      await expect(restore(file, used)).rejects.toThrow(
        /is not empty \(session-secret\): restore into an empty folder, or add --replace/,
      );
      const replaced = await restore(file, used, { replace: true });
      expect(tree(used)).toEqual(tree(dataDir));
      expect(readFileSync(path.join(replaced.movedAside!, "session-secret"), "utf8")).toBe("other\n");
    },
  );

  it("refuses a file that is not a whole backup, and a backup file inside DATA_DIR", async () => {
    const dataDir = sampleDataDir();
    await expect(backup(embedded(dataDir), path.join(dataDir, "backups/b.tar.gz"))).rejects.toThrow(
      /is inside DATA_DIR/,
    );
    const file = path.join(fresh(), "b.tar.gz");
    await backup(embedded(dataDir), file);
    await expect(backup(embedded(dataDir), file)).rejects.toThrow(/exists already/);

    const truncated = path.join(fresh(), "t.tar.gz");
    writeFileSync(truncated, readFileSync(file));
    truncateSync(truncated, Math.floor(statSync(file).size / 2));
    await expect(restore(truncated, fresh())).rejects.toThrow(/is not a readable backup archive/);
    const stranger = path.join(fresh(), "s.tar.gz");
    writeFileSync(stranger, "not an archive at all");
    await expect(restore(stranger, fresh())).rejects.toThrow(BackupError);
    await expect(restore(path.join(fresh(), "missing.tar.gz"), fresh())).rejects.toThrow(/does not exist/);
  });

  it(
    "with DATABASE_URL, says to use pg_dump and copies the files of DATA_DIR only, without the lock",
    { timeout: 30_000 },
    async () => {
      const dataDir = fresh("bsn-data-");
      writeFileSync(path.join(dataDir, "participation-secret"), "p\n");
      mkdirSync(path.join(dataDir, "outbox"));
      writeFileSync(path.join(dataDir, "outbox/1.json"), "{}");
      // Several portal processes may share this folder with PostgreSQL: no lock is needed (or taken).
      const other = await hold(dataDir);
      running.push(other);
      const said: string[] = [];
      const file = path.join(fresh(), "pg.tar.gz");
      const result = await backup({ dataDir, databaseUrl: "postgres://u@127.0.0.1:1/db" }, file, (line) =>
        said.push(line),
      );
      expect(said).toEqual([PG_DUMP_ADVICE]);
      expect(PG_DUMP_ADVICE).toContain("pg_dump");
      expect(result.manifest.database).toBe("postgres");
      expect((await readArchive(file)).entries.sort()).toEqual(["outbox/", "outbox/1.json", "participation-secret"]);
      expect(existsSync(lockPaths(dataDir).holderFile)).toBe(true);
    },
  );
});
