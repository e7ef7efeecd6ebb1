import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import type { z } from "zod";
import { PayState } from "#contract/billing-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { fixturesPayloadSchema } from "#contract/billing.ts";
import { post } from "./ledger.ts";
import { bills } from "./tables.ts";
import { recordTraffic } from "./meter.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";

const DAY = 24 * 60 * 60 * 1000;

/**
 * A fixture bill's deadline: an expired one's has passed; a usage bill (cycle 99) is issued a week ago and past
 * its deadline, so that it blocks (ADR 059), unless `notYetDue`; any other is due in 3 days.
 */
function deadlineOf(spec: { payState: number; cycle: number; notYetDue: boolean }, now: Date): Date {
  if (spec.payState === PayState.EXPIRED) return new Date(now.getTime() - DAY);
  if (spec.cycle === 99) return new Date(now.getTime() + (spec.notYetDue ? 7 * DAY : -DAY));
  return new Date(now.getTime() + 3 * DAY);
}

/** /test/fixtures (tests only): bills and usage for the caller; paid bills are paid through the ledger. */
export async function createFixtures(input: z.output<typeof fixturesPayloadSchema>, { deps, user }: SignedInContext) {
  if (!deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const me = user;
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    if (input.grantCents > 0) {
      await post(
        tx,
        { userId: me.id, kind: "grant", amountCents: input.grantCents, refType: "grant", refId: me.id },
        now,
      );
    }
    const billIds: number[] = [];
    for (const spec of input.bills) {
      const periodDays = spec.cycle === 99 ? 7 : spec.cycle === 2 ? 30 : 365;
      const periodStart = new Date(now.getTime() - periodDays * DAY);
      const [bill] = await tx
        .insert(bills)
        .values({
          billNo: `FX${now.getTime().toString(36).toUpperCase()}${randomBytes(3).toString("hex").toUpperCase()}`,
          userId: me.id,
          serviceName: spec.serviceName,
          billType: spec.billType,
          payState: spec.payState === PayState.PAID ? PayState.UNPAID : spec.payState,
          payMode: spec.cycle === 99 ? 2 : 1,
          cycle: spec.cycle,
          periodStart,
          periodEnd: now,
          createdAt: now,
          deadline: deadlineOf(spec, now),
          totalCents: spec.totalCents,
          payCents: spec.totalCents,
        })
        .returning({ id: bills.id });
      if (spec.payState === PayState.PAID) {
        await post(
          tx,
          { userId: me.id, kind: "bill_payment", amountCents: spec.totalCents, refType: "bill", refId: bill.id },
          now,
        );
        await tx
          .update(bills)
          .set({ payState: PayState.PAID, payType: "BALANCE", paidAt: now })
          .where(eq(bills.id, bill.id));
      }
      billIds.push(bill.id);
    }
    if (input.usage) {
      const nodes = await tx.select({ id: cityNodes.id }).from(cityNodes).orderBy(cityNodes.id).limit(3);
      for (let d = 1; d <= input.usage.days; d++) {
        const day = new Date(now.getTime() - d * DAY).toISOString().slice(0, 10);
        for (const node of nodes) {
          await recordTraffic(tx, [
            {
              key: { userId: me.id, day, cityNodeId: node.id, appId: 0, joinId: 0, callerId: null, method: "" },
              counts: { calls: 0, bytesIn: input.usage.mbPerDay * 1024 * 1024, bytesOut: 0 },
            },
          ]);
        }
      }
    }
    return { billIds };
  });
}
