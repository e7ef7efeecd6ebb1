import { readFileSync } from "node:fs";
import path from "node:path";
import { and, eq } from "drizzle-orm";
import { ContractStatus } from "#contract/contracts-codes.ts";
import { KeyType } from "#contract/public-chain-codes.ts";
import type { DemoSeeder } from "#backend/kit/domain.ts";
import { pubChainAccounts, pubChainProjects } from "#backend/domains/public-chain/tables.ts";
import { deployContract } from "./jobs.ts";
import { pubChainContracts } from "./tables.ts";

/** The demo token's source, compiled at seed time by the server's solc worker (backend/domains/contracts/DemoToken.sol). */
export const DEMO_TOKEN_FILE = path.join(process.cwd(), "backend/domains/contracts/DemoToken.sol");

/**
 * Demo data (backend/seed.ts): democompany's project "Supply-chain DApp" gets a deployed demo token
 * ("Demo Token", DEMO, 1,000,000 with 18 decimals), compiled from its source and deployed from the project's
 * custody account by the same code as any deployment (it pays the gas).
 */
export const seedDemoContracts: DemoSeeder = async (deps, created, now) => {
  const company = created.democompany;
  if (!company) return;
  const [row] = await deps.db
    .select({ project: pubChainProjects, account: pubChainAccounts })
    .from(pubChainProjects)
    .innerJoin(pubChainAccounts, eq(pubChainAccounts.projectId, pubChainProjects.id))
    .where(and(eq(pubChainProjects.userId, company), eq(pubChainAccounts.keyType, KeyType.CUSTODY)))
    .limit(1);
  if (!row) return;
  const at = new Date(now.getTime() - 71 * 3_600_000);
  const [contract] = await deps.db
    .insert(pubChainContracts)
    .values({
      userId: company,
      projectId: row.project.id,
      accountId: row.account.id,
      name: "Demo Token",
      sourceKind: "source",
      source: readFileSync(DEMO_TOKEN_FILE, "utf8"),
      mainContract: "DemoToken",
      constructorArgs: ["Demo Token", "DEMO", (10n ** 24n).toString()],
      status: ContractStatus.PENDING,
      createdAt: at,
      updatedAt: at,
    })
    .returning();
  await deployContract({ contractId: contract.id }, deps);
  const [done] = await deps.db.select().from(pubChainContracts).where(eq(pubChainContracts.id, contract.id));
  if (done?.status !== ContractStatus.SUCCESS)
    throw new Error(`the demo token was not deployed: ${done?.failReason ?? "unknown"}`);
};
