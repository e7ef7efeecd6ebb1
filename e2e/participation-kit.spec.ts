import { execFile } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { Download, Page } from "@playwright/test";
import { strFromU8, unzipSync } from "fflate";
import { expect, test } from "./fixtures.ts";
import { api, apiToken, logInAs, OPERATOR, publisherWithService } from "./services-support.ts";
import { createActiveUser, PASSWORD, uniqueUser } from "./support.ts";

// The participant's access kit (issue 28 item 7; docs/decisions/070), JavaScript on and off: an approved
// participant downloads its key and the kit from the Access page, unpacks the kit, and runs the kit's own sample
// script with node against this portal (an eth_call on an EVM service; a Submit through the Fabric gateway).
// The application and approvals go through the API (e2e/participation.spec.ts walks their forms). On Fabric the
// journey ends on the publisher's service page, whose traffic view shows the sample's metered calls.

const CERT_PASSWORD = "Secret42";

async function approvedParticipant(
  request: Parameters<typeof publisherWithService>[0],
  testInfo: Parameters<typeof uniqueUser>[0],
  framework: "fisco" | "fabric",
  certificateMode: 1 | 2,
) {
  const pub = await publisherWithService(request, `k${framework[1]}`, testInfo, {
    verState: 25,
    nodeCount: 2,
    framework,
  });
  await api(request, "/test/participation/service", { appId: pub.appId, certificateMode }, pub.token);
  const link = await api(request, "/sys/chainAppInfo/invite", { appVerId: pub.appVerId, language: "en" }, pub.token);
  const participant = await createActiveUser(request, uniqueUser(testInfo, `kq${framework[1]}`));
  const token = await apiToken(request, participant.userName);
  const invite = new URL(link.path, "http://x").searchParams;
  const { ticket } = await api(
    request,
    "/sys/chainAppInfo/applyJoinApp",
    { appId: pub.appId, token: invite.get("c"), expiry: invite.get("d"), language: invite.get("e") },
    token,
  );
  const condition = { appId: pub.appId, ticket };
  const page = { pageSize: 50, pageIndex: 1, condition };
  const roles = (await api(request, "/sys/chainAppInfo/queryRolesForAppList", { page }, token)).page.rows;
  const cities = (await api(request, "/sys/chainAppInfo/queryReleaseCitysForAppList", { page }, token)).page.rows;
  const joined = await api(
    request,
    "/sys/chainAppInfo/joinApp",
    {
      ...condition,
      roleId: roles[0].roleId,
      cityNodeIds: cities
        .filter((c: { released: boolean }) => c.released)
        .map((c: { cityNodeId: number }) => c.cityNodeId),
      certificateMode,
      ...(certificateMode === 2 ? { password: CERT_PASSWORD, confirmPassword: CERT_PASSWORD } : {}),
    },
    token,
  );
  const ref = { appJoinAuditId: joined.appJoinAuditId as number };
  await api(request, "/sys/chainAppInfo/auditAppJoined", { ...ref, auditState: 1 }, pub.token);
  await api(
    request,
    "/sys/ops/participations/decide",
    { ...ref, decision: "approve" },
    await apiToken(request, OPERATOR.userName, OPERATOR.password),
  );
  return { pub, participant, ...ref };
}

const bytesOf = async (download: Download) => readFileSync((await download.path())!);

/** The Access page once the work-order job has given access (the server runs due jobs every 500 ms). */
async function openAccess(page: Page, appId: number) {
  await expect
    .poll(
      async () => {
        await page.goto(`/g/home/ParticipatedServices/Access?appId=${appId}`);
        return page.getByTestId("download-access-kit").count();
      },
      { timeout: 30_000 },
    )
    .toBe(1);
}

