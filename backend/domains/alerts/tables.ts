import { sql } from "drizzle-orm";
import { boolean, check, index, integer, pgTable, serial, smallint, text, uniqueIndex } from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { cents, ts } from "#backend/db/columns.ts";

/**
 * An account's alert settings (issue 35 §1, docs/decisions/087): a monthly budget for all its bills and a balance to
 * stay above, each in USD cents, null when that alert is off. Written only by the alerts domain.
 */
export const alertSettings = pgTable(
  "alert_settings",
  {
    accountId: integer("account_id")
      .primaryKey()
      .references(() => users.id),
    monthlyBudgetCents: cents("monthly_budget_cents"),
    balanceFloorCents: cents("balance_floor_cents"),
    /**
     * The balance alert was told and the balance has not been back above the amount since: it is told again only
     * after that (a conditional update of this flag is what makes one process of several tell it).
     */
    balanceAlerted: boolean("balance_alerted").notNull().default(false),
    updatedAt: ts("updated_at").notNull(),
    /** The member who saved them last. */
    updatedBy: integer("updated_by").references(() => users.id),
  },
  (t) => [
    check("alert_settings_budget", sql`${t.monthlyBudgetCents} is null or ${t.monthlyBudgetCents} > 0`),
    check("alert_settings_floor", sql`${t.balanceFloorCents} is null or ${t.balanceFloorCents} > 0`),
  ],
);

/**
 * The alerts told to an account: at most one per kind, threshold and period, kept by the unique index, so two
 * processes checking at once tell it once (the second insert finds the row and tells nobody).
 */
export const alertFirings = pgTable(
  "alert_firings",
  {
    id: serial("id").primaryKey(),
    accountId: integer("account_id")
      .notNull()
      .references(() => users.id),
    /** contract/alerts.ts ALERT_KINDS. */
    kind: text("kind").notNull(),
    /** The share of the budget (50, 80, 100); 0 for the balance. */
    threshold: smallint("threshold").notNull(),
    /** "YYYY-MM" (budget, UTC month) or "YYYY-MM-DD" (balance: the UTC day it fell below). */
    period: text("period").notNull(),
    valueCents: cents("value_cents").notNull(),
    limitCents: cents("limit_cents").notNull(),
    firedAt: ts("fired_at").notNull(),
  },
  (t) => [
    uniqueIndex("alert_firings_once").on(t.accountId, t.kind, t.threshold, t.period),
    index("alert_firings_account_time").on(t.accountId, t.firedAt),
    check("alert_firings_kind", sql`${t.kind} in ('budget', 'balance')`),
  ],
);
