import * as z from "zod";
import { nothing, type PathSpec } from "./path-spec.ts";
import { pageOf } from "./platform.ts";
import { GB } from "./ipfs-codes.ts";
import { MAX_AMOUNT_CENTS, MONEY_RE, toCents } from "./rules.ts";

/* ------------------------------------------------------------------------------------------------
 * Alerts before limits bite (issue 35 §1, docs/decisions/087, 090): an account sets a monthly budget for all its
 * bills, a balance to stay above and a weekly IPFS traffic budget; a public-chain project's daily requests, an IPFS
 * service's capacity, a chain account's gas and the end of a dedicated-node project's or consortium service's paid
 * period are watched without settings. Each is told once per threshold and period (Message center, and mail to the
 * members whose role handles it, ADR 085), with a link to the page that acts on it.
 * ---------------------------------------------------------------------------------------------- */

export const ALERT_KINDS = [
  "budget",
  "balance",
  "requests",
  "gas",
  "ipfsCapacity",
  "ipfsTraffic",
  "nodeEnd",
  "serviceEnd",
] as const;
export type AlertKind = (typeof ALERT_KINDS)[number];

/** The budget, the daily requests, the IPFS capacity and the IPFS traffic budget are told at these shares of them. */
export const BUDGET_THRESHOLDS = [50, 80, 100] as const;
/** A paid period's end is told this many days before it (the first one reached, then the last). */
export const PERIOD_END_DAYS = [7, 1] as const;
/** The largest weekly IPFS traffic budget, in GB. */
export const MAX_TRAFFIC_GB = 1_000_000;
const GB_RE = /^(0|[1-9][0-9]{0,6})(\.[0-9]{1,2})?$/;
/** Bytes of a number of GB (of 1024³ bytes, as the IPFS pages count) typed with at most two decimals. */
export const bytesOfGb = (value: string) => Math.round(Number(value) * GB);

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

/** A number of GB, or empty for "no alert". */
const optionalGb = () =>
  z
    .string()
    .trim()
    .optional()
    .superRefine((value, ctx) => {
      if (!value) return;
      if (!GB_RE.test(value)) return void ctx.addIssue({ code: "custom", message: "validation.trafficBudget.format" });
      if (Number(value) <= 0)
        return void ctx.addIssue({ code: "custom", message: "validation.trafficBudget.positive" });
      if (Number(value) > MAX_TRAFFIC_GB) ctx.addIssue({ code: "custom", message: "validation.trafficBudget.max" });
    });

/**
 * The settings form (Alerts page) and its path's payload: each amount in USD, the IPFS traffic budget in GB a week
 * (for each IPFS service), empty to turn that alert off.
 */
export const alertSettingsSchema = z.object({
  monthlyBudget: optionalAmount(),
  balanceFloor: optionalAmount(),
  ipfsWeeklyTraffic: optionalGb(),
});

export const alertFiringSchema = z.object({
  id: z.number().int(),
  kind: z.enum(ALERT_KINDS),
  /** What it is about (the project, chain account, IPFS service or consortium service), 0 for the account's money. */
  subjectId: z.number().int(),
  subjectName: z.string(),
  /** The share reached (50, 80, 100), the days before a period's end (7, 1), or 0 for the balance and gas. */
  threshold: z.number().int(),
  /**
   * The calendar month (UTC) of a budget alert, "YYYY-MM"; the day the balance fell below or of the requests (UTC+8),
   * or the period's last day, "YYYY-MM-DD"; the Monday of the IPFS traffic's week; the capacity in bytes; the instant
   * the gas fell below its warning value.
   */
  period: z.string(),
  /**
   * The figure when it fired and the limit it was measured against, in the kind's unit: USD cents (budget, balance),
   * requests, bytes (IPFS), gwei (gas), days left (period end).
   */
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
      ipfsWeeklyTrafficBytes: z.number().int().nullable(),
      billedThisMonthCents: z.number().int(),
      balanceCents: z.number().int(),
    }),
  },
  /** Sets the alerts (an empty value turns one off) and checks them at once. Money is finance's: `pay`. */
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
