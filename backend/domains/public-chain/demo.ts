import { bytesToHex, privateToAddress, toChecksumAddress } from "@ethereumjs/util";
import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { BillType } from "#contract/billing-codes.ts";
import {
  GasStatus,
  KeyType,
  PLAN_BILL_TYPE,
  PlanStatus,
  ProjectStatus,
  weiForCents,
} from "#contract/public-chain-codes.ts";
import type { DemoSeeder } from "#backend/kit/domain.ts";
import billing from "#backend/domains/billing/index.ts";
import chain from "#backend/domains/chain/index.ts";
import { paidBill } from "./bills.ts";
import { coinPriceCents } from "./prices.ts";
import { newProjectKey, sealCustodyKey } from "./keys.ts";
import {
  pubChainAccounts,
  pubChainGas,
  pubChainOrgs,
  pubChainPlans,
  pubChainProjectTransitions,
  pubChainProjects,
} from "./tables.ts";

const HOUR = 3_600_000;

/**
 * Demo public chain (backend/seed.ts): democompany holds a plan on the Beijing node (paid from its balance), an
 * enabled project with its key, and a custody chain account that received gas — a real transfer from the
 * open-alliance treasury. The money is posted through the demo timeline, in time order with the rest.
 */
export const seedDemoPublicChain: DemoSeeder = async (deps, created, now, timeline) => {
  const company = created.democompany;
  if (!company) return;
  const at = (hoursAgo: number) => new Date(now.getTime() - hoursAgo * HOUR);
  const { db, env } = deps;
  const [org] = await db.select().from(pubChainOrgs).where(eq(pubChainOrgs.orgCode, "PC-BJ-01"));
  if (!org) return;
  const gasCents = 500;
  const privateKey = randomBytes(32);
  const address = toChecksumAddress(bytesToHex(privateToAddress(privateKey)));
  const wei = weiForCents(gasCents, await coinPriceCents(db));
  const hash = await chain.api.fund(deps, chain.api.OPEN_ALLIANCE, address, wei);

  await db.transaction(async (tx) => {
    const bought = at(72);
    const expiresAt = new Date(bought.getTime() + org.periodDays * 24 * HOUR);
    const planBill = await paidBill(tx, {
      userId: company,
      billType: PLAN_BILL_TYPE,
      serviceName: `${org.planName} · Beijing`,
      cents: org.priceCents,
      at: bought,
      periodEnd: expiresAt,
      yearly: true,
      prefix: "PC",
      dedupeKey: `pc-plan:${company}:demo`,
    });
    timeline.later(bought, (ltx) =>
      billing.api.post(
        ltx,
        {
          userId: company,
          kind: "bill_payment",
          amountCents: org.priceCents,
          refType: "bill",
          refId: planBill.id,
          idempotencyKey: "pc-plan:demo",
        },
        bought,
      ),
    );
    const [plan] = await tx
      .insert(pubChainPlans)
      .values({
        userId: company,
        orgId: org.id,
        status: PlanStatus.ACTIVE,
        billId: planBill.id,
        idempotencyKey: "demo-plan",
        createdAt: bought,
        expiresAt,
      })
      .returning();

    const made = at(71.9);
    const { key: _shown, ...key } = newProjectKey(env);
    const [project] = await tx
      .insert(pubChainProjects)
      .values({
        userId: company,
        planId: plan.id,
        name: "Supply-chain DApp",
        framework: "evm",
        chain: chain.api.OPEN_ALLIANCE,
        dailyRequests: 100_000,
        status: ProjectStatus.ENABLED,
        ...key,
        keyEnabled: true,
        keyCreatedAt: made,
        createdAt: made,
        updatedAt: at(71.5),
      })
      .returning();
    const moves = [
      ["deployStart", "system", ProjectStatus.PENDING_DEPLOYMENT, ProjectStatus.DEPLOYING, at(71.9)],
      ["deployOk", "system", ProjectStatus.DEPLOYING, ProjectStatus.TO_BE_ENABLED, at(71.8)],
      ["enable", "user", ProjectStatus.TO_BE_ENABLED, ProjectStatus.ENABLED, at(71.5)],
    ] as const;
    for (const [event, actor, fromStatus, toStatus, when] of moves)
      await tx
        .insert(pubChainProjectTransitions)
        .values({ projectId: project.id, event, actor, fromStatus, toStatus, createdAt: when });

    const [account] = await tx
      .insert(pubChainAccounts)
      .values({
        userId: company,
        projectId: project.id,
        name: "Operations wallet",
        address,
        keyType: KeyType.CUSTODY,
        keySealed: sealCustodyKey(env, bytesToHex(privateKey)),
        gasWarningWei: (10n ** 16n).toString(),
        createdAt: at(71.4),
      })
      .returning();
    const assigned = at(71.3);
    const gasBill = await paidBill(tx, {
      userId: company,
      billType: BillType.ASSIGN_GAS,
      serviceName: "Supply-chain DApp · Operations wallet",
      cents: gasCents,
      at: assigned,
      periodEnd: assigned,
      yearly: false,
      prefix: "GS",
      dedupeKey: `pc-gas:${company}:demo`,
    });
    timeline.later(assigned, (ltx) =>
      billing.api.post(
        ltx,
        {
          userId: company,
          kind: "bill_payment",
          amountCents: gasCents,
          refType: "bill",
          refId: gasBill.id,
          idempotencyKey: "pc-gas:demo",
        },
        assigned,
      ),
    );
    await tx.insert(pubChainGas).values({
      userId: company,
      accountId: account.id,
      billId: gasBill.id,
      amountCents: gasCents,
      wei: wei.toString(),
      status: GasStatus.DONE,
      txHash: hash,
      idempotencyKey: "demo-gas",
      createdAt: assigned,
    });
  });
};