/** The folders `unpack` made, removed after each test. */
const unpacked: string[] = [];
test.afterEach(() => {
  for (const dir of unpacked.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** The kit unpacked beside the key, its node_modules the repository's (what `npm i` in the folder gives). */
function unpack(zip: Buffer, keyPem: Buffer) {
  const dir = mkdtempSync(path.join(tmpdir(), "bsn-e2e-kit-"));
  unpacked.push(dir);
  const entries = unzipSync(new Uint8Array(zip));
  for (const [name, bytes] of Object.entries(entries)) {
    const inside = name.split("/").slice(1).join("/");
    mkdirSync(path.dirname(path.join(dir, inside)), { recursive: true });
    writeFileSync(path.join(dir, inside), bytes);
    expect(strFromU8(bytes), name).not.toMatch(/PRIVATE KEY-----/);
  }
  writeFileSync(path.join(dir, "my-key.pem"), keyPem);
  symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

const runSample = (dir: string, args: string[], env: Record<string, string> = {}) =>
  promisify(execFile)(process.execPath, ["sample.mjs", "my-key.pem", ...args], {
    cwd: dir,
    env: { NODE_ENV: "production", PATH: process.env.PATH ?? "", ...env },
    timeout: 60_000,
  });

test("an EVM participant (certificate mode 1) runs the kit's viem sample against the portal; others get a 404", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const p = await approvedParticipant(page.request, testInfo, "fisco", 1);
  await logInAs(page, p.participant.userName, PASSWORD);
  await openAccess(page, p.pub.appId);
  const [keyDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("button", { name: "Private key (once)" }).click(),
  ]);
  const keyPem = await bytesOf(keyDownload);
  await page.goto(`/g/home/ParticipatedServices/Access?appId=${p.pub.appId}`);
  const [kitDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("download-access-kit").click(),
  ]);
  expect(kitDownload.suggestedFilename()).toMatch(/-access-kit\.zip$/);
  const dir = unpack(await bytesOf(kitDownload), keyPem);
  const kit = JSON.parse(readFileSync(path.join(dir, "kit.json"), "utf8"));
  expect(kit.nodes).toHaveLength(2);
  const { stdout } = await runSample(dir, []);
  for (const n of kit.nodes) expect(stdout).toContain(`${n.code}: chain ${kit.chainId}, block `);
  expect(stdout).toContain(`${kit.contracts[0].contractName} read-only functions: values(string)`);
  // An eth_call of a named function with its argument.
  const called = await runSample(dir, [kit.contracts[0].contractName, "values", "lot-1"]);
  expect(called.stdout).toContain(`${kit.contracts[0].contractName}.values(lot-1) = 0`);

  // The publisher of the service is not its participant: the same 404 as any stranger.
  await logInAs(page, p.pub.user.userName, PASSWORD);
  const other = await page.request.get(`/g/home/ParticipatedServices/AccessKit?appJoinAuditId=${p.appJoinAuditId}`);
  expect(other.status()).toBe(404);
});

test("a Fabric participant (certificate mode 2) submits through the gateway with the kit's sample and its password", async ({
  page,
}, testInfo) => {
  test.setTimeout(120_000);
  const p = await approvedParticipant(page.request, testInfo, "fabric", 2);
  await logInAs(page, p.participant.userName, PASSWORD);
  await openAccess(page, p.pub.appId);
  const [keyDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByRole("link", { name: "Private key", exact: true }).click(),
  ]);
  const keyPem = await bytesOf(keyDownload);
  expect(keyPem.toString()).toContain("ENCRYPTED PRIVATE KEY");
  const [kitDownload] = await Promise.all([
    page.waitForEvent("download"),
    page.getByTestId("download-access-kit").click(),
  ]);
  const dir = unpack(await bytesOf(kitDownload), keyPem);
  const kit = JSON.parse(readFileSync(path.join(dir, "kit.json"), "utf8"));
  expect(kit.channel).toBe(kit.appCode.toLowerCase());
  const write = kit.functions.find((f: { call: string }) => f.call === "submit");
  const { stdout } = await runSample(dir, ["submit", write.name, "lot-1", "7"], { KIT_KEY_PASSWORD: CERT_PASSWORD });
  expect(stdout).toContain(`submit ${write.name}: ok`);

  // The whole journey: the sample's Submit (Endorse, Submit, CommitStatus through the gateway: three calls) is
  // metered, and the publisher's service page shows it in its traffic view, today's row (the last). The meter
  // writes once a second: the page is read again until the figure is there.
  await logInAs(page, p.pub.user.userName, PASSWORD);
  const today = page.getByTestId("service-traffic").locator("tbody tr").last();
  await expect
    .poll(
      async () => {
        await page.goto(
          `/g/home/PermissionedServices/PublishedServices/ServicesDetail?appId=${p.pub.appId}&appVerId=${p.pub.appVerId}&activeNames=chaincode`,
        );
        return today.locator("td").nth(1).innerText();
      },
      { timeout: 30_000 },
    )
    .toBe("3");
  await expect(today.locator("td").nth(2)).not.toHaveText(/^0\s*B$/);
  await expect(today.locator("td").nth(3)).not.toHaveText(/^0\s*B$/);
});
