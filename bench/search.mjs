// The console's search box on a grown database (`npm run bench:search`; issue 35 §2, docs/decisions/091): the built
// portal on a throwaway PostgreSQL (scripts/pg-throwaway.sh) with the demo data, then GENERATED more rows copied from
// the demo's own (bills, recharges, messages), spread over every account, so democompany holds its share
// and the other accounts the rest. Each query of QUERIES is sent one at a time (ROUNDS times, after a warm-up) as
// democompany, and its latency is measured end to end (HTTP, every finder, JSON). Budget: an exact id (a number, a
// hash, a CID, an APPCode) answers with a p95 under EXACT_P95_BUDGET_MS. Prints a table, writes
// test-results/bench/search.json, exits 1 when the budget is broken.
import { spawnSync } from "node:child_process";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import pg from "pg";
import { benchEnv } from "./keyed-chain.mjs";
import { benchDir, children, demoToken, freePort, root, serve, stop, vueapi } from "./servers.mjs";

const GENERATED = Number(process.env.BENCH_SEARCH_ROWS ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 60);
const EXACT_P95_BUDGET_MS = Number(process.env.BENCH_SEARCH_P95_MS ?? 100);
/** The share of the generated rows each table gets; `vary`: text columns made distinct besides the unique ones. */
const SHARES = { bills: 0.4, payments: 0.3, messages: 0.3 };
const VARY = {};

const dir = benchDir("bsn-bench-search-");
// Its own directory: the server runs as the postgres user when this runs as root (scripts/pg-throwaway.sh).
const pgDir = benchDir("bsn-bench-search-pg-");
const throwaway = (...args) => {
  const run = spawnSync("bash", [path.join(root, "scripts/pg-throwaway.sh"), ...args], { encoding: "utf8" });
  if (run.status !== 0) throw new Error(`pg-throwaway ${args[0]}: ${run.stderr}`);
  return run.stdout.trim();
};
const databaseUrl = throwaway("start", pgDir, String(await freePort()));
// Before the directories go (their handlers were registered first): a server whose folder is gone cannot be stopped.
process.prependOnceListener("exit", () => throwaway("stop", pgDir));

const server = await serve({
  ...benchEnv(path.join(dir, "data"), "bench-search-secret-0123456789abcdef"),
  DATABASE_URL: databaseUrl,
  PAYMENT_WEBHOOK_SECRET: "bench-search-webhook-0123456789abcdef",
  NODE_ENV: "test",
  TEST_CAPTCHA: "BENCH1",
});
const token = await demoToken(server.base, "democompany");

// Grow the database: each table's rows copied from its own demo rows, the unique text columns suffixed, the owner
// spread over every account (round robin), so the indexes and each account's share look like a grown portal.
const db = new pg.Client({ connectionString: databaseUrl });
await db.connect();
const ids = async (sql) => (await db.query(sql)).rows.map((r) => r.id);
/** Owner columns spread round robin over every owner there is. */
const SPREAD = {
  user_id: await ids("select id from users order by id"),
};

async function grow(table, count) {
  const { rows: columns } = await db.query(
    `select column_name, data_type, is_nullable, column_default from information_schema.columns
      where table_schema = 'public' and table_name = $1 order by ordinal_position`,
    [table],
  );
  const { rows: uniques } = await db.query(
    `select a.attname from pg_index i join pg_attribute a on a.attrelid = i.indrelid and a.attnum = any(i.indkey)
      where i.indrelid = $1::regclass and i.indisunique and not i.indisprimary`,
    [table],
  );
  const unique = new Set(uniques.map((u) => u.attname));
  const kept = columns.filter((c) => !(c.column_default ?? "").startsWith("nextval("));
  const params = [];
  const values = kept.map((c) => {
    const owners = SPREAD[c.column_name];
    if (owners) {
      params.push(owners);
      const p = `$${params.length}::int[]`;
      return `(${p})[1 + ((g + t.id) % cardinality(${p}))]`;
    }
    if ((VARY[table] ?? []).includes(c.column_name)) return `t.${c.column_name} || 'g' || g`;
    if (!unique.has(c.column_name)) return `t.${c.column_name}`;
    if (c.data_type === "text") return `t.${c.column_name} || '-g' || g`;
    if (c.is_nullable === "YES") return "null";
    throw new Error(`${table}.${c.column_name}: a unique ${c.data_type} this bench cannot generate`);
  });
  const names = kept.map((c) => c.column_name).join(", ");
  const { rows } = await db.query(`select count(*)::int as n from ${table}`);
  if (rows[0].n === 0) throw new Error(`${table}: no demo row to copy`);
  // Each pass copies every demo row once per g, so the pass count is the rows wanted over the rows there.
  const per = Math.ceil(count / rows[0].n);
  await db.query(
    `insert into ${table} (${names})
       select ${values.join(", ")} from (select * from ${table}) t cross join generate_series(1, ${per}) g
       limit ${count}`,
    params,
  );
  return count;
}

