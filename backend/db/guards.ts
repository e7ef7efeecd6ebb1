import { sql } from "drizzle-orm";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";

/**
 * Rules the database itself enforces beyond the schema, applied after the migrations at every start
 * (idempotent: CREATE OR REPLACE). They live here rather than in a migration because migrations are
 * purely generated from the Drizzle tables.
 *
 * audit_log is append-only (docs/decisions/022): a trigger refuses UPDATE and DELETE of any row, and
 * TRUNCATE of the table, whoever asks (the application has no such path; this stops a mistaken script
 * or a compromised query path from rewriting history). SQLSTATE 55000 "object not in prerequisite state".
 */
export const APPEND_ONLY_MESSAGE = "audit_log is append-only";

const STATEMENTS = [
  sql.raw(`CREATE OR REPLACE FUNCTION audit_log_append_only() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  RAISE EXCEPTION '${APPEND_ONLY_MESSAGE}: % refused', TG_OP USING ERRCODE = '55000';
END
$$`),
  sql.raw(`CREATE OR REPLACE TRIGGER audit_log_no_update_delete BEFORE UPDATE OR DELETE ON audit_log
  FOR EACH ROW EXECUTE FUNCTION audit_log_append_only()`),
  sql.raw(`CREATE OR REPLACE TRIGGER audit_log_no_truncate BEFORE TRUNCATE ON audit_log
  FOR EACH STATEMENT EXECUTE FUNCTION audit_log_append_only()`),
];

/** Applies the guards; the caller holds the migration lock when several processes may start at once. */
export async function applyDatabaseGuards(db: PgDatabase<PgQueryResultHKT>) {
  for (const statement of STATEMENTS) await db.execute(statement);
}
