import { sql } from "drizzle-orm";
import { bigint, check, index, integer, pgTable, serial, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { cents, ts } from "#backend/db/columns.ts";

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

/**
 * The members of an enterprise account (issue 33, docs/decisions/075): the account is a users row, each
 * member a login (users row) with one role. The account's owner is a row too (the migration made every
 * enterprise its own owner); at most one owner an account (the partial unique index), and the accounts
 * domain's operations keep one. A login with no row in its own account acts for it as its owner
 * (individuals, operators).
 */
export const teamMembers = pgTable(
  "team_members",
  {
    accountId: integer("account_id")
      .notNull()
      .references(() => users.id),
    memberId: integer("member_id")
      .notNull()
      .references(() => users.id),
    role: text("role").notNull(),
    addedAt: ts("added_at").notNull(),
    /** The member who added this one (null: the migration). */
    addedBy: integer("added_by").references(() => users.id),
    /**
     * What this member's own actions may charge the balance in a calendar month (UTC), in USD cents, when the
     * role lacks "pay" (docs/decisions/080); set by the owner, 0 by default.
     */
    spendLimitCents: cents("spend_limit_cents").notNull().default(0),
  },
  (t) => [
    uniqueIndex("team_members_account_member").on(t.accountId, t.memberId),
    uniqueIndex("team_members_one_owner")
      .on(t.accountId)
      .where(sql`${t.role} = 'owner'`),
    index("team_members_member").on(t.memberId),
    check("team_members_role", sql`${t.role} in ('owner', 'admin', 'developer', 'finance', 'viewer')`),
    check("team_members_spend_limit", sql`${t.spendLimitCents} >= 0`),
  ],
);

/**
 * Invitations to an account (issue 33): a one-time link (only its SHA-256 kept) for one email address and
 * role, valid 7 days; resent (a new link, the old one dead) at most once a minute.
 */
export const teamInvitations = pgTable(
  "team_invitations",
  {
    id: serial("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => users.id),
    email: text("email").notNull(),
    role: text("role").notNull(),
    tokenHash: text("token_hash").notNull(),
    invitedBy: integer("invited_by")
      .notNull()
      .references(() => users.id),
    createdAt: ts("created_at").notNull(),
    sentAt: ts("sent_at").notNull(),
    expiresAt: ts("expires_at").notNull(),
    acceptedAt: ts("accepted_at"),
    acceptedBy: integer("accepted_by").references(() => users.id),
    cancelledAt: ts("cancelled_at"),
  },
  (t) => [
    uniqueIndex("team_invitations_token").on(t.tokenHash),
    index("team_invitations_account").on(t.accountId),
    check("team_invitations_role", sql`${t.role} in ('admin', 'developer', 'finance', 'viewer')`),
  ],
);
