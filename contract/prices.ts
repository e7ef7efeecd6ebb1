import * as z from "zod";
import { type PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { MAX_AMOUNT_CENTS, MONEY_RE, toCents } from "./rules.ts";

/* ------------------------------------------------------------------------------------------------
 * The price catalogue operators edit (docs/decisions/036). One generic shape for every priced area: an
 * area holds items (a city node, a public-chain plan, an IPFS capacity, a dedicated-node host, a fee), each item
 * named prices in USD cents. Every priced item of the site is here (docs/decisions/073): the amounts live in the
 * owning domain's tables, never in code. A change applies to new orders, renewals and the next charge only, and
 * is kept with its author and time.
 * ---------------------------------------------------------------------------------------------- */

/** The priced areas and the fields each item has, in the order the page shows them. */
export const PRICE_AREAS = {
  cityNode: [
    "tpsPricePerMonthCents",
    "tpsPricePerYearCents",
    "capacityPricePerGbMonthCents",
    "trafficPricePerGbCents",
    "peerPricePerMonthCents",
  ],
  publicChainPlan: ["priceCents"],
  /** An IPFS capacity (storeUnit GB): the monthly price of a GB at that size. */
  ipfsCapacity: ["unitPriceCents"],
  /** A dedicated-node host configuration: the monthly price of one peer on it. */
  dedicatedHost: ["peerPricePerMonthCents"],
  /** A dedicated-node data capacity: its monthly price per peer. */
  dedicatedCapacity: ["pricePerMonthCents"],
  /** The orderer, gateway and CA of a dedicated network, per month. */
  dedicatedBase: ["pricePerMonthCents"],
  /** One successful cross-chain call. */
  crossChainCall: ["feeCents"],
  /** The DDC service fees: a mint, a transfer. */
  ddcFee: ["feeCents"],
  /** The gas rate: the price of one coin (10^18 wei) of public-chain gas; never 0. */
  gasRate: ["coinPriceCents"],
} as const;
export type PriceArea = keyof typeof PRICE_AREAS;
export const PRICE_AREA_NAMES = Object.keys(PRICE_AREAS) as PriceArea[];
export const PRICE_FIELDS = [...new Set(Object.values(PRICE_AREAS).flat())] as [string, ...string[]];
/** Fields that may not be 0 (a rate divides by them). */
export const POSITIVE_PRICE_FIELDS: readonly string[] = ["coinPriceCents"];

export const priceItemSchema = z.object({
  itemId: z.number().int(),
  name: z.string(),
  nameZh: z.string(),
  prices: z.array(z.object({ field: z.string(), cents: z.number().int() })),
});
export type PriceItem = z.infer<typeof priceItemSchema>;

export const priceChangeSchema = z.object({
  changeId: z.number().int(),
  area: z.string(),
  itemId: z.number().int(),
  itemName: z.string(),
  itemNameZh: z.string(),
  field: z.string(),
  oldCents: z.number().int(),
  newCents: z.number().int(),
  author: z.string(),
  createdAt: z.string(),
});

/** A price typed on the form: USD with up to 2 decimals, 0 allowed (a free plan, no peer price). */
const priceAmount = () =>
  z
    .string({ error: "validation.amount.required" })
    .trim()
    .min(1, "validation.amount.required")
    .superRefine((value, ctx) => {
      if (!MONEY_RE.test(value)) return void ctx.addIssue({ code: "custom", message: "validation.amount.format" });
      if (toCents(value) > MAX_AMOUNT_CENTS) ctx.addIssue({ code: "custom", message: "validation.amount.max" });
    });

/** The form of one item: its area and id and each of its prices typed in USD. */
export const priceFormSchema = z
  .object({
    area: z.enum(PRICE_AREA_NAMES as [PriceArea, ...PriceArea[]]),
    itemId: z.coerce.number().int().positive(),
    // Partial: an item has the fields of its area only (zod 4 makes a record over an enum exhaustive).
    prices: z.partialRecord(z.enum(PRICE_FIELDS), priceAmount()),
  })
  .superRefine((form, ctx) => {
    for (const field of POSITIVE_PRICE_FIELDS) {
      const typed = form.prices[field];
      if (typed !== undefined && MONEY_RE.test(typed) && toCents(typed) === 0)
        ctx.addIssue({ code: "custom", path: ["prices", field], message: "validation.amount.positive" });
    }
  });

export const pricePaths = {
  "/sys/ops/prices/list": {
    auth: "operator",
    payload: z.object({}),
    data: z.object({ areas: z.array(z.object({ area: z.string(), items: z.array(priceItemSchema) })) }),
  },
  "/sys/ops/prices/history": {
    auth: "operator",
    payload: z.object({ ...pagingFields }),
    data: pageOf(priceChangeSchema),
  },
  /** Sets the prices of one item; only the fields that change are recorded (one change each). */
  "/sys/ops/prices/set": {
    auth: "operator",
    payload: z
      .object({
        area: z.enum(PRICE_AREA_NAMES as [PriceArea, ...PriceArea[]]),
        itemId: z.number().int().positive(),
        // Whole cents, 0 or more: a negative or fractional amount is refused at its field with a translated key.
        prices: z.partialRecord(
          z.enum(PRICE_FIELDS),
          z
            .number({ error: "validation.amount.format" })
            .int("validation.amount.format")
            .min(0, "validation.amount.format")
            .max(MAX_AMOUNT_CENTS, "validation.amount.max"),
        ),
      })
      .superRefine((payload, ctx) => {
        for (const field of POSITIVE_PRICE_FIELDS)
          if (payload.prices[field] === 0)
            ctx.addIssue({ code: "custom", path: ["prices", field], message: "validation.amount.positive" });
      }),
    data: z.object({ changed: z.number().int() }),
  },
} as const satisfies Record<string, PathSpec>;
