import { existsSync, mkdirSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import {
  acquireDataDirLock,
  DataDirInUseError,
  embeddedEngines,
  lockPaths,
  MAX_SOCKET_PATH,
  readHolder,
  requestHolder,
  socketPath,
} from "#backend/kit/data-dir-lock.ts";
import { hold, startHolder, stop, type Holding } from "./lock-processes.ts";
import { scratchDir } from "../support/scratch.ts";

// docs/decisions/017-data-dir-lock.md: one process owns DATA_DIR; the kernel frees the lock when it dies.
const fresh = () => scratchDir("bsn-lock-");
const running: Holding[] = [];
afterEach(async () => {
  await Promise.all(running.splice(0).map((h) => stop(h, "SIGKILL")));
});
async function holding(dataDir: string, mode: "plain" | "serve" = "plain") {
  const h = await hold(dataDir, mode);
  running.push(h);
  return h;
}

describe("the DATA_DIR lock", () => {
  it(
    "refuses a second process, naming the holder; after kill -9 of the holder the next one takes it",
    { timeout: 30_000 },
    async () => {
      const dataDir = fresh();
      const first = await holding(dataDir, "serve");
      const holder = readHolder(dataDir)!;
      expect(holder.pid).toBe(first.pid);

      const second = await startHolder(dataDir).exited;
      expect(second.code).toBe(3);
      expect(second.line).toBe(
        `REFUSED DATA_DIR ${path.resolve(dataDir)} is in use by process ${first.pid} started at ${holder.startedAt}; stop it first or use another DATA_DIR`,
      );

      await stop(first, "SIGKILL");
      // What the dead holder left: its socket file and holder.json. Neither stands in the way.
      expect(existsSync(lockPaths(dataDir).socket)).toBe(true);
      const third = await holding(dataDir, "serve");
      expect(readHolder(dataDir)!.pid).toBe(third.pid);
      const { reply, connection } = await requestHolder(dataDir, { op: "ping" });
      connection.destroy();
      expect(reply).toEqual({ ok: true, pid: third.pid });
    },
  );

  it("lets exactly one of several processes started at once hold it", { timeout: 60_000 }, async () => {
    for (let round = 0; round < 2; round += 1) {
      const dataDir = fresh();
      const starts = [0, 1, 2].map(() => startHolder(dataDir));
      const lines = await Promise.all(starts.map((s) => s.firstLine));
      const held = lines.filter((l) => l.startsWith("HELD "));
      expect(held, lines.join("\n")).toHaveLength(1);
      const winner = Number(held[0].slice(5));
      for (const line of lines.filter((l) => !l.startsWith("HELD ")))
        expect(line).toContain(`is in use by process ${winner} started at`);
      const winning = starts.find((s) => s.child.pid === winner)!;
      running.push({ child: winning.child, pid: winner });
      await Promise.all(starts.filter((s) => s !== winning).map((s) => s.exited));
    }
  });

  it(
    "is shared within one process and given back by its last release; a clean release removes socket and holder file",
    { timeout: 30_000 },
    async () => {
      const dataDir = fresh();
      const a = await acquireDataDirLock(dataDir);
      const b = await acquireDataDirLock(dataDir);
      await a.serve(async () => false);
      await a.release();
      await a.release(); // twice is once
      expect((await startHolder(dataDir).exited).code).toBe(3);
      await b.release();
      expect(existsSync(lockPaths(dataDir).socket)).toBe(false);
      expect(existsSync(lockPaths(dataDir).holderFile)).toBe(false);
      const other = await holding(dataDir);
      await expect(acquireDataDirLock(dataDir)).rejects.toThrow(DataDirInUseError);
      await expect(acquireDataDirLock(dataDir)).rejects.toThrow(`is in use by process ${other.pid} started at`);
    },
  );

  it("answers requests it does not know, and bad ones, without ending the holder", async () => {
    const dataDir = fresh();
    const lock = await acquireDataDirLock(dataDir);
    try {
      await lock.serve(async () => false);
      const unknown = await requestHolder(dataDir, { op: "format-disk" });
      unknown.connection.destroy();
      expect(unknown.reply).toEqual({ ok: false, message: "unknown request format-disk" });
      const who = await requestHolder(dataDir, { op: "holder" });
      who.connection.destroy();
      expect(who.reply).toMatchObject({ ok: true, holder: { pid: process.pid } });
    } finally {
      await lock.release();
    }
  });

  it("keeps the socket path short: a long DATA_DIR gets one under the temporary directory, one per real folder", async () => {
    const base = fresh();
    expect(socketPath(base)).toBe(path.join(base, "lock", "server.sock"));
    const long = path.join(base, "a-rather-long-folder-name-for-the-data-of-this-portal", "x".repeat(60));
    const other = path.join(base, "another-rather-long-folder-name-for-the-data-of-this-portal", "y".repeat(60));
    mkdirSync(long, { recursive: true });
    mkdirSync(other, { recursive: true });
    symlinkSync(
      long,
      path.join(base, "link-to-the-long-one-with-a-name-long-enough-to-need-the-fallback-itself-too-xx"),
    );
    const viaLink = path.join(base, "link-to-the-long-one-with-a-name-long-enough-to-need-the-fallback-itself-too-xx");
    expect(Buffer.byteLength(path.join(long, "lock/server.sock"))).toBeGreaterThan(MAX_SOCKET_PATH);
    expect(Buffer.byteLength(socketPath(long))).toBeLessThanOrEqual(MAX_SOCKET_PATH);
    expect(socketPath(long).startsWith(tmpdir())).toBe(true);
    expect(socketPath(viaLink)).toBe(socketPath(long));
    expect(socketPath(other)).not.toBe(socketPath(long));

    const lock = await acquireDataDirLock(long);
    try {
      mkdirSync(path.dirname(socketPath(long)), { recursive: true, mode: 0o700 });
      writeFileSync(socketPath(long), "left by a dead holder");
      await lock.serve(async () => false);
      const who = await requestHolder(long, { op: "holder" });
      who.connection.destroy();
      expect(who.reply).toMatchObject({ ok: true, holder: { pid: process.pid } });
    } finally {
      await lock.release();
    }
    expect(existsSync(socketPath(long))).toBe(false);
  });

  it("warns and keeps the lock when its socket cannot be created", { timeout: 30_000 }, async () => {
    const dataDir = fresh();
    const lock = await acquireDataDirLock(dataDir);
    try {
      mkdirSync(lockPaths(dataDir).socket); // a folder where the socket should go
      const warn = vi.spyOn(console, "warn").mockImplementation(() => undefined);
      await lock.serve(async () => false);
      expect(warn).toHaveBeenCalledWith(
        expect.stringMatching(/cannot listen on .*server\.sock \(npm run backup cannot reach this server\)/),
      );
      expect((await startHolder(dataDir).exited).code).toBe(3);
    } finally {
      await lock.release();
    }
  });

  it("is taken at start only when some embedded engine keeps data under DATA_DIR", () => {
    expect(embeddedEngines({ databaseUrl: undefined })).toEqual(["database (PGlite)"]);
    expect(embeddedEngines({ databaseUrl: "postgres://u@127.0.0.1/db" })).toEqual([]);
  });

  it("ends a refused server with the message and exit code 1, not a stack trace", { timeout: 30_000 }, async () => {
    const dataDir = fresh();
    const first = await holding(dataDir);
    const refused = await startHolder(dataDir, "server").exited;
    expect(refused.code).toBe(1);
    expect(refused.stdout).toBe("");
    expect(refused.stderr.trim()).toMatch(
      new RegExp(
        `^DATA_DIR .* is in use by process ${first.pid} started at \\S+; stop it first or use another DATA_DIR$`,
      ),
    );
  });
});
