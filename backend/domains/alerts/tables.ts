import { sql } from "drizzle-orm";
import {
  bigint,
  boolean,
  check,
  index,
  integer,
  pgTable,
  serial,
  smallint,
  text,
  uniqueIndex,
} from "drizzle-orm/pg-core";
import { users } from "#backend/db/tables.ts";
import { cents, ts } from "#backend/db/columns.ts";

/**
 * An account's alert settings (issue 35 §1, docs/decisions/087, 090): a monthly budget for all its bills and a balance
 * to stay above, each in USD cents, and a weekly traffic budget for each of its IPFS services, in bytes; each null when
 * that alert is off. Written only by the alerts domain.
 */
export const alertSettings = pgTable(
  "alert_settings",
  {
    accountId: integer("account_id")
      .primaryKey()
      .references(() => users.id),
    monthlyBudgetCents: cents("monthly_budget_cents"),
    balanceFloorCents: cents("balance_floor_cents"),
    /** The bytes each of the account's IPFS services may serve in a week (Monday-Sunday, UTC+8) before it is told. */
    ipfsWeeklyTrafficBytes: bigint("ipfs_weekly_traffic_bytes", { mode: "number" }),
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
    check("alert_settings_ipfs_traffic", sql`${t.ipfsWeeklyTrafficBytes} is null or ${t.ipfsWeeklyTrafficBytes} > 0`),
  ],
);

/**
 * The alerts told to an account: at most one per kind, subject, threshold and period, kept by the unique index, so
 * two processes checking at once tell it once (the second insert finds the row and tells nobody).
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
    /**
     * What it is about, for the kinds that are about one thing (0 for the account's money): the public-chain project
     * (requests), chain account (gas), IPFS service, dedicated-node project or consortium service (period end).
     */
    subjectId: integer("subject_id").notNull().default(0),
    /** The subject's name when it was told (the history shows it even after a rename or deletion). */
    subjectName: text("subject_name").notNull().default(""),
    /** The share reached (50, 80, 100); the days before a period's end (7, 1); 0 for the balance and gas. */
    threshold: smallint("threshold").notNull(),
    /**
     * "YYYY-MM" (budget, UTC month), "YYYY-MM-DD" (balance: the UTC day it fell below; requests: the UTC+8 day;
     * IPFS traffic: the Monday of the UTC+8 week; period end: the UTC day the period ends), the capacity in bytes
     * (IPFS capacity: an upgrade starts anew) or the instant the gas fell below its warning value (ISO).
     */
    period: text("period").notNull(),
    /**
     * The figure then and the limit it was measured against, in the kind's unit: USD cents (budget, balance),
     * requests, bytes (IPFS), gwei (gas) or whole days left (period end).
     */
    valueCents: cents("value_cents").notNull(),
    limitCents: cents("limit_cents").notNull(),
    firedAt: ts("fired_at").notNull(),
  },
  (t) => [
    uniqueIndex("alert_firings_once").on(t.accountId, t.kind, t.subjectId, t.threshold, t.period),
    index("alert_firings_account_time").on(t.accountId, t.firedAt),
    check(
      "alert_firings_kind",
      sql`${t.kind} in ('budget', 'balance', 'requests', 'gas', 'ipfsCapacity', 'ipfsTraffic', 'nodeEnd', 'serviceEnd')`,
    ),
  ],
);