const started = Date.now();
let generated = 0;
for (const [table, share] of Object.entries(SHARES)) generated += await grow(table, Math.round(GENERATED * share));
await db.query("analyze");
const growSeconds = (Date.now() - started) / 1000;

// What democompany searches for: its own records by their ids, and words.
const first = async (sql) => (await db.query(sql)).rows[0];
const company = await first("select id from users where user_name = 'democompany'");
const bill = await first(`select bill_no from bills where user_id = ${company.id} order by id desc limit 1`);
const payment = await first(`select payment_no from payments where user_id = ${company.id} order by id desc limit 1`);
const app = await first(`select app_code from apps where user_id = ${company.id} limit 1`);
const cid = await first(
  `select f.cid from ipfs_files f join ipfs_services s on s.id = f.service_id where s.user_id = ${company.id} limit 1`,
);
const contract = await first(
  `select tx_hash from pub_chain_contracts where user_id = ${company.id} and tx_hash is not null limit 1`,
);
await db.end();

const QUERIES = [
  { name: "bill number", q: bill?.bill_no, exact: true },
  { name: "recharge number", q: payment?.payment_no, exact: true },
  { name: "APPCode", q: app?.app_code, exact: true },
  { name: "IPFS CID", q: cid?.cid, exact: true },
  { name: "transaction hash", q: contract?.tx_hash, exact: true },
  { name: "DDC token ID", q: "#1", exact: true },
  { name: "unknown number", q: "BN20991231000000", exact: true },
  { name: "a word (Supply)", q: "Supply", exact: false },
  { name: "Chinese words (区块链)", q: "区块链", exact: false },
].filter((x) => x.q);

/** One round trip of `send`, ROUNDS times after a warm-up: sorted milliseconds and the last answer. */
async function timed(send) {
  const times = [];
  let last;
  for (let i = 0; i < ROUNDS + 5; i++) {
    const t0 = performance.now();
    last = await send();
    if (i >= 5) times.push(performance.now() - t0);
  }
  return { times: times.sort((a, b) => a - b), last };
}

const percentile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
const row = (name, exact, hits, times) => ({
  name,
  exact,
  hits,
  p50: percentile(times, 50),
  p95: percentile(times, 95),
  max: times.at(-1),
});
// Beside them, the same token's cheapest signed-in read (one small query): what any /vueapi call costs here.
const baseline = await timed(() => vueapi(server.base, "/sys/alerts/settings", {}, token));
const results = [row("baseline: a one-query read", false, 0, baseline.times)];
for (const { name, q, exact } of QUERIES) {
  const { times, last } = await timed(() => vueapi(server.base, "/sys/search", { q, userLanguage: "en" }, token));
  results.push(row(name, exact, last.hits.length, times));
}

for (const child of children) await stop(child);

const fmt = (n) => n.toFixed(1).padStart(8);
console.log(`\n${generated.toLocaleString("en")} rows generated in ${growSeconds.toFixed(1)} s; ${ROUNDS} rounds each`);
console.log(
  `${"query".padEnd(26)}${"hits".padStart(6)}${"p50 ms".padStart(8)}${"p95 ms".padStart(8)}${"max".padStart(8)}`,
);
for (const r of results)
  console.log(`${r.name.padEnd(26)}${String(r.hits).padStart(6)}${fmt(r.p50)}${fmt(r.p95)}${fmt(r.max)}`);
const broken = results.filter((r) => r.exact && r.p95 > EXACT_P95_BUDGET_MS);
mkdirSync(path.join(root, "test-results/bench"), { recursive: true });
writeFileSync(
  path.join(root, "test-results/bench/search.json"),
  JSON.stringify({ generated, rounds: ROUNDS, budgetP95Ms: EXACT_P95_BUDGET_MS, results }, null, 2),
);
if (broken.length) {
  console.log(`Budget broken: exact ids over ${EXACT_P95_BUDGET_MS} ms p95: ${broken.map((r) => r.name).join(", ")}`);
  process.exit(1);
}
console.log(`Budget kept: every exact id under ${EXACT_P95_BUDGET_MS} ms p95.`);
process.exit(0);
