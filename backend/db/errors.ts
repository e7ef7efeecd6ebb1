/**
 * PostgreSQL's SQLSTATE of a failed query, whether the driver threw it itself (pg, PGlite) or Drizzle wrapped it
 * as the cause of its own error.
 */
export function sqlState(error: unknown): string | undefined {
  const code = (e: unknown) => (e && typeof e === "object" ? (e as { code?: unknown }).code : undefined);
  const found = code(error) ?? code((error as { cause?: unknown } | null)?.cause);
  return typeof found === "string" ? found : undefined;
}

/** A unique constraint refused the write (23505): the record exists already, or a concurrent request made it. */
export const isUniqueViolation = (error: unknown) => sqlState(error) === "23505";

/**
 * The data exceptions (SQLSTATE class 22) that a value sent by the caller causes: text too long, a number
 * out of range, a malformed number or date, a date out of range, a character the database refuses, a bad
 * LIKE escape. Others of the class (a division by zero) are the server's own faults.
 */
const INPUT_DATA_EXCEPTIONS = new Set(["22001", "22003", "22007", "22008", "22021", "22025", "22P02", "22P05"]);

/** A database error caused by a value of the request, itself or as the cause of a failed query. */
export const isDataException = (error: unknown) => INPUT_DATA_EXCEPTIONS.has(sqlState(error) ?? "");
