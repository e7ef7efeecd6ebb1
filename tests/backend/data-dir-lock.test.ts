import type { ChildProcess } from "node:child_process";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { DEMO_PASSWORD } from "./in-process.ts";
import {
  fingerprint,
  loginAt,
  registerAndActivate,
  spawnServer,
  startedDataDir,
  startServer,
  stopServer,
  type Server,
} from "./server-process.ts";
import { scratchDir } from "../support/scratch.ts";

// docs/decisions/017-data-dir-lock.md: a second server on the same DATA_DIR is refused before it opens the
// embedded database; the lock dies with its holder, so a server killed with -9 starts again, with every
// acknowledged write. Embedded data only (with DATABASE_URL no lock is taken).
describe.skipIf(Boolean(process.env.DATABASE_URL))("one server per DATA_DIR", () => {
  const servers: Server[] = [];
  const others: ChildProcess[] = [];
  afterAll(async () => {
    await Promise.all(servers.map((s) => stopServer(s, "SIGKILL")));
    for (const child of others) if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
  });

  it(
    "refuses a second server without touching pgdata; after kill -9 the first starts again with its writes",
    { timeout: 400_000 },
    async () => {
      // A data directory a server has started on before (the test is about the next starts).
      const dataDir = await startedDataDir(scratchDir("bsn-lock-"));
      const first = await startServer(dataDir);
      servers.push(first);
      const pgdata = path.join(dataDir, "pgdata");
      const before = fingerprint(pgdata);
      expect(Object.keys(before).length).toBeGreaterThan(100);

      const second = await spawnServer(dataDir);
      others.push(second.child);
      const refused = await Promise.race([
        second.exited,
        new Promise<undefined>((resolve) => setTimeout(resolve, 60_000)),
      ]);
      if (!refused) second.child.kill("SIGKILL");
      expect(refused, "the second server was still running after 60 s: it was not refused").toBeDefined();
      if (!refused) return;
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(
        new RegExp(
          `DATA_DIR ${dataDir} is in use by process ${first.pid} started at \\S+; stop it first or use another DATA_DIR`,
        ),
      );
      expect(refused.stderr).not.toMatch(/\n\s+at /); // a message, not a stack trace
      await expect(fetch(`${second.baseUrl}/healthz`)).rejects.toThrow(); // it never served
      expect(fingerprint(pgdata)).toEqual(before);
      expect((await fetch(`${first.baseUrl}/healthz`)).status).toBe(200); // the first goes on untouched

      // Acknowledged writes, then a crash at once.
      const userName = await registerAndActivate(first);
      await stopServer(first, "SIGKILL");

      const again = await startServer(dataDir);
      servers.push(again);
      const login = await loginAt(again, userName);
      expect(login.code, JSON.stringify(login)).toBe(0);
      expect((await loginAt(again, "demoperson", DEMO_PASSWORD)).code).toBe(0);
      await stopServer(again);
      expect(again.child.exitCode).toBe(0);
    },
  );
});
