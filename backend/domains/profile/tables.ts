import { index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";

/** The Drizzle tables of the profile domain (migrations: backend/db/migrations). */

/** SPEC §3 contact / §5 Contacts: name, mobile, email, department or company. */
export const contacts = pgTable(
  "contacts",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    name: text("name").notNull(),
    mobile: text("mobile").notNull(),
    email: text("email").notNull(),
    department: text("department").notNull(),
    createdAt: ts("created_at").notNull().defaultNow(),
  },
  (t) => [index("contacts_user").on(t.userId)],
);
