import { bigint, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { ts } from "#backend/db/columns.ts";

/** The Drizzle tables of the accounts domain (migrations: backend/db/migrations). */

export const activationTokens = pgTable("activation_tokens", {
  tokenHash: text("token_hash").primaryKey(),
  userId: integer("user_id")
    .notNull()
    .references(() => users.id),
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
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    codeHash: text("code_hash").notNull(),
    expiresAt: ts("expires_at").notNull(),
    attempts: integer("attempts").notNull().default(0),
    usedAt: ts("used_at"),
  },
  (t) => [index("reset_codes_user").on(t.userId)],
);

/**
 * An operator's second factor (docs/decisions/022): the TOTP secret, sealed with the server secret
 * (backend/kit/sealed.ts); pending until the first code confirms it. `lastStep` is the 30-second step of
 * the last accepted code: a code of that step or an earlier one is refused (no replay). Wrong codes count
 * up to a lock, per account.
 */
export const operatorSecondFactors = pgTable("operator_second_factors", {
  userId: integer("user_id")
    .primaryKey()
    .references(() => users.id),
  sealedSecret: text("sealed_secret").notNull(),
  enrolledAt: ts("enrolled_at"),
  lastStep: bigint("last_step", { mode: "number" }),
  failedAttempts: integer("failed_attempts").notNull().default(0),
  lockedUntil: ts("locked_until"),
  createdAt: ts("created_at").notNull(),
});

/** An operator's recovery codes: only their SHA-256 is kept; each opens one login. */
export const recoveryCodes = pgTable(
  "recovery_codes",
  {
    id: serial("id").primaryKey(),
    userId: integer("user_id")
      .notNull()
      .references(() => users.id),
    codeHash: text("code_hash").notNull(),
    usedAt: ts("used_at"),
    createdAt: ts("created_at").notNull(),
  },
  (t) => [uniqueIndex("recovery_codes_user_code").on(t.userId, t.codeHash)],
);
