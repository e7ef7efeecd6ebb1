import * as z from "zod";
import { nothing, type PathSpec } from "./path-spec.ts";
import { pageOf } from "./platform.ts";
import { MAX_AMOUNT_CENTS, MONEY_RE, toCents } from "./rules.ts";

/* ------------------------------------------------------------------------------------------------
 * Alerts before limits bite (issue 35 §1, docs/decisions/087): an account sets a monthly budget for all its bills
 * and a balance to stay above; it is told once per threshold and period (Message center, and mail to the members
 * whose role handles money, ADR 085), with a link to the page that acts on it.
 * ---------------------------------------------------------------------------------------------- */

export const ALERT_KINDS = ["budget", "balance"] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The budget is told at these shares of it; the balance once when it falls below the amount set. */
export const BUDGET_THRESHOLDS = [50, 80, 100] as const;

/** An amount in USD, or empty for "no alert". */
const optionalAmount = () =>
  z
    .string()
    .trim()
    .optional()
    .superRefine((value, ctx) => {
      if (!value) return;
      if (!MONEY_RE.test(value)) return void ctx.addIssue({ code: "custom", message: "validation.amount.format" });
      if (toCents(value) <= 0) return void ctx.addIssue({ code: "custom", message: "validation.amount.positive" });
      if (toCents(value) > MAX_AMOUNT_CENTS) ctx.addIssue({ code: "custom", message: "validation.amount.max" });
    });

/** The settings form (Alerts page) and its path's payload: each amount in USD, empty to turn that alert off. */
export const alertSettingsSchema = z.object({
  monthlyBudget: optionalAmount(),
  balanceFloor: optionalAmount(),
});

export const alertFiringSchema = z.object({
  id: z.number().int(),
  kind: z.enum(ALERT_KINDS),
  /** The share of the budget reached (50, 80, 100), or 0 for the balance. */
  threshold: z.number().int(),
  /** The calendar month (UTC) of a budget alert, "YYYY-MM"; the day the balance fell below, "YYYY-MM-DD". */
  period: z.string(),
  /** The month's bills or the balance when it fired, and the budget or amount it was measured against. */
  valueCents: z.number().int(),
  limitCents: z.number().int(),
  firedAt: z.string(),
});
export type AlertFiring = z.infer<typeof alertFiringSchema>;

export const alertPaths = {
  /** The account's alert settings with where it stands now. */
  "/sys/alerts/settings": {
    auth: "user",
    permission: "read",
    payload: z.object({}),
    data: z.object({
      monthlyBudgetCents: z.number().int().nullable(),
      balanceFloorCents: z.number().int().nullable(),
      billedThisMonthCents: z.number().int(),
      balanceCents: z.number().int(),
    }),
  },
  /** Sets both alerts (an empty amount turns one off) and checks them at once. Money is finance's: `pay`. */
  "/sys/alerts/save": { auth: "user", permission: "pay", payload: alertSettingsSchema, data: nothing },
  /** The alerts told to the account, newest first. */
  "/sys/alerts/history": {
    auth: "user",
    permission: "read",
    payload: z.object({
      pageIndex: z.number().int().min(1).default(1),
      pageSize: z.number().int().min(1).max(100).default(20),
    }),
    data: pageOf(alertFiringSchema),
  },
} satisfies Record<string, PathSpec>;
