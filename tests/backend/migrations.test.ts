import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { readBackendEnv } from "#backend/env.ts";
import { createVueapi } from "#backend/index.ts";
import { callVueapi, loginToken } from "./in-process.ts";
import { SHIPPED_PACKAGES } from "#backend/domains/market/samples.ts";
import { olderDatabase } from "../support/upgrade-db.ts";
import { scratchDir } from "../support/scratch.ts";

/**
 * A database created by the last release migrates with its data intact (docs/decisions/018). The release's
 * demo data is kept as data-only SQL (tests/fixtures/release-<tag>.sql, written by scripts/release-data.ts);
 * the test applies the migrations up to <tag>, loads the data, then opens the current service on it (which
 * applies every migration since) and compares every table.
 */
const root = path.resolve(__dirname, "../..");
const fixture = readdirSync(path.join(root, "tests/fixtures"))
  .filter((f) => /^release-.*\.sql$/.test(f))
  .sort()
  .at(-1)!;
const releaseTag = fixture.replace(/^release-|\.sql$/g, "");

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
    const dataDir = scratchDir("bsn-upgrade-");
    // The release's traffic in MB (docs/decisions/057 moves it to bytes in, the publisher's own).
    const TRAFFIC_MB = sql`SELECT coalesce(sum(traffic_mb), 0)::text AS mb FROM usage_daily`;
    const ENTERPRISES = sql`SELECT count(*)::int AS n FROM users WHERE user_type = 2`;
    const { databaseUrl, inspected } = await olderDatabase(
      dataDir,
      [{ migrateTo: releaseTag }, { sql: data }],
      async (execute) => ({
        counts: await counts(execute),
        trafficMb: Number(((await execute(TRAFFIC_MB)) as unknown as Rows).rows[0].mb),
        enterprises: Number(((await execute(ENTERPRISES)) as unknown as Rows).rows[0].n),
      }),
    );
    const before = inspected!.counts;
    const trafficMb = inspected!.trafficMb;
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
      // Migration 0036 carries every enterprise account over to certified (10), each with an audit entry
      // (docs/decisions/071).
      const enterprises = inspected!.enterprises;
      expect(enterprises).toBeGreaterThan(0);
      const written: Record<string, number> = { files: SHIPPED_PACKAGES.length, audit_log: enterprises };
      for (const [table, n] of Object.entries(before))
        expect({ table, rows: after[table] }).toEqual({ table, rows: n + (written[table] ?? 0) });
      const [moved] = (
        (await service.services.db.execute(
          sql`SELECT sum(bytes_in)::text AS bytes, sum(bytes_out)::text AS out, count(*) FILTER (WHERE app_id <> 0 OR join_id <> 0 OR method <> '' OR caller_id IS NOT NULL)::int AS named FROM usage_daily`,
        )) as Rows
      ).rows as { bytes: string; out: string; named: number }[];
      expect(trafficMb).toBeGreaterThan(0);
      expect(moved).toEqual({ bytes: String(trafficMb * 1024 * 1024), out: "0", named: 0 });
      const [carried] = (
        (await service.services.db.execute(
          sql`SELECT (SELECT count(*)::int FROM users WHERE user_type = 2 AND cert_state = 10) AS certified, (SELECT count(*)::int FROM audit_log WHERE action = 'certification.migrated' AND target_type = 'enterpriseAccount') AS audited`,
        )) as Rows
      ).rows as { certified: number; audited: number }[];
      expect(carried).toEqual({ certified: enterprises, audited: enterprises });
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
