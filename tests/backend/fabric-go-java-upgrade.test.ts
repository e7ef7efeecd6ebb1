import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readBackendEnv } from "#backend/env.ts";
import { createVueapi } from "#backend/index.ts";
import { jobs, messages } from "#backend/db/tables.ts";
import { callVueapi, loginToken } from "./in-process.ts";
import { olderDatabase } from "../support/upgrade-db.ts";
import { scratchDir } from "../support/scratch.ts";

/**
 * docs/decisions/069 on an upgraded database (PGlite, or PostgreSQL with DATABASE_URL): the release's data (0005),
 * whose running service 1 is a Fabric service with Go packages, migrated to 0034. Opening the current service
 * applies the migration that schedules the one-time notice; the job tells the publisher, once, that the service
 * keeps its state (Running, bookings, bills) until a Fabric network is connected, and the deployment view says so.
 */
const root = path.resolve(__dirname, "../..");

describe("an upgraded database with a running Go Fabric service (docs/decisions/069)", () => {
  it("tells its publisher once and keeps it running; the deployment view says it awaits a network", async () => {
    const data = readFileSync(path.join(root, "tests/fixtures/release-0005_operator_suspension.sql"), "utf8");
    const dataDir = scratchDir("bsn-069-");
    const { databaseUrl } = await olderDatabase(dataDir, [
      { migrateTo: "0005_operator_suspension" },
      { sql: data },
      { migrateTo: "0034_fabric_backfill" },
    ]);
    const env = readBackendEnv({
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      NODE_ENV: "test",
      TEST_CAPTCHA: "UPGRADE9",
      SESSION_SECRET: "upgrade-069-session-secret",
      PAYMENT_WEBHOOK_SECRET: "upgrade-069-webhook-secret",
      PUBLIC_URL: "https://portal.test",
    });
    const service = await createVueapi({ ...env, jobsIntervalMs: 0 });
    try {
      const db = service.services.db;
      expect(await db.select().from(jobs).where(eq(jobs.kind, "service.fabricGoJavaNotice"))).toHaveLength(1);
      await service.runJobs();
      const [job] = await db.select().from(jobs).where(eq(jobs.kind, "service.fabricGoJavaNotice"));
      expect(job.doneAt, job.lastError ?? "").not.toBeNull();
      const told = await db
        .select()
        .from(messages)
        .where(and(eq(messages.userId, 2), eq(messages.textKey, "messages.service.awaitsFabricNetwork")));
      expect(told.map((m) => m.refId)).toEqual([1]);
      expect(told[0].params).toMatchObject({ name: "Cold-chain traceability", languages: "go" });
      await service.runJobs();
      expect(
        await db.select().from(messages).where(eq(messages.textKey, "messages.service.awaitsFabricNetwork")),
      ).toHaveLength(1);

      const company = await loginToken(service, "democompany");
      const detail = (await callVueapi(service, "/sys/chainAppInfo/publishedDetail", { appId: 1 }, company)).data;
      expect(detail.verState).toBe(25);
      expect(detail.deployment.length).toBeGreaterThan(0);
      expect(detail.deployment.every((n: { status: string }) => n.status === "awaitingNetwork")).toBe(true);
    } finally {
      await service.close();
    }
  }, 240_000);
});
