import { integer, pgTable } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";

/**
 * The console home's getting-started checklist (issue 30 item 13): one row per account that dismissed it.
 * The steps themselves are not stored: each is read from the account's own records (checklist.ts).
 */
export const homeChecklists = pgTable("home_checklists", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id),
  dismissedAt: ts("dismissed_at").notNull(),
});
