import * as z from "zod";
import { PAY_TYPES } from "./payments-codes.ts";
import type { PathSpec } from "./path-spec.ts";

/**
 * Two paths SPEC §7 lists with "payloads not shown" (docs/decisions/063 records the shapes): what paying a bill
 * takes, and the service configuration a bill charges.
 */
const billRef = z.object({ billId: z.number().int().positive() });

/** How a bill can be paid: from the balance, or by recharging with a §9 payment type first. */
export const BILL_PAY_METHODS = ["BALANCE", ...PAY_TYPES] as const;

export const billPayInfoSchema = z.object({
  billId: z.number().int(),
  billNo: z.string(),
  payState: z.number().int(),
  /** Whether it can be paid now (unpaid, before its deadline for a prepaid bill). */
  payable: z.boolean(),
  /** What is owed now: the bill's amount while payable, else 0. */
  amountDueCents: z.number().int(),
  balanceCents: z.number().int(),
  /** What a recharge must add before the balance pays it (0 when the balance is enough). */
  shortfallCents: z.number().int(),
  deadline: z.string(),
  /** BALANCE when the balance covers it; the payment types offered (docs/decisions/072) that recharge the shortfall. */
  methods: z.array(z.enum(BILL_PAY_METHODS)),
});

export const billAppConfigSchema = z.object({
  billId: z.number().int(),
  billNo: z.string(),
  billType: z.number().int(),
  appId: z.number().int().nullable(),
  serviceName: z.string(),
  /** §4 Payment cycle of the bill: 1 yearly, 2 monthly, 99 weekly. */
  cycle: z.number().int(),
  periodStart: z.string(),
  periodEnd: z.string(),
  /** The resources the bill charges per city node; empty for a bill that charges no configuration (usage, recharge). */
  nodes: z.array(
    z.object({
      nodeCode: z.string(),
      nodeName: z.string(),
      tps: z.number(),
      capacityGb: z.number(),
      peers: z.number(),
    }),
  ),
  nodeCount: z.number().int().nullable(),
  hostConfiguration: z.string().nullable(),
  dataCapacityGb: z.number().nullable(),
});

export const billInfoPaths = {
  "/sys/system/clientInfo/h5payInfo": { auth: "user", permission: "read", payload: billRef, data: billPayInfoSchema },
  "/sys/system/clientInfo/selectBillAppConfig": {
    auth: "user",
    permission: "read",
    payload: billRef,
    data: billAppConfigSchema,
  },
} satisfies Record<string, PathSpec>;
