import { mkdirSync } from "node:fs";
import path from "node:path";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import type { BackendEnv } from "#backend/env.ts";
import { acquireDataDirLock } from "#backend/kit/data-dir-lock.ts";
import { applyDatabaseGuards } from "./guards.ts";
import { PGliteThread } from "./pglite-proxy.ts";

/** The database, typed without a relational schema: every query names its tables (db/tables.ts and each domain's tables.ts). */
export type Db = PgDatabase<PgQueryResultHKT>;
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const MIGRATIONS = path.resolve(process.cwd(), "backend/db/migrations");
/** Any fixed number: the advisory lock several processes take to migrate one at a time. */
const MIGRATION_LOCK = 7_305_512_001;

export type Database = { db: Db; close: () => Promise<void>; kind: "pglite" | "postgres" };

/** Opens PGlite under DATA_DIR/pgdata, or PostgreSQL at DATABASE_URL, and applies the migrations and the guards (db/guards.ts). */
export async function openDatabase(env: BackendEnv): Promise<Database> {
  if (env.databaseUrl) {
    const { default: pg } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const pool = new pg.Pool({ connectionString: env.databaseUrl, max: 10 });
    // An idle connection the server ends (restart, failover) must not take the process down.
    pool.on("error", (error) => console.error("database connection error:", error.message));
    const db = drizzle(pool) as unknown as Db;
    const client = await pool.connect();
    try {
      await client.query("SELECT pg_advisory_lock($1)", [MIGRATION_LOCK]);
      await migrate(drizzle(client), { migrationsFolder: MIGRATIONS });
      await applyDatabaseGuards(drizzle(client) as unknown as Db);
    } finally {
      await client.query("SELECT pg_advisory_unlock($1)", [MIGRATION_LOCK]).catch(() => undefined);
      client.release();
    }
    return { db, close: () => pool.end(), kind: "postgres" };
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  const dir = path.join(env.dataDir, "pgdata");
  const lock = await acquireDataDirLock(env.dataDir); // one process per DATA_DIR (docs/decisions/017); shared within it
  mkdirSync(dir, { recursive: true });
  // Its SQL runs in a worker thread by default (docs/decisions/031): Drizzle talks to the thread's proxy.
  const client =
    env.pgliteThread === "worker"
      ? ((await PGliteThread.open(dir)) as unknown as InstanceType<typeof PGlite>)
      : await PGlite.create(dir);
  const db = drizzle(client);
  try {
    await migrate(db, { migrationsFolder: MIGRATIONS });
    await applyDatabaseGuards(db as unknown as Db);
  } catch (error) {
    await client.close().catch(() => undefined);
    await lock.release();
    throw error;
  }
  return { db: db as unknown as Db, close: () => client.close().finally(() => lock.release()), kind: "pglite" };
}
