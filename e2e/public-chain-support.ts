import type { APIRequestContext } from "@playwright/test";
import { expect } from "./fixtures.ts";
import { api, apiToken } from "./services-support.ts";
import { createActiveUser, uniqueUser } from "./support.ts";

/** Set-up of the public-chain specs (SPEC §2 PermissionlessServices), through the API. */

/** A fresh user with a balance (the tests-only fixtures path), logged in through the API. */
export async function userWithBalance(
  request: APIRequestContext,
  prefix: string,
  testInfo: Parameters<typeof uniqueUser>[0],
  grantCents: number,
) {
  const user = await createActiveUser(request, uniqueUser(testInfo, prefix));
  const token = await apiToken(request, user.userName);
  await api(request, "/test/fixtures", { grantCents }, token);
  return { ...user, token };
}

/** A plan on the Shanghai node and an enabled project, through the API (for the tests about other things). */
export async function enabledProject(request: APIRequestContext, token: string, name: string) {
  const orgs = await api(
    request,
    "/sys/pubChainOrg/queryPubOrgList",
    { page: { pageSize: 10, pageIndex: 1, condition: { orgName: "Shanghai" } } },
    token,
  );
  const org = orgs.page.rows[0];
  const { planId } = await api(
    request,
    "/sys/opc/plan/buy",
    { orgId: org.orgId, idempotencyKey: `plan-${Date.now()}-${name.replace(/[^A-Za-z0-9]/g, "")}`.slice(0, 60) },
    token,
  );
  const project = await api(
    request,
    "/sys/opc/project/create",
    { planId, name, framework: "evm", dailyRequests: "1000" },
    token,
  );
  await expect
    .poll(async () => (await api(request, "/sys/opc/project/detail", { projectId: project.projectId }, token)).status, {
      timeout: 30_000,
    })
    .toBe(11);
  await api(request, "/sys/opc/project/enable", { projectId: project.projectId }, token);
  return project.projectId as number;
}

/** A custody chain account of the project with gas bought for `amount` dollars, once the gas is on the chain. */
export async function custodyAccountWithGas(
  request: APIRequestContext,
  token: string,
  projectId: number,
  name: string,
  amount = "2",
) {
  const account = await api(
    request,
    "/sys/opc/account/create",
    { projectId, name, keyType: "1", gasWarning: "0.001" },
    token,
  );
  await api(
    request,
    "/sys/opc/account/assignGas",
    { accountId: account.accountId, amount, idempotencyKey: `gas-${account.accountId}-${Date.now()}` },
    token,
  );
  await expect
    .poll(
      async () =>
        BigInt((await api(request, "/sys/opc/account/detail", { accountId: account.accountId }, token)).gasWei ?? "0"),
      { timeout: 30_000 },
    )
    .toBeGreaterThan(0n);
  return account.accountId as number;
}
