import { execFile } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "./in-process.ts";
import {
  callAt,
  loginAt,
  registerAndActivate,
  startedDataDir,
  startServer,
  stopServer,
  type Server,
} from "./server-process.ts";
import { scratchDir } from "../support/scratch.ts";

// docs/decisions/017-data-dir-lock.md: `npm run backup` while the server runs (the server makes the snapshot,
// its database by PGlite's dumpDataDir), `npm run restore` into a fresh folder, and a server on that folder
// has the demo accounts, the write made before the backup, the secrets and the outbox.
const root = path.resolve(__dirname, "../..");

type Run = { code: number; stdout: string; stderr: string };
function npmRun(script: "backup" | "restore", args: string[], env: Record<string, string>): Promise<Run> {
  return new Promise((resolve) => {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    delete childEnv.DATABASE_URL;
    execFile(
      "npm",
      ["run", "--silent", script, "--", ...args],
      { cwd: root, env: childEnv, timeout: 120_000 },
      (error, stdout, stderr) =>
        resolve({ code: error ? Number((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    );
  });
}

describe.skipIf(Boolean(process.env.DATABASE_URL))("backup and restore of DATA_DIR", () => {
  const servers: Server[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => stopServer(s, "SIGKILL")));
  });

  it(
    "backs up a running server and restores into a fresh folder that a server starts on",
    { timeout: 400_000 },
    async () => {
      // A data directory a server has started on before (its first start is not what is tested here).
      const dataDir = await startedDataDir(scratchDir("bsn-backup-src-"));
      const server = await startServer(dataDir);
      servers.push(server);
      const userName = await registerAndActivate(server);

      const file = path.join(scratchDir("bsn-backups-"), "snapshot.tar.gz");
      const made = await npmRun("backup", [file], { DATA_DIR: dataDir });
      expect(made.code, made.stderr).toBe(0);
      expect(made.stdout).toContain(`made by the running server (process ${server.pid})`);
      // The stored files' bytes (docs/decisions/053) are under DATA_DIR/files, and in the archive.
      expect(made.stdout).toContain("Stored files: their bytes (DATA_DIR/files) are in this archive.");
      // The server goes on, and still owns its DATA_DIR: restoring into it is refused.
      expect((await callAt(server, "/anon/captcha/create")).code).toBe(0);
      const afterBackup = await registerAndActivate(server); // not in the snapshot
      const intoLive = await npmRun("restore", [file, dataDir, "--replace"], {});
      expect(intoLive.code).toBe(1);
      expect(intoLive.stderr).toContain(
        `Restore failed: DATA_DIR ${dataDir} is in use by process ${server.pid} started at`,
      );
      await stopServer(server);

      const target = path.join(scratchDir("bsn-backup-dst-"), "data");
      const restored = await npmRun("restore", [file, target], {});
      expect(restored.code, restored.stderr).toBe(0);
      expect(restored.stdout).toContain(`into ${target}`);
      for (const secret of ["session-secret", "payment-webhook-secret", "participation-secret"]) {
        expect(readFileSync(path.join(target, secret), "utf8")).toBe(readFileSync(path.join(dataDir, secret), "utf8"));
      }
      const restoredMail = readdirSync(path.join(target, "outbox"))
        .filter((f) => f.endsWith(".json"))
        .map((f) => (JSON.parse(readFileSync(path.join(target, "outbox", f), "utf8")) as { to: string }).to);
      expect(restoredMail).toContain(`${userName}@example.com`);
      expect(restoredMail).not.toContain(`${afterBackup}@example.com`);
      const blobsOf = (dir: string) =>
        readdirSync(path.join(dir, "files"))
          .filter((d) => /^[0-9a-f]{2}$/.test(d))
          .flatMap((d) => readdirSync(path.join(dir, "files", d)))
          .sort();
      expect(blobsOf(target).length).toBeGreaterThan(0);
      expect(blobsOf(target)).toEqual(blobsOf(dataDir));

      const copy = await startServer(target);
      servers.push(copy);
      for (const demo of ["demoperson", "democompany", "demooperator"]) {
        const login = await loginAt(copy, demo, DEMO_PASSWORD);
        expect(login.code, `${demo}: ${JSON.stringify(login)}`).toBe(0);
      }
      const login = await loginAt(copy, userName);
      expect(login.code, JSON.stringify(login)).toBe(0);
      expect((await loginAt(copy, afterBackup)).code).not.toBe(0);
      await stopServer(copy);
    },
  );

  it("says that a bucket's contents are not in the archive (FILES_URL)", { timeout: 120_000 }, async () => {
    const dataDir = scratchDir("bsn-backup-bucket-");
    const file = path.join(scratchDir("bsn-backups-"), "bucket.tar.gz");
    const made = await npmRun("backup", [file], {
      DATA_DIR: dataDir,
      FILES_URL: "s3+http://KEYID:SECRETKEY@127.0.0.1:9/bsn-files/portal",
    });
    expect(made.code, made.stderr).toBe(0);
    expect(made.stdout).toContain(
      "Stored files: their bytes are NOT in this archive. They are in the bucket of FILES_URL (http://127.0.0.1:9/bsn-files/portal/)",
    );
    expect(made.stdout).not.toContain("SECRETKEY");
    const target = path.join(scratchDir("bsn-backup-dst-"), "data");
    const restored = await npmRun("restore", [file, target], {});
    expect(restored.code, restored.stderr).toBe(0);
    expect(restored.stdout).toContain("Stored files: their bytes are NOT in this archive.");
  });
});
