import { cpSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readBackendEnv } from "#backend/env.ts";
import { createVueapi } from "#backend/index.ts";
import { callVueapi, loginToken } from "./in-process.ts";
import { SHIPPED_PACKAGES } from "#backend/domains/market/samples.ts";

/**
 * A database created by the last release migrates with its data intact (docs/decisions/018). The release's
 * demo data is kept as data-only SQL (tests/fixtures/release-<tag>.sql, written by scripts/release-data.ts);
 * the test applies the migrations up to <tag>, loads the data, then opens the current service on it (which
 * applies every migration since) and compares every table.
 */
const root = path.resolve(__dirname, "../..");
const MIGRATIONS = path.join(root, "backend/db/migrations");
const fixture = readdirSync(path.join(root, "tests/fixtures"))
  .filter((f) => /^release-.*\.sql$/.test(f))
  .sort()
  .at(-1)!;
const releaseTag = fixture.replace(/^release-|\.sql$/g, "");

/** A copy of the migrations folder that stops at the release's last migration. */
function releaseMigrations(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "bsn-release-migrations-"));
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === releaseTag);
  expect(last).toBeGreaterThanOrEqual(0);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

type Rows = { rows: Record<string, unknown>[] };
const COUNT_TABLES = sql`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`;

/** Rows per table, but for `jobs`: the new release may schedule its own recurring jobs at start. */
async function counts(execute: (query: ReturnType<typeof sql>) => Promise<unknown>): Promise<Record<string, number>> {
  const out: Record<string, number> = {};
  for (const { t } of ((await execute(COUNT_TABLES)) as Rows).rows as { t: string }[]) {
    if (t === "jobs") continue;
    const [{ n }] = ((await execute(sql.raw(`SELECT count(*)::int AS n FROM "${t}"`))) as Rows).rows as { n: number }[];
    out[t] = n;
  }
  return out;
}

describe(`a database of the release (${releaseTag})`, () => {
  it("migrates to the current schema with every row kept, and its accounts log in", async () => {
    const data = readFileSync(path.join(root, "tests/fixtures", fixture), "utf8");
    const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-upgrade-"));
    let databaseUrl: string | undefined;
    let before: Record<string, number>;
    // The release's traffic in MB (docs/decisions/057 moves it to bytes in, the publisher's own).
    const TRAFFIC_MB = sql`SELECT coalesce(sum(traffic_mb), 0)::text AS mb FROM usage_daily`;
    let trafficMb = 0;
    if (process.env.DATABASE_URL) {
      // A database of its own on the test server, dropped with the server at the end of the run.
      const { default: pg } = await import("pg");
      const { drizzle } = await import("drizzle-orm/node-postgres");
      const { migrate } = await import("drizzle-orm/node-postgres/migrator");
      const name = `bsn_upgrade_${Date.now().toString(36)}`;
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`CREATE DATABASE ${name}`);
      await admin.end();
      const url = new URL(process.env.DATABASE_URL);
      url.pathname = `/${name}`;
      databaseUrl = url.toString();
      const client = new pg.Client({ connectionString: databaseUrl });
      await client.connect();
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: releaseMigrations() });
      await client.query(data);
      before = await counts((q) => db.execute(q));
      trafficMb = Number(((await db.execute(TRAFFIC_MB)) as unknown as Rows).rows[0].mb);
      await client.end();
    } else {
      const { PGlite } = await import("@electric-sql/pglite");
      const { drizzle } = await import("drizzle-orm/pglite");
      const { migrate } = await import("drizzle-orm/pglite/migrator");
      mkdirSync(path.join(dataDir, "pgdata"), { recursive: true });
      const client = await PGlite.create(path.join(dataDir, "pgdata"));
      const db = drizzle(client);
      await migrate(db, { migrationsFolder: releaseMigrations() });
      await client.exec(data);
      before = await counts((q) => db.execute(q));
      trafficMb = Number(((await db.execute(TRAFFIC_MB)) as unknown as Rows).rows[0].mb);
      await client.close();
    }
    expect(before.users).toBeGreaterThanOrEqual(4);
    expect(before.bills).toBeGreaterThan(0);

    const env = readBackendEnv({
      ...process.env,
      DATABASE_URL: databaseUrl,
      DATA_DIR: dataDir,
      NODE_ENV: "test",
      TEST_CAPTCHA: "UPGRADE1",
      SESSION_SECRET: "upgrade-test-session-secret",
      PAYMENT_WEBHOOK_SECRET: "upgrade-test-webhook-secret",
    });
    const service = await createVueapi({ ...env, jobsIntervalMs: 0 });
    try {
      const after = await counts((q) => service.services.db.execute(q));
      // The start writes the chaincode market's shipped packages (docs/decisions/042): one zip each in `files`.
      const written: Record<string, number> = { files: SHIPPED_PACKAGES.length };
      for (const [table, n] of Object.entries(before))
        expect({ table, rows: after[table] }).toEqual({ table, rows: n + (written[table] ?? 0) });
      const [moved] = (
        (await service.services.db.execute(
          sql`SELECT sum(bytes_in)::text AS bytes, sum(bytes_out)::text AS out, count(*) FILTER (WHERE app_id <> 0 OR join_id <> 0 OR method <> '' OR caller_id IS NOT NULL)::int AS named FROM usage_daily`,
        )) as Rows
      ).rows as { bytes: string; out: string; named: number }[];
      expect(trafficMb).toBeGreaterThan(0);
      expect(moved).toEqual({ bytes: String(trafficMb * 1024 * 1024), out: "0", named: 0 });
      // The release's accounts and records are there and usable.
      const token = await loginToken(service, "democompany");
      const list = await callVueapi(service, "/sys/chainAppInfo/publishedList", {}, token);
      expect(list.code).toBe(0);
      expect(list.data.page.total).toBe(3);
      const bills = await callVueapi(service, "/sys/system/clientInfo/h5billList", {}, token);
      expect(bills.data.page.total).toBeGreaterThan(0);
      const operator = await loginToken(service, "demooperator");
      const company = (await callVueapi(service, "/main/getClientInfo", {}, token)).data.userId;
      const ledger = await callVueapi(service, "/ops/ledger/verify", { userId: company }, operator);
      expect(ledger.data).toMatchObject({ consistent: true });
      expect(ledger.data.entries).toBeGreaterThan(0);
    } finally {
      await service.close();
    }
  }, 180_000);
});
