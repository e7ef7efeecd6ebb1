import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { transactionFilterSchema, transactionSchema } from "./billing.ts";
import { invoiceSummarySchema } from "./invoices.ts";
import { chainAccountSchema } from "./public-chain.ts";

/*
 * The CSV exports of lists that show money or usage (issue 35 §3, docs/decisions/093 "List exports"): each path
 * answers the caller's own rows with the same filter as the list's page, every row up to a limit, newest first,
 * with the number that matched and whether the rows stop short of it. IPFS traffic and RPC usage by method need
 * no path of their own: their pages already load every row (30 days; at most 3 months of days × methods).
 */

/** Ledger entries and invoice applications: as many as My bills exports (contract/billing.ts EXPORT_LIMIT). */
export const LIST_EXPORT_LIMIT = 10_000;
/** Chain accounts: fewer, as each one's gas is read from its chain while exporting. */
export const ACCOUNT_EXPORT_LIMIT = 1_000;

const exportOf = <T extends z.ZodType>(row: T) =>
  z.object({
    rows: z.array(row),
    total: z.number().int(),
    /** More rows matched than the limit: only the newest are in `rows`. */
    truncated: z.boolean(),
  });

export const listExportPaths = {
  /** The transaction inquiry of My account (the ledger), with its filter. */
  "/sys/account/transactionsExport": {
    auth: "user",
    permission: "read",
    payload: z.object({ condition: transactionFilterSchema.prefault({}) }),
    data: exportOf(transactionSchema),
  },
  /** The caller's invoice applications, with the list's status filter. */
  "/sys/system/invoiceAccountTrade/h5invoiceExport": {
    auth: "user",
    permission: "read",
    payload: z.object({
      condition: z
        .object({ status: z.union([z.literal(1), z.literal(3), z.literal(5), z.literal(10)]).optional() })
        .prefault({}),
    }),
    data: exportOf(invoiceSummarySchema),
  },
  /** The chain accounts of one of the caller's projects with their gas; another's project is not found. */
  "/sys/opc/account/export": {
    auth: "user",
    permission: "read",
    payload: z.object({ projectId: z.number().int().positive() }),
    data: exportOf(chainAccountSchema),
  },
} satisfies Record<string, PathSpec>;
