import * as z from "zod";
import { type PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { decisionFields, decisionFormSchema, idempotencyKey } from "./rules.ts";
import { bookedNodeSchema, namedNodeSchema, upgradeRowSchema } from "./service-parts.ts";

export { upgradeRowSchema };
export type { UpgradeRow } from "./service-parts.ts";
import { reportSchema } from "./services.ts";
import { checkNodeRows, nodeRowsSchema } from "./service-wizard.ts";

/* ------------------------------------------------------------------------------------------------
 * Configuration upgrades of a running consortium-chain service (SPEC §2 Configuration, ConfigurationNew,
 * ConfigurationDetail; §3 Config upgrade application; §4 Config upgrade; §5; §9 bill type 2) and renewals
 * of the payment cycle (docs/decisions/036). Codes and pure rules: contract/config-upgrade-codes.ts.
 * ---------------------------------------------------------------------------------------------- */

const id = () => z.number().int().positive();

export const upgradeDetailSchema = upgradeRowSchema.extend({
  appVerId: z.number().int(),
  paymentCycle: z.number().int(),
  cycleEnd: z.string(),
  before: z.array(namedNodeSchema),
  after: z.array(namedNodeSchema),
  reviewComments: z.string().nullable(),
  reviewedAt: z.string().nullable(),
  billDeadline: z.string().nullable(),
  deployReport: reportSchema.nullable(),
  deployedAt: z.string().nullable(),
  /** The publisher may pay the bill now (approved, unpaid, before its deadline). */
  payable: z.boolean(),
});
export type UpgradeDetail = z.infer<typeof upgradeDetailSchema>;

/** What ConfigurationNew needs: the service, its current configuration, its cycle and the refusal of §5 if any. */
export const upgradeOptionsSchema = z.object({
  appId: z.number().int(),
  appVerId: z.number().int(),
  name: z.string(),
  paymentCycle: z.number().int(),
  cycleStart: z.string().nullable(),
  cycleEnd: z.string().nullable(),
  current: z.array(bookedNodeSchema),
  /** Each catalogue node with what is left on it for this service (its own booking included). */
  left: z.array(z.object({ cityNodeId: z.number().int(), tps: z.number().int(), capacityGb: z.number().int() })),
  /** A §8 message key when §5 refuses an upgrade now (another in progress, 6 hours, 5 days); null otherwise. */
  refusal: z.string().nullable(),
});
export type UpgradeOptions = z.infer<typeof upgradeOptionsSchema>;

export const upgradeRequestSchema = z.object({
  appId: id(),
  upgradeType: z.union([z.literal(1), z.literal(2)]),
  nodes: z
    .array(
      bookedNodeSchema.extend({
        cityNodeId: id(),
        tps: id().max(100000),
        capacityGb: id().max(100000),
        peers: id().max(3),
      }),
    )
    .min(1)
    .max(100),
});

export const quoteSchema = z.object({
  amountCents: z.number().int(),
  fullCycleDiffCents: z.number().int(),
  remainingDays: z.number().int(),
  cycleEnd: z.string(),
});

/** The form of ConfigurationNew: the type and one row per catalogue node (as the wizard's step 5). */
export const upgradeFormSchema = z
  .object({
    appId: z
      .string()
      .trim()
      .regex(/^[1-9][0-9]{0,9}$/, "validation.required"),
    upgradeType: z.enum(["1", "2"], { error: "validation.required" }),
    nodes: nodeRowsSchema,
  })
  .superRefine((v, ctx) => checkNodeRows(v.nodes, ctx));
export type UpgradeForm = z.infer<typeof upgradeFormSchema>;

export const upgradePaySchema = z.object({
  upgradeId: z.coerce.number().int().positive(),
  idempotencyKey: idempotencyKey(),
});
export const upgradeDecisionSchema = decisionFormSchema({ upgradeId: z.coerce.number().int().positive() });

/** An item of the operators' queue: the request with the publisher. */
export const upgradeReviewItemSchema = upgradeDetailSchema.extend({ publisher: z.string() });

export const configurationPaths = {
  "/sys/configUpgrade/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ appId: id().optional(), ...pagingFields }),
    data: pageOf(upgradeRowSchema),
  },
  "/sys/configUpgrade/options": {
    auth: "user",
    permission: "read",
    payload: z.object({ appId: id() }),
    data: upgradeOptionsSchema,
  },
  /** The price for the rest of the cycle, computed by the backend from the catalogue; nothing is saved. */
  "/sys/configUpgrade/quote": { auth: "user", permission: "read", payload: upgradeRequestSchema, data: quoteSchema },
  "/sys/configUpgrade/create": {
    auth: "user",
    permission: "services",
    payload: upgradeRequestSchema,
    data: upgradeDetailSchema,
  },
  "/sys/configUpgrade/detail": {
    auth: "user",
    permission: "read",
    payload: z.object({ upgradeId: id() }),
    data: upgradeDetailSchema,
  },
  /** Pays the approved upgrade's bill (§9 type 2) from the balance and starts its deployment. */
  "/sys/configUpgrade/pay": {
    auth: "user",
    // Paying for the member's own service is theirs within their spending limit (docs/decisions/080).
    permission: "services",
    payload: z.object({ upgradeId: id(), idempotencyKey: idempotencyKey() }),
    data: z.object({ billId: z.number().int(), replayed: z.boolean() }),
  },
  "/sys/ops/configUpgrades/list": {
    auth: "operator",
    payload: z.object({ queue: z.enum(["pending", "rejected"]), ...pagingFields }),
    data: pageOf(upgradeReviewItemSchema),
  },
  "/sys/ops/configUpgrades/decide": {
    auth: "operator",
    payload: z.object({ upgradeId: id(), ...decisionFields() }),
    data: z.object({ reviewState: z.number().int(), status: z.number().int() }),
  },
} as const satisfies Record<string, PathSpec>;
