// Writes tests/fixtures/release-<tag>.sql: the demo database of the current schema as data-only SQL (one
// json_populate_recordset INSERT per table, then the serial sequences), for tests/backend/migrations.test.ts.
// Run it once per release: `npx tsx scripts/release-data.ts`; the test applies the release's migrations,
// loads this data, then every migration since, and checks that nothing was lost.
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { readBackendEnv } from "#backend/env.ts";
import { createVueapi } from "#backend/index.ts";

const journal = JSON.parse(readFileSync("backend/db/migrations/meta/_journal.json", "utf8")) as {
  entries: { tag: string }[];
};
const tag = journal.entries.at(-1)!.tag;
const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-release-"));
const service = await createVueapi({
  ...readBackendEnv({ ...process.env, DATABASE_URL: undefined, DATA_DIR: dataDir, NODE_ENV: "test" }),
  seedDemo: true,
  jobsIntervalMs: 0,
});
const db = service.services.db;
const rowsOf = async (query: ReturnType<typeof sql>) =>
  ((await db.execute(query)) as unknown as { rows: Record<string, unknown>[] }).rows;
const tables = await rowsOf(
  sql`SELECT table_name AS t FROM information_schema.tables WHERE table_schema = 'public' AND table_type = 'BASE TABLE' ORDER BY table_name`,
);
const out = [
  `-- The demo data of migration ${tag}, written by scripts/release-data.ts. Data only.`,
  "SET session_replication_role = replica;",
];
for (const { t } of tables as { t: string }[]) {
  const [{ json }] = (await rowsOf(
    sql.raw(`SELECT coalesce(json_agg(x), '[]'::json)::text AS json FROM "${t}" x`),
  )) as { json: string }[];
  if (json === "[]") continue;
  out.push(`INSERT INTO "${t}" SELECT * FROM json_populate_recordset(null::"${t}", $json$${json}$json$);`);
  const serials = await rowsOf(
    sql.raw(
      `SELECT column_name AS c, pg_get_serial_sequence('"${t}"', column_name) AS s FROM information_schema.columns WHERE table_schema = 'public' AND table_name = '${t}'`,
    ),
  );
  for (const { c, s } of serials as { c: string; s: string | null }[])
    if (s) out.push(`SELECT setval('${s}', (SELECT max("${c}") FROM "${t}"));`);
}
out.push("SET session_replication_role = origin;");
writeFileSync(`tests/fixtures/release-${tag}.sql`, out.join("\n") + "\n");
await service.close();
console.log(`tests/fixtures/release-${tag}.sql: ${tables.length} tables`);
