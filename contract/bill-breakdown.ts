import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";

/**
 * A bill's breakdown (issue 35 §3 "Money traced end to end", docs/decisions/093): the lines a bill charges, which
 * add up to its amount to the cent, each pointing at what is behind it where that is kept.
 * - `traffic`: consortium data traffic of one UTC+8 day, city node, service and JSON-RPC method.
 * - `ipfsTraffic`: IPFS download traffic of one day, gateway (city node), IPFS service and file (CID); what the
 *   meter counted before it kept files (before migration 0050) is one line without a CID, "not itemised by file".
 * - `crossChainCall`: one delivered cross-chain call (its source and target transaction hashes).
 * - `gas`: gas assigned to a chain account (the transfer's transaction hash).
 * - `ddcMint`, `ddcTransfer`: the DDC minted or transferred (its transaction hash).
 * - `period`: a period of a service, node, plan or capacity, at the bill's price.
 * - `charge`: a one-off amount with nothing further recorded behind it (a recharge, a withdrawal, a refund).
 * - `unitemised`: what a usage bill charged that its recorded usage does not itemise (bills made before the
 *   meter kept the grain, or made by hand).
 * - `rounding`: the difference between the lines each rounded to the cent and the bill, rounded per city node.
 */
export const BREAKDOWN_KINDS = [
  "traffic",
  "ipfsTraffic",
  "crossChainCall",
  "gas",
  "ddcMint",
  "ddcTransfer",
  "period",
  "charge",
  "unitemised",
  "rounding",
] as const;
export type BreakdownKind = (typeof BREAKDOWN_KINDS)[number];

/** At most this many lines in one breakdown (a bill with more says so with `truncated`; its total still adds up). */
export const BREAKDOWN_LIMIT = 5_000;

export const breakdownLineSchema = z.object({
  kind: z.enum(BREAKDOWN_KINDS),
  /** The UTC+8 day (YYYY-MM-DD) of usage or of the charge; null for a period. */
  day: z.string().nullable(),
  /** Where: the city node or gateway (its name in the caller's language), or the chain. */
  place: z.string().nullable(),
  /** What: the service, the IPFS service, the chain account, the DDC. */
  subject: z.string().nullable(),
  /** The JSON-RPC method of consortium traffic ('' before the meter named methods: null). */
  method: z.string().nullable(),
  calls: z.number().int().nullable(),
  bytes: z.number().int().nullable(),
  /** Metered traffic and cross-chain calls: the price of one GB or of one call. */
  unitPriceCents: z.number().int().nullable(),
  /** A period line: its start and end (ISO), and its payment cycle (1 yearly, 2 monthly, 99 weekly). */
  periodStart: z.string().nullable(),
  periodEnd: z.string().nullable(),
  cycle: z.number().int().nullable(),
  /** IPFS traffic: the file's CID (null: bytes of the day and gateway the meter did not count per file). */
  cid: z.string().nullable(),
  /** IPFS traffic: the file's name while the service still keeps a file of that CID (else null: the CID only). */
  fileName: z.string().nullable(),
  /** A transaction hash, when the line is one. */
  txHash: z.string().nullable(),
  /** The record behind the line, for a link: a DDC, a cross-chain call of a service, an IPFS service. */
  ref: z
    .discriminatedUnion("kind", [
      z.object({ kind: z.literal("ddc"), ddcId: z.number().int() }),
      z.object({ kind: z.literal("crossChainCall"), appId: z.number().int(), callId: z.number().int() }),
      z.object({ kind: z.literal("ipfsService"), ipfsServiceId: z.number().int() }),
      z.object({ kind: z.literal("service"), appId: z.number().int() }),
    ])
    .nullable(),
  amountCents: z.number().int(),
});
export type BreakdownLine = z.infer<typeof breakdownLineSchema>;

export const billBreakdownSchema = z.object({
  billId: z.number().int(),
  billNo: z.string(),
  billType: z.number().int(),
  serviceName: z.string(),
  totalCents: z.number().int(),
  periodStart: z.string(),
  periodEnd: z.string(),
  lines: z.array(breakdownLineSchema),
  /** More lines than BREAKDOWN_LIMIT: the rest are summed into the last line (kind `unitemised`). */
  truncated: z.boolean(),
});
export type BillBreakdown = z.infer<typeof billBreakdownSchema>;

export const billBreakdownPaths = {
  /** The lines of one of the caller's bills; another account's bill is not found, like an unknown id. */
  "/sys/system/clientInfo/billBreakdown": {
    auth: "user",
    permission: "read",
    payload: z.object({ billId: z.number().int().positive() }),
    data: billBreakdownSchema,
  },
} satisfies Record<string, PathSpec>;
