/** A user's text inside a LIKE pattern: its `%`, `_` and `\` match themselves. */
export const escapeLike = (v: string) => v.replace(/[\\%_]/g, (c) => `\\${c}`);

/**
 * A statement drizzle builds once per database rather than on every call (issue 34, docs/decisions/030): for
 * the few every console page runs, where building the SQL text was a measurable part of a page's server time.
 * Its values are `sql.placeholder`s, given to `execute`; on PostgreSQL its name makes the server parse and plan
 * it once per connection too. `build` must name the statement (`.prepare("…")`) uniquely in the product.
 */
export function preparedPerDb<Db extends object, Prepared>(build: (db: Db) => Prepared): (db: Db) => Prepared {
  const made = new WeakMap<Db, Prepared>();
  return (db) => {
    let prepared = made.get(db);
    if (!prepared) {
      prepared = build(db);
      made.set(db, prepared);
    }
    return prepared;
  };
}
