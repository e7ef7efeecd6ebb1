import { cpSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { SQL } from "drizzle-orm";
import { scratchDir } from "./scratch.ts";

/**
 * Databases as an older release left them, for the upgrade tests (docs/decisions/018): the migrations applied up
 * to a tag, data loaded, more migrations, more SQL, in the order given. PostgreSQL when DATABASE_URL is set (a
 * database of its own on that server, dropped with the server at the end of the run), else PGlite in
 * `dataDir/pgdata`, where the service under test opens it.
 */
const MIGRATIONS = path.resolve(__dirname, "../../backend/db/migrations");

/** A copy of the migrations folder that stops at `tag` (which must exist). */
export function migrationsUpTo(tag: string): string {
  const dir = scratchDir("bsn-migrations-");
  cpSync(MIGRATIONS, dir, { recursive: true });
  const journalPath = path.join(dir, "meta/_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { tag: string }[] };
  const last = journal.entries.findIndex((e) => e.tag === tag);
  if (last < 0) throw new Error(`no migration tagged ${tag}`);
  journal.entries = journal.entries.slice(0, last + 1);
  writeFileSync(journalPath, JSON.stringify(journal));
  return dir;
}

/** One step: migrate up to a tag, or run SQL (several statements allowed). */
export type Step = { migrateTo: string } | { sql: string };
export type Execute = (query: SQL) => Promise<unknown>;

/**
 * Builds the database step by step, then hands `inspect` a way to query it before it is closed. Answers the
 * DATABASE_URL the service under test must use (undefined: PGlite in `dataDir`) and what `inspect` answered.
 */
export async function olderDatabase<T = undefined>(
  dataDir: string,
  steps: Step[],
  inspect?: (execute: Execute) => Promise<T>,
): Promise<{ databaseUrl: string | undefined; inspected: T | undefined }> {
  if (process.env.DATABASE_URL) {
    const { default: pg } = await import("pg");
    const { drizzle } = await import("drizzle-orm/node-postgres");
    const { migrate } = await import("drizzle-orm/node-postgres/migrator");
    const name = `bsn_upgrade_${Date.now().toString(36)}_${Math.random().toString(36).slice(2, 6)}`;
    const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${name}`);
    await admin.end();
    const url = new URL(process.env.DATABASE_URL);
    url.pathname = `/${name}`;
    const client = new pg.Client({ connectionString: url.toString() });
    await client.connect();
    try {
      const db = drizzle(client);
      for (const step of steps)
        if ("migrateTo" in step) await migrate(db, { migrationsFolder: migrationsUpTo(step.migrateTo) });
        else await client.query(step.sql);
      const inspected = inspect ? await inspect((q) => db.execute(q)) : undefined;
      return { databaseUrl: url.toString(), inspected };
    } finally {
      await client.end();
    }
  }
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const { migrate } = await import("drizzle-orm/pglite/migrator");
  mkdirSync(path.join(dataDir, "pgdata"), { recursive: true });
  const client = await PGlite.create(path.join(dataDir, "pgdata"));
  try {
    const db = drizzle(client);
    for (const step of steps)
      if ("migrateTo" in step) await migrate(db, { migrationsFolder: migrationsUpTo(step.migrateTo) });
      else await client.exec(step.sql);
    const inspected = inspect ? await inspect((q) => db.execute(q)) : undefined;
    return { databaseUrl: undefined, inspected };
  } finally {
    await client.close();
  }
}
