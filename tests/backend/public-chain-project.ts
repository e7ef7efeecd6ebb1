import { okVia } from "../support/envelope.ts";
import { idempotencyKeys } from "../support/ids.ts";
import { waitFor } from "../support/wait.ts";
import { call } from "./client.ts";

const ok = okVia((p: string, body: unknown, token: string) => call(p, body, token));
const idem = idempotencyKeys("pcp");

/**
 * An open-alliance project of the user `token` on the Beijing node (plan bought, project created, deployed:
 * status 11), over HTTP to the test server, whose job loop deploys it; answers its id. The user has a balance.
 */
export async function deployedProject(token: string, name: string): Promise<number> {
  const orgs = await ok(
    "/sys/pubChainOrg/queryPubOrgList",
    { page: { pageSize: 50, pageIndex: 1, condition: {} } },
    token,
  );
  const plan = await ok(
    "/sys/opc/plan/buy",
    { orgId: orgs.page.rows.find((o: any) => o.orgCode === "PC-BJ-01").orgId, idempotencyKey: idem() },
    token,
  );
  const { projectId } = await ok(
    "/sys/opc/project/create",
    { planId: plan.planId, name, framework: "evm", dailyRequests: "1000" },
    token,
  );
  await waitFor(
    "deployed",
    () => ok("/sys/opc/project/detail", { projectId }, token),
    (d: any) => d.status === 11,
  );
  return projectId;
}
