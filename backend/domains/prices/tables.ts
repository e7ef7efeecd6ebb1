import { index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { cents, ts } from "#backend/db/columns.ts";

/**
 * Every change of a catalogue price (docs/decisions/036): which area, item and field, the old and new
 * price, who and when. The history the prices page shows; prices themselves live with their areas.
 */
export const priceChanges = pgTable(
  "price_changes",
  {
    id: serial("id").primaryKey(),
    area: text("area").notNull(),
    itemId: integer("item_id").notNull(),
    field: text("field").notNull(),
    oldCents: cents("old_cents").notNull(),
    newCents: cents("new_cents").notNull(),
    authorId: integer("author_id")
      .notNull()
      .references(() => users.id),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("price_changes_time").on(t.createdAt), index("price_changes_item").on(t.area, t.itemId)],
);
