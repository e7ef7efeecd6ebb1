import { expect, test } from "./fixtures.ts";
import { api, apiToken, logInAs, OPERATOR, publisherWithService } from "./services-support.ts";
import { createActiveUser, PASSWORD, uniqueUser } from "./support.ts";

// docs/decisions/038: a FISCO BCOS service ends up with a real contract on its own chain: the chaincode tab shows
// the chain id, the endpoint and the addresses; an approved participant's Access page gives the endpoint with a
// key of their own and the address, and a call with them works. Runs with JavaScript on and off.

test("a consortium EVM service shows its chain and contracts; a participant's access parameters call it", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(120_000);
  const svc = await publisherWithService(request, "evm", testInfo, { verState: 25, framework: "fisco", nodeCount: 1 });

  await logInAs(page, svc.user.userName, PASSWORD);
  await page.goto(`/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${svc.appId}`);
  const chain = page.getByTestId("service-chain");
  await expect(chain.getByTestId("chain-id")).toHaveText(/^\d+$/);
  await expect(chain.getByTestId("chain-endpoint")).toHaveText(/\/chain\/service\/[A-Za-z0-9_-]{43}$/);
  await expect(chain.getByTestId("chain-contract")).toHaveCount(2);
  const address = (await chain.getByTestId("chain-contract-address").first().textContent())!;
  expect(address).toMatch(/^0x[0-9a-fA-F]{40}$/);
  const publisherEndpoint = (await chain.getByTestId("chain-endpoint").textContent())!;

  // An approved participant, through the API (the join and review screens are tested in participation.spec.ts).
  await api(request, "/test/participation/service", { appId: svc.appId, certificateMode: 1 }, svc.token);
  const link = new URL(
    (await api(request, "/sys/chainAppInfo/invite", { appVerId: svc.appVerId, language: "en" }, svc.token)).path,
    "http://x",
  ).searchParams;
  const participant = await createActiveUser(request, uniqueUser(testInfo, "evmp"));
  const token = await apiToken(request, participant.userName);
  const { ticket } = await api(
    request,
    "/sys/chainAppInfo/applyJoinApp",
    { appId: svc.appId, token: link.get("c"), expiry: link.get("d"), language: link.get("e") },
    token,
  );
  const condition = { appId: svc.appId, ticket };
  const roles = (
    await api(
      request,
      "/sys/chainAppInfo/queryRolesForAppList",
      { page: { pageSize: 999, pageIndex: 1, condition } },
      token,
    )
  ).page.rows;
  const cities = (
    await api(
      request,
      "/sys/chainAppInfo/queryReleaseCitysForAppList",
      { page: { pageSize: 50, pageIndex: 1, condition } },
      token,
    )
  ).page.rows;
  const joined = await api(
    request,
    "/sys/chainAppInfo/joinApp",
    {
      ...condition,
      roleId: roles[0].roleId,
      cityNodeIds: [cities.find((c: { released: boolean }) => c.released).cityNodeId],
      certificateMode: 1,
    },
    token,
  );
  const ref = { appJoinAuditId: joined.appJoinAuditId };
  await api(request, "/sys/chainAppInfo/auditAppJoined", { ...ref, auditState: 1 }, svc.token);
  await api(
    request,
    "/sys/ops/participations/decide",
    { ...ref, decision: "approve" },
    await apiToken(request, OPERATOR.userName, OPERATOR.password),
  );
  await expect
    .poll(
      async () =>
        (await api(request, "/sys/chainAppInfo/view", { appId: svc.appId, ...ref }, token)).participation.accessAllowed,
      { timeout: 30_000 },
    )
    .toBe(true);

  await logInAs(page, participant.userName, PASSWORD);
  await page.goto(`/g/home/ParticipatedServices/Access?appId=${svc.appId}`);
  const mine = page.getByTestId("service-chain");
  await expect(mine.getByTestId("chain-contract-address").first()).toHaveText(address);
  const endpoint = (await mine.getByTestId("chain-endpoint").textContent())!;
  expect(endpoint).not.toBe(publisherEndpoint);
  // A call with the page's parameters: the contract's code is on the service's chain.
  const answer = await request.post(new URL(endpoint).pathname, {
    data: { jsonrpc: "2.0", id: 1, method: "eth_getCode", params: [address, "latest"] },
  });
  expect(answer.status()).toBe(200);
  expect(((await answer.json()) as { result: string }).result.length).toBeGreaterThan(100);
});
