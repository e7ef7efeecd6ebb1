/**
 * What of an error may go to a log (docs/decisions/024): never what a user sent. Shared by the backend's
 * router and job runner and by the portal's server entry, which all log errors they did not expect.
 *
 * - A failed database query (Drizzle's DrizzleQueryError) carries the SQL and its parameters in its
 *   message: only its class and its driver error are told, never that message.
 * - A database error (anything with a five-character SQLSTATE `code`) is told by class, code, and the
 *   table, column and constraint it names. Its message too, except for data exceptions (SQLSTATE class
 *   22: "invalid input syntax for type integer: \"…\"", "value \"…\" is out of range"), which quote the
 *   offending value.
 * - Any other error: its class and the first line of its message.
 * Then the stack's frames (file and line, no message).
 */
type DatabaseErrorLike = Error & { code: string; table?: string; column?: string; constraint?: string };

const SQLSTATE = /^[0-9A-Z]{5}$/;

function isDatabaseError(error: unknown): error is DatabaseErrorLike {
  const code = error instanceof Error ? (error as { code?: unknown }).code : undefined;
  return typeof code === "string" && SQLSTATE.test(code);
}

function describeDatabaseError(error: DatabaseErrorLike): string {
  const where = (["table", "column", "constraint"] as const)
    .filter((k) => typeof error[k] === "string" && error[k])
    .map((k) => `${k} ${error[k]}`);
  const message = error.code.startsWith("22") ? "" : `: ${firstLine(error.message)}`;
  return `database error ${error.code}${where.length ? ` (${where.join(", ")})` : ""}${message}`;
}

function firstLine(text: string): string {
  return text.split("\n", 1)[0].slice(0, 300);
}

/** The stack's frames without its message (which may hold what the error's message held). */
function frames(error: Error): string {
  return (error.stack ?? "")
    .split("\n")
    .filter((line) => /^\s+at /.test(line))
    .slice(0, 12)
    .join("\n");
}

/** The error's class: its constructor's name (DrizzleQueryError does not set `name`), else its name. */
function className(error: Error): string {
  const name = error.constructor?.name;
  return name && name !== "Error" ? name : error.name;
}

/** One log entry for `error`: class, safe details and (unless `withStack` is false) the stack frames. */
export function errorSummary(error: unknown, withStack = true): string {
  if (!(error instanceof Error)) return `non-error thrown (${typeof error})`;
  const cause = (error as { cause?: unknown }).cause;
  let head: string;
  if (className(error) === "DrizzleQueryError" || error.message.startsWith("Failed query:")) {
    head = `${className(error)}: ${isDatabaseError(cause) ? describeDatabaseError(cause) : cause instanceof Error ? className(cause) : "query failed"}`;
  } else if (isDatabaseError(error)) {
    head = describeDatabaseError(error);
  } else {
    head = `${className(error)}: ${firstLine(error.message)}`;
    if (cause instanceof Error)
      head += ` (cause: ${isDatabaseError(cause) ? describeDatabaseError(cause) : className(cause)})`;
  }
  const stack = withStack ? frames(error) : "";
  return stack ? `${head}\n${stack}` : head;
}
