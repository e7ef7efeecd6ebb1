import { index, integer, pgTable, serial, text } from "drizzle-orm/pg-core";
import { users } from "../../db/tables";
import { ts } from "../../db/columns";

/** The Drizzle tables of the accounts domain (migrations: backend/db/migrations). */

export const activationTokens = pgTable("activation_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id").notNull().references(() => users.id),
  expiresAt: ts("expires_at").notNull(),
  usedAt: ts("used_at"),
});

/** Image captchas: single use, short-lived; in the database so any process can check them. */
export const captchas = pgTable(
  "captchas",
  {
    key: text("key").primaryKey(),
    answer: text("answer").notNull(),
    expiresAt: ts("expires_at").notNull(),
    usedAt: ts("used_at"),
  },
  (t) => [index("captchas_expires").on(t.expiresAt)],
);

export const resetCodes = pgTable(
  "reset_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id").notNull().references(() => users.id),
    codeHash: text("code_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: ts("used_at"),
  },
  (t) => [index("reset_codes_user").on(t.userId)],
);
