import { and, asc, eq, inArray } from "drizzle-orm";
import type { z } from "zod";
import { offeredPayTypes } from "#contract/payments-codes.ts";
import type { billAppConfigSchema, billPayInfoSchema } from "#contract/bill-info.ts";
import { Msg } from "#contract/messages.ts";
import type { Db } from "#backend/db/client.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import { appNodes, appVersions, configUpgrades, type NodeConfigRow } from "#backend/domains/services/tables.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { totalsOf } from "#backend/domains/billing/ledger.ts";
import { isPayable } from "#backend/domains/billing/rules.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { nodeNames } from "./user.ts";

/** The caller's bill, or not found (another user's bill is not found either). */
async function ownBill(ctx: SignedInContext, billId: number) {
  const [bill] = await ctx.deps.db
    .select()
    .from(bills)
    .where(and(eq(bills.id, billId), eq(bills.userId, ctx.user.id)));
  if (!bill) throw new ApiError(Msg.NOT_FOUND);
  return bill;
}

/**
 * /sys/system/clientInfo/h5payInfo (SPEC §7, shape in docs/decisions/063): what paying the bill takes now: the
 * amount due, the balance, the shortfall a recharge must cover, and the ways to pay: BALANCE when it is enough,
 * and the §9 payment types this server offers (the recharge page's list, docs/decisions/072) that recharge the
 * shortfall. A bill that cannot be paid now (paid, expired, past its
 * deadline) is due 0 and offers nothing.
 */
export async function billPayInfo(
  input: { billId: number },
  ctx: SignedInContext,
): Promise<z.output<typeof billPayInfoSchema>> {
  const bill = await ownBill(ctx, input.billId);
  const { balanceCents } = await totalsOf(ctx.deps.db, ctx.user.id);
  const payable = isPayable(bill, ctx.deps.now());
  const amountDueCents = payable ? bill.payCents : 0;
  const shortfallCents = Math.max(0, amountDueCents - balanceCents);
  return {
    billId: bill.id,
    billNo: bill.billNo,
    payState: bill.payState,
    payable,
    amountDueCents,
    balanceCents,
    shortfallCents,
    deadline: bill.deadline.toISOString(),
    methods: !payable ? [] : shortfallCents === 0 ? ["BALANCE"] : offeredPayTypes(ctx.deps.env.paymentMethods),
  };
}

/**
 * /sys/system/clientInfo/selectBillAppConfig (SPEC §7, shape in docs/decisions/063): the service configuration
 * the bill charges, as charged (not what the service has now): from the bill's detail, or the version or
 * configuration upgrade the bill paid for; per city node its
 * TPS, capacity and peers, the node count, the period and cycle. A bill that charges no configuration (usage,
 * recharge) answers no nodes.
 */
export async function billAppConfig(
  input: { billId: number },
  ctx: SignedInContext,
): Promise<z.output<typeof billAppConfigSchema>> {
  const bill = await ownBill(ctx, input.billId);
  const resources = bill.detail.resources?.length ? bill.detail.resources : await chargedNodes(ctx.deps.db, bill.id);
  const names = await nodeNames(
    ctx.deps.db,
    resources.map((r) => r.nodeCode),
    ctx.language,
  );
  return {
    billId: bill.id,
    billNo: bill.billNo,
    billType: bill.billType,
    appId: bill.appId,
    serviceName: bill.serviceName,
    cycle: bill.cycle,
    periodStart: bill.periodStart.toISOString(),
    periodEnd: bill.periodEnd.toISOString(),
    nodes: resources.map((r) => ({
      nodeCode: r.nodeCode,
      nodeName: names.get(r.nodeCode) ?? r.nodeCode,
      tps: r.tps,
      capacityGb: r.capacityGb,
      peers: r.peers,
    })),
    nodeCount: bill.detail.nodeCount ?? (resources.length || null),
    hostConfiguration: bill.detail.hostConfiguration ?? null,
    dataCapacityGb: bill.detail.dataCapacityGb ?? null,
  };
}

/**
 * The nodes a bill charges when its detail does not carry them: a publish bill (§9 type 1) charges its version's
 * booked nodes, a configuration upgrade bill (type 2) the configuration after the upgrade (read for the join;
 * the services domain owns these tables).
 */
async function chargedNodes(db: Db, billId: number) {
  const [version] = await db
    .select({ id: appVersions.id })
    .from(appVersions)
    .where(eq(appVersions.billId, billId))
    .limit(1);
  let rows: NodeConfigRow[] = [];
  if (version)
    rows = await db.select().from(appNodes).where(eq(appNodes.verId, version.id)).orderBy(asc(appNodes.cityNodeId));
  else {
    const [upgrade] = await db
      .select({ after: configUpgrades.after })
      .from(configUpgrades)
      .where(eq(configUpgrades.billId, billId))
      .limit(1);
    rows = upgrade?.after ?? [];
  }
  if (!rows.length) return [];
  const codes = new Map(
    (
      await db
        .select({ id: cityNodes.id, code: cityNodes.code })
        .from(cityNodes)
        .where(
          inArray(
            cityNodes.id,
            rows.map((r) => r.cityNodeId),
          ),
        )
    ).map((c) => [c.id, c.code]),
  );
  return rows.map((r) => ({
    nodeCode: codes.get(r.cityNodeId) ?? String(r.cityNodeId),
    tps: r.tps,
    capacityGb: r.capacityGb,
    peers: r.peers,
  }));
}
