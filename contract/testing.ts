import * as z from "zod";
import type { PathSpec } from "./path-spec";
import { operationFixturePaths } from "./operations";
import { serviceFixturePaths } from "./services";

/**
 * Tests only (TEST_FIXTURES=1, refused in production): records that users cannot make by themselves
 * yet (bills come from services, usage from the network), created for the caller through the ledger.
 */
export const fixturesPayloadSchema = z.object({
  /** Credited to the caller's balance first, as a non-withdrawable grant. */
  grantCents: z.number().int().min(0).default(0),
  bills: z
    .array(
      z.object({
        billType: z.number().int().default(1),
        serviceName: z.string().default("Fixture service"),
        totalCents: z.number().int().positive(),
        /** 1 unpaid (due in 3 days), 10 expired, or 15 paid from the balance (grant it first). */
        payState: z.union([z.literal(1), z.literal(10), z.literal(15)]).default(1),
        /** 1 yearly, 2 monthly, 99 weekly (a data-traffic bill). */
        cycle: z.union([z.literal(1), z.literal(2), z.literal(99)]).default(2),
      }),
    )
    .max(50)
    .default([]),
  /** Daily traffic for the last `days` days on the first city nodes, in MB. */
  usage: z.object({ days: z.number().int().min(1).max(60), mbPerDay: z.number().int().min(1) }).optional(),
});

export const testingPaths = {
  "/test/fixtures": {
    auth: "user",
    payload: fixturesPayloadSchema,
    data: z.object({ billIds: z.array(z.number().int()) }),
  },
  ...serviceFixturePaths,
  ...operationFixturePaths,
} satisfies Record<string, PathSpec>;
