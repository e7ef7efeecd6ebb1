import { and, count, eq, gt, inArray, or } from "drizzle-orm";
import { BillType, UNPAID_STATES } from "../../../contract/billing";
import type { Db, Tx } from "../../db/client";
import { bills } from "./tables";
import type { SignedInContext } from "../../http/router";

/**
 * SPEC §5 "Blocking by bills" and §7 h5isHasNoPayBillV2 (docs/decisions/006):
 * - every payType is blocked by an unpaid postpaid usage bill (payMode 2: weekly data traffic,
 *   cross-chain calls), overdue or not: usage bills never expire, they are owed until paid;
 * - payType 2 (dedicated node) is also blocked by a dedicated-node bill still waiting for payment
 *   before its deadline (one node application at a time);
 * - unpaid prepaid bills (publish, config upgrade, IPFS ...) are applications waiting for payment:
 *   they do not block, and expire at their deadline (§4 status 10, §8 "valid for 3 days").
 * Other domains call `hasBlockingBills` on the server before creating or upgrading anything.
 */
export async function hasBlockingBills(db: Db | Tx, userId: number, payType: 1 | 2, now: Date): Promise<boolean> {
  const usage = eq(bills.payMode, 2);
  const pendingNode = and(eq(bills.billType, BillType.DEDICATED_NODE), gt(bills.deadline, now));
  const [{ n }] = await db
    .select({ n: count() })
    .from(bills)
    .where(and(eq(bills.userId, userId), inArray(bills.payState, [...UNPAID_STATES]), payType === 2 ? or(usage, pendingNode) : usage));
  return n > 0;
}

/** /sys/product/h5isHasNoPayBillV2: true allows entry, false means unpaid bills block it. */
export async function noUnpaidBills(input: { payType: 1 | 2 }, { services, user }: SignedInContext): Promise<boolean> {
  return !(await hasBlockingBills(services.db, (user).id, input.payType, services.now()));
}
