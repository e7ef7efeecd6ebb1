import { eq } from "drizzle-orm";
import type { Db, Tx } from "#backend/db/client.ts";
import type { PRICE_AREAS } from "#contract/prices.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { pubChainOrgs } from "./tables.ts";

/** A plan's price column (contract/prices.ts PRICE_AREAS.publicChainPlan). */
export type PlanPriceField = (typeof PRICE_AREAS.publicChainPlan)[number];

/**
 * The organisation nodes that offer the public chain (SPEC §3), with the plan each sells and its limits, in
 * both languages. Upserted by org code at every start (after the platform's city nodes), so changes reach
 * existing databases; a node missing from the city-node catalogue is skipped.
 */
const ORGS = [
  {
    orgCode: "PC-BJ-01",
    cityNode: "CN-BJ-01",
    planName: "Open alliance standard",
    planNameZh: "开放联盟链标准版",
    priceCents: 1_000,
    periodDays: 365,
    projectMax: 5,
    dayReqMin: 1_000,
    dayReqMax: 1_000_000,
  },
  {
    orgCode: "PC-SH-01",
    cityNode: "CN-SH-01",
    planName: "Open alliance basic",
    planNameZh: "开放联盟链基础版",
    priceCents: 500,
    periodDays: 365,
    projectMax: 3,
    dayReqMin: 100,
    dayReqMax: 100_000,
  },
  {
    orgCode: "PC-HK-01",
    cityNode: "HK-01",
    planName: "Open alliance international",
    planNameZh: "开放联盟链国际版",
    priceCents: 2_000,
    periodDays: 365,
    projectMax: 10,
    dayReqMin: 1_000,
    dayReqMax: 5_000_000,
  },
  {
    orgCode: "PC-SG-01",
    cityNode: "SG-01",
    planName: "Open alliance starter",
    planNameZh: "开放联盟链入门版",
    priceCents: 0,
    periodDays: 30,
    projectMax: 1,
    dayReqMin: 10,
    dayReqMax: 10_000,
  },
] as const;

export async function seedPublicChainOrgs(db: Db) {
  for (const { cityNode, ...org } of ORGS) {
    const [node] = await db.select({ id: cityNodes.id }).from(cityNodes).where(eq(cityNodes.code, cityNode));
    if (!node) continue;
    const row = { ...org, cityNodeId: node.id, appType: 1, frameworks: ["evm"], selling: true };
    // The plan's price is written only when the node is new: afterwards operators own it (docs/decisions/036).
    const { priceCents: _price, ...rest } = row;
    await db.insert(pubChainOrgs).values(row).onConflictDoUpdate({ target: pubChainOrgs.orgCode, set: rest });
  }
}

/** Sets an organisation node's plan prices (the operators' prices page) inside the caller's transaction. */
export async function setPlanPrices(tx: Tx, id: number, prices: Partial<Record<PlanPriceField, number>>) {
  await tx.update(pubChainOrgs).set(prices).where(eq(pubChainOrgs.id, id));
}
