import { randomBytes } from "node:crypto";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { strToU8, zipSync } from "fflate";
import { afterAll, expect, inject } from "vitest";
import type { Json } from "./schema.ts";
import { activeUser, login } from "../client.ts";
import { tinyPng } from "../../fixtures/files.ts";
import { COUNTER_SOURCE } from "../fixtures/counter-contract.ts";
import { okVia } from "../../support/envelope.ts";
import { waitFor } from "../../support/wait.ts";
import { wizardBasic } from "../wizard-basic.ts";

/** Each world's services book 1 TPS and 1 GB a node: the run's later files share the city nodes on one database. */
const LITTLE = { tps: 1, capacityGb: 1 };

/**
 * The records one user owns, made through the real paths over HTTP (and the /test fixtures where users
 * cannot make them alone): bills, services in several statuses, a wizard draft with its parts, comments,
 * contacts, invoice titles, addresses and an application, payments (paid, open, offline), a withdrawal,
 * a saved card, products, participations both ways, a certificate, messages. The security suites call
 * paths as another user with these ids, and read them again as their owner to see that nothing changed.
 */

export type Reply = { status: number; code: number; message: string; data: any; text: string };

/** POST a /vueapi path; any answer (JSON or not) comes back with its HTTP status. */
export async function post(p: string, body: unknown = {}, token?: string, rawBody?: string): Promise<Reply> {
  const send = () =>
    fetch(`${inject("baseUrl")}/vueapi${p}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: rawBody ?? JSON.stringify({ userLanguage: "en", ...(body as object) }),
    });
  let res: Response;
  try {
    res = await send();
  } catch (error) {
    // A kept-alive connection the server closed while this process was busy (the fuzz plans its cases
    // synchronously): the request never reached it, so it is sent once more on a new connection.
    if ((error as { cause?: { code?: string } }).cause?.code !== "UND_ERR_SOCKET") throw error;
    res = await send();
  }
  const text = await res.text();
  let parsed: any = null;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON: kept as text
  }
  return { status: res.status, code: parsed?.code ?? -1, message: parsed?.message ?? "", data: parsed?.data, text };
}

export const ok = okVia((p: string, body: unknown, token: string) => post(p, body, token));

export const key = () => `sec${randomBytes(12).toString("hex")}`;
/** A dedicated node project's name: lowercase letters only, unique (docs/decisions/047). */
export const prnProjectName = () =>
  `sec${[...randomBytes(12)].map((b) => String.fromCharCode(97 + (b % 26))).join("")}`;
export const DEMO_PASSWORD = "Demo12!@pass";

export const PNG = tinyPng();
const ZIP = zipSync({ "chaincode/main.go": strToU8("package main\n\nfunc main() {}\n") });
const TXT = Buffer.from("read me\n");

/** The files of the wizard and the store, by upload kind (docs/decisions/023): name and bytes. */
const FILES = {
  cover: ["cover.png", PNG],
  attachment: ["readme.txt", TXT],
  chaincode: ["asset.zip", Buffer.from(ZIP)],
  ddc: ["certificate.png", PNG],
  support: ["screen.png", PNG],
} as const;
export type FileKind = keyof typeof FILES;

/** Uploads a file of `kind` as `token`'s user; answers its upload id, for the JSON call that uses it. */
export async function uploaded(kind: FileKind, token: string): Promise<{ uploadId: string }> {
  const [name, bytes] = FILES[kind];
  const res = await fetch(`${inject("baseUrl")}/vueapi/upload/${kind}`, {
    method: "POST",
    headers: { "Content-Type": "application/octet-stream", "X-File-Name": name, Authorization: `Bearer ${token}` },
    body: new Uint8Array(bytes),
  });
  const answer = (await res.json()) as { code: number; data: { uploadId: string } };
  expect(answer.code, `upload ${kind} ${JSON.stringify(answer)}`).toBe(0);
  return { uploadId: answer.data.uploadId };
}

/** The kinds of records a payload can name, and the values of one user's records of each kind. */
export const KINDS = [
  "bill",
  "app",
  "appVer",
  "comment",
  "contact",
  "title",
  "addressee",
  "invoice",
  "payment",
  "withdrawal",
  "product",
  "join",
  "certificate",
  "role",
  "function",
  "package",
  "attachment",
  "file",
  "user",
  "message",
  "refund",
  "ticket",
  "setupRef",
  "upload",
  "pcPlan",
  "pcProject",
  "pcAccount",
  "upgrade",
  "pcContract",
  "testService",
  "ipfsService",
  "ipfsFile",
  "ipfsUpgrade",
  "did",
  "credential",
  "ddc",
  "binding",
  "ideWorkspace",
  "ideFile",
  "supportTicket",
  "prnProject",
  "prnUpgrade",
  "crossCall",
  "alert",
  "pcTx",
] as const;
export type Kind = (typeof KINDS)[number];
export type Ids = Record<Kind, (number | string)[]>;

export type World = {
  userName: string;
  userId: number;
  token: string;
  /** In every name and text this user typed: finding it in another user's answer is a leak. */
  tag: string;
  ids: Ids;
  /** Numbers and codes the backend gave this user's records (bill, payment, withdrawal, application numbers, app codes, checkout ids). */
  markers: string[];
  /** Fields whose value in an answer identifies this user's data, e.g. the saved card's last4. */
  fieldMarkers: [string, string][];
  /** The wizard draft (appState add). */
  draftAppId: number;
  /** The running service others may join with this link (query a..e). */
  runAppId: number;
  invite: URLSearchParams;
  /** A card checkout still open: its sandbox page. */
  openCheckoutUrl: string;
  /** The payment that checkout is for. */
  openPaymentNo: string;
  /** Extra ids by role, for the pages suite. */
  named: Record<string, number | string>;
  /** Files this user uploaded and never used (pending uploads), by kind: the payloads' files. */
  pending: Record<FileKind, { uploadId: string }>;
};

export type Publisher = { token: string; userName: string; appId: number; invite: URLSearchParams };

/** A user with a running service in certificate mode 1 and an invitation link to it. */
export async function publisher(prefix: string): Promise<Publisher> {
  const u = await activeUser(prefix);
  const svc = await ok(
    "/test/services",
    { verState: 25, name: `${prefix} ${key().slice(0, 10)} svc`, ...LITTLE },
    u.token,
  );
  await ok("/test/participation/service", { appId: svc.appId, certificateMode: 1 }, u.token);
  const link = await ok("/sys/chainAppInfo/invite", { appVerId: svc.appVerId, language: "en" }, u.token);
  return {
    token: u.token,
    userName: u.userName,
    appId: svc.appId,
    invite: new URL(`http://x${link.path}`).searchParams,
  };
}

/** Applies to join the service of an invitation (certificate mode 1), on a node the service runs on. */
export async function join(token: string, invite: URLSearchParams) {
  const appId = Number(invite.get("a"));
  const info = await ok(
    "/sys/chainAppInfo/applyJoinApp",
    { appId, token: invite.get("c"), expiry: invite.get("d"), language: invite.get("e") },
    token,
  );
  const ticket = info.ticket as string;
  const roles = await ok(
    "/sys/chainAppInfo/queryRolesForAppList",
    { page: { pageSize: 50, pageIndex: 1, condition: { appId, ticket } } },
    token,
  );
  const cities = await ok(
    "/sys/chainAppInfo/queryReleaseCitysForAppList",
    { page: { pageSize: 50, pageIndex: 1, condition: { appId, ticket } } },
    token,
  );
  const released = cities.page.rows.filter((c: any) => c.released).map((c: any) => c.cityNodeId);
  const joined = await ok(
    "/sys/chainAppInfo/joinApp",
    { appId, ticket, roleId: roles.page.rows[0].roleId, cityNodeIds: [released[0]], certificateMode: 1 },
    token,
  );
  return { joinId: joined.appJoinAuditId as number, certificateId: joined.certificateId as number, ticket };
}

/** Pays (or cancels) a sandbox checkout with a card through its hosted page, as a browser would. */
export async function payAtSandbox(redirectUrl: string, number = "4242424242424242") {
  const form = new URLSearchParams({ action: "pay", number, expiry: "12/39", cvc: "123", name: "Test Payer" });
  const res = await fetch(redirectUrl, { method: "POST", body: form, redirect: "manual" });
  expect(res.status, `sandbox pay ${redirectUrl}`).toBe(303);
}

let operatorToken: string | undefined;
/** The seeded operator (demo data is seeded on PGlite, and with SEED_DEMO=1 on PostgreSQL). */
export async function operator(): Promise<string> {
  if (!operatorToken) {
    const res = await login("demooperator", DEMO_PASSWORD);
    expect(res.code, JSON.stringify(res)).toBe(0);
    operatorToken = res.data.token;
  }
  return operatorToken!;
}

/**
 * Builds one user's records. `other` publishes a running service this user joins (and its participation is
 * taken to "participated"); `other` also applies to join this user's running service.
 */
export async function buildWorld(prefix: string, other: Publisher, card = "5555555555554444"): Promise<World> {
  const u = await activeUser(prefix);
  const token = u.token;
  const me = await ok("/main/getClientInfo", {}, token);
  const tag = `${prefix}${randomBytes(5).toString("hex")}`;
  const ids = Object.fromEntries(KINDS.map((k) => [k, []])) as unknown as Ids;
  const markers: string[] = [u.userName, u.email];
  const named: Record<string, number | string> = {};
  ids.user.push(me.userId);

  // A wizard draft with a cover, an attachment, a package, a function and a role (before any unpaid bill blocks it).
  const basic = {
    ...wizardBasic(`${tag} draft`),
    description: `${tag} description`,
    introduction: `${tag} introduction`,
  };
  const draftAppId = (
    await ok(
      "/sys/chainAppInfo/wizard/saveBasic",
      { appState: "add", basic, cover: await uploaded("cover", token) },
      token,
    )
  ).appId as number;
  const ref = { appState: "add", appId: draftAppId };
  await ok(
    "/sys/chainAppInfo/wizard/addAttachment",
    { ...ref, attachment: { attachmentName: `${tag} att` }, file: await uploaded("attachment", token) },
    token,
  );
  await ok(
    "/sys/chainAppInfo/wizard/addPackage",
    {
      ...ref,
      pkg: { name: "asset_cc", version: "1.0.0", language: "node", initParams: "a", mainPath: "lib/chaincode.js" },
      file: await uploaded("chaincode", token),
    },
    token,
  );
  const draft1 = (await ok("/sys/chainAppInfo/wizard/draft", ref, token)).draft;
  await ok("/sys/chainAppInfo/wizard/advance", { ...ref, from: "packages" }, token);
  const fn = {
    name: `${tag} fn`,
    packageId: String(draft1.packages[0].packageId),
    funcType: "1",
    func: "createAsset",
    parentId: "top",
    inputFormat: "{}",
    outputFormat: "{}",
  };
  await ok("/sys/chainAppInfo/wizard/addFunction", { ...ref, fn }, token);
  const draft2 = (await ok("/sys/chainAppInfo/wizard/draft", ref, token)).draft;
  await ok("/sys/chainAppInfo/wizard/advance", { ...ref, from: "functions" }, token);
  await ok(
    "/sys/chainAppInfo/wizard/addRole",
    {
      ...ref,
      role: {
        name: `${tag} role`,
        description: `${tag} role text`,
        functionIds: [String(draft2.functions[0].functionId)],
      },
    },
    token,
  );
  const draft = (await ok("/sys/chainAppInfo/wizard/draft", ref, token)).draft;
  ids.app.push(draftAppId);
  ids.appVer.push(draft.verId);
  ids.attachment.push(...draft.attachments.map((a: any) => a.attachmentId));
  ids.package.push(...draft.packages.map((p: any) => p.packageId));
  ids.function.push(...draft.functions.map((f: any) => f.functionId));
  ids.role.push(...draft.roles.map((r: any) => r.roleId));
  ids.file.push(draft.cover.fileId);
  markers.push(draft.appCode);
  named.draftAppId = draftAppId;

  // Services in stable statuses (no job moves them): running (with a comment), in initial review, to be paid, deactivated, and one unsubscribed.
  const services: Record<string, { appId: number; appVerId: number }> = {};
  for (const [label, verState] of [
    ["run", 25],
    ["review", 5],
    ["topay", 23],
    ["stopped", 30],
    ["unsub", 25],
  ] as const) {
    const svc = await ok(
      "/test/services",
      { verState, name: `${tag} ${label}`, comments: label === "run" ? [`${tag} comment`] : [], ...LITTLE },
      token,
    );
    services[label] = svc;
    ids.app.push(svc.appId);
    ids.appVer.push(svc.appVerId);
    named[`${label}AppId`] = svc.appId;
    named[`${label}AppVerId`] = svc.appVerId;
  }
  await ok("/test/participation/service", { appId: services.run.appId, certificateMode: 1 }, token);
  await ok("/sys/chainAppInfo/unsubscribe", { appVerId: services.unsub.appVerId, reason: `${tag} unsubscribe` }, token);
  for (const label of Object.keys(services)) {
    const detail = await ok("/sys/chainAppInfo/publishedDetail", { appId: services[label].appId }, token);
    markers.push(detail.appCode);
    ids.comment.push(...detail.comments.map((c: any) => c.commentId));
    ids.role.push(...detail.contents.roles.map((r: any) => r.roleId));
    ids.refund.push(...detail.refunds.map((r: any) => r.refundId));
    if (detail.bill) {
      ids.bill.push(detail.bill.billId);
      markers.push(detail.bill.billNo);
    }
  }
  // A call record of the running service (docs/decisions/048), made by the fixture: no chain needed.
  const crossCall = await ok("/test/crossChain/call", { appId: services.run.appId }, token);
  ids.crossCall.push(crossCall.callId);
  named.crossCallAppId = services.run.appId;
  // The free plan's running service with a configuration upgrade waiting for review (docs/decisions/036).
  const free = await ok("/test/services", { verState: 25, free: true, name: `${tag} free`, ...LITTLE }, token);
  ids.app.push(free.appId);
  ids.appVer.push(free.appVerId);
  named.freeAppId = free.appId;
  const options = await ok("/sys/configUpgrade/options", { appId: free.appId }, token);
  const upgrade = await ok(
    "/sys/configUpgrade/create",
    { appId: free.appId, upgradeType: 2, nodes: options.current.map((n: any) => ({ ...n, tps: n.tps + 1 })) },
    token,
  );
  ids.upgrade.push(upgrade.upgradeId);
  markers.push(upgrade.upgradeNo);
  named.upgradeId = upgrade.upgradeId;
  const link = await ok("/sys/chainAppInfo/invite", { appVerId: services.run.appVerId, language: "en" }, token);
  const invite = new URL(`http://x${link.path}`).searchParams;
  markers.push(invite.get("c")!);

  // Bills: unpaid, paid (one invoiced below), expired.
  const fixtures = await ok(
    "/test/fixtures",
    {
      grantCents: 10_000,
      bills: [
        { totalCents: 1_000, serviceName: `${tag} unpaid` },
        { totalCents: 2_500, payState: 15, serviceName: `${tag} paid` },
        { totalCents: 1_200, payState: 15, serviceName: `${tag} paid two` },
        { totalCents: 300, payState: 10, serviceName: `${tag} expired` },
      ],
    },
    token,
  );
  ids.bill.push(...fixtures.billIds);
  named.billId = fixtures.billIds[0];
  // A budget below this month's bills: an alert told at once (issue 35 §1), in the account's history.
  await ok("/sys/alerts/save", { monthlyBudget: "1" }, token);
  ids.alert.push(...(await ok("/sys/alerts/history", {}, token)).page.rows.map((r: { id: number }) => r.id));

  // Contacts, invoice title, receiving address, an invoice application of one paid bill.
  const contact = await ok(
    "/sys/system/clientInfo/insertContactList",
    { name: `${tag} contact`, mobile: "13800000001", email: `${tag}c@example.com`, department: `${tag} dept` },
    token,
  );
  ids.contact.push(contact.contactId);
  const title = await ok("/sys/invoicetitles/h5insertInvoiceTitle", { titleType: "1", title: `${tag} title` }, token);
  ids.title.push(title.titleId);
  const addressee = await ok(
    "/sys/system/clientInfo/addOrUpdateClientAddressee",
    { name: `${tag} addr`, mobile: "13800000002", location: `${tag} city`, address: `${tag} street` },
    token,
  );
  ids.addressee.push(addressee.addresseeId);
  const invoice = await ok(
    "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade",
    {
      idempotencyKey: key(),
      billIds: [String(fixtures.billIds[1])],
      titleId: String(title.titleId),
      invoiceType: "1",
      issuance: "1",
      addresseeId: String(addressee.addresseeId),
      remark: `${tag} remark`,
    },
    token,
  );
  ids.invoice.push(invoice.invoiceId);
  markers.push(invoice.applicationNo);

  // Payments: a card recharge paid at the sandbox (withdrawable money), one left open, an offline remittance; a withdrawal.
  const paid = await ok("/sys/account/recharge", { payType: "GT0002", amount: "20.00", idempotencyKey: key() }, token);
  await payAtSandbox(paid.redirectUrl, card);
  await waitFor(
    "card recharge paid",
    () => ok("/sys/account/payment", { paymentNo: paid.payment.paymentNo, refresh: true }, token),
    (d) => d.payment.status === 15,
  );
  const open = await ok("/sys/account/recharge", { payType: "GT0002", amount: "5.00", idempotencyKey: key() }, token);
  const offline = await ok(
    "/sys/account/recharge",
    { payType: "GT0004", amount: "7.00", remittanceRef: `REF-${tag}`, idempotencyKey: key() },
    token,
  );
  for (const p of [paid, open, offline]) {
    ids.payment.push(p.payment.paymentNo);
    markers.push(p.payment.paymentNo);
  }
  markers.push(new URL(open.redirectUrl).pathname.split("/").pop()!);
  const withdrawal = await ok("/sys/account/h5cashOutAmount", { amount: "3.00", idempotencyKey: key() }, token);
  ids.withdrawal.push(withdrawal.withdrawal.withdrawalNo);
  markers.push(withdrawal.withdrawal.withdrawalNo);

  // A saved card (its checkout reference is the setupRef the card path reads).
  const setup = await ok("/sys/account/cardSetup", {}, token);
  await payAtSandbox(setup.redirectUrl, card);
  const setupRef = new URL(setup.redirectUrl).pathname.split("/").pop()!;
  await waitFor(
    "card saved",
    () => ok("/sys/account/card", { setupRef }, token),
    (d) => d.card !== null,
  );
  ids.setupRef.push(setupRef);
  markers.push(setupRef);

  // The public chain: a plan (paid from the balance), an enabled project with its key, a custody account with gas and an uploaded address.
  const orgs = await ok(
    "/sys/pubChainOrg/queryPubOrgList",
    { page: { pageSize: 50, pageIndex: 1, condition: {} } },
    token,
  );
  const org = orgs.page.rows.find((o: any) => o.orgCode === "PC-SH-01");
  const plan = await ok("/sys/opc/plan/buy", { orgId: org.orgId, idempotencyKey: key() }, token);
  ids.pcPlan.push(plan.planId);
  markers.push(plan.billNo);
  const project = await ok(
    "/sys/opc/project/create",
    { planId: plan.planId, name: `${tag} project`, framework: "evm", dailyRequests: "1000" },
    token,
  );
  ids.pcProject.push(project.projectId);
  await waitFor(
    "project deployed",
    () => ok("/sys/opc/project/detail", { projectId: project.projectId }, token),
    (d) => d.status === 11,
  );
  await ok("/sys/opc/project/enable", { projectId: project.projectId }, token);
  const projectKey = (await ok("/sys/opc/project/key", { projectId: project.projectId, action: "show" }, token))
    .apiKey as string;
  markers.push(projectKey);
  named.projectKey = projectKey;
  const custody = await ok(
    "/sys/opc/account/create",
    { projectId: project.projectId, name: `${tag} custody`, keyType: "1", gasWarning: "0" },
    token,
  );
  const uploadedAddress = `0x${randomBytes(20).toString("hex")}`;
  const watched = await ok(
    "/sys/opc/account/create",
    { projectId: project.projectId, name: `${tag} address`, keyType: "3", address: uploadedAddress, gasWarning: "0" },
    token,
  );
  ids.pcAccount.push(custody.accountId, watched.accountId);
  markers.push(custody.address, watched.address);
  const gas = await ok(
    "/sys/opc/account/assignGas",
    { accountId: custody.accountId, amount: "0.50", idempotencyKey: key() },
    token,
  );
  markers.push(gas.billNo, gas.txHash);
  // A contract deployed from the custody account (docs/decisions/033), from a small source compiled on the server.
  const contract = await ok(
    "/sys/opc/contract/create",
    {
      projectId: project.projectId,
      accountId: custody.accountId,
      name: `${tag} contract`,
      sourceKind: "source",
      source:
        "// SPDX-License-Identifier: MIT\npragma solidity 0.8.37;\ncontract Mark { event Marked(uint256 v); uint256 public v = 7; function mark(uint256 x) external { v = x; emit Marked(x); } }",
    },
    token,
  );
  ids.pcContract.push(contract.contractId);
  const contractDone = await waitFor(
    "contract deployed",
    () => ok("/sys/opc/contract/detail", { contractId: contract.contractId }, token),
    (d) => d.status === 2 || d.status === 3,
  );
  expect(contractDone.status, contractDone.failReason).toBe(2);
  markers.push(contractDone.address, contractDone.txHash);
  // A write to it, whose transaction (with its decoded event) the transaction page shows (docs/decisions/089).
  const marked = await ok(
    "/sys/opc/contract/write",
    { contractId: contract.contractId, signature: "mark(uint256)", args: ["5"], accountId: custody.accountId },
    token,
  );
  ids.pcTx.push(marked.transaction.hash.toLowerCase());
  markers.push(marked.transaction.hash);

  // An online IDE workspace from the storage sample (docs/decisions/044), its file first, then its folder.
  await ok("/sys/ide/grant", {}, token);
  const workspace = await ok("/sys/ide/workspace/create", { name: `${tag} workspace`, templateId: "storage" }, token);
  ids.ideWorkspace.push(workspace.workspaceId);
  const workspaceFiles = (await ok("/sys/ide/workspace/open", { workspaceId: workspace.workspaceId }, token)).files as {
    fileId: number;
    folder: boolean;
  }[];
  ids.ideFile.push(
    ...workspaceFiles.filter((f) => !f.folder).map((f) => f.fileId),
    ...workspaceFiles.filter((f) => f.folder).map((f) => f.fileId),
  );

  // A test service deployed on the test network (docs/decisions/034), with its access URL's key.
  const ts = await ok(
    "/sys/testService/create",
    {
      name: `${tag} ts`,
      version: "1.0.0",
      platform: "evm",
      sourceKind: "source",
      source: COUNTER_SOURCE,
      mainContract: "",
      initParams: "",
    },
    token,
  );
  ids.testService.push(ts.testServiceId);
  await ok("/sys/testService/deploy", { testServiceId: ts.testServiceId }, token);
  const deployedTs = await waitFor(
    "test service deployed",
    () => ok("/sys/testService/detail", { testServiceId: ts.testServiceId }, token),
    (d) => d.status !== 5,
    90_000,
  );
  expect(deployedTs.status).toBe(10);
  named.testKey = String(deployedTs.accessPath).split("/").pop()!;
  markers.push(ts.appCode, named.testKey as string, deployedTs.contractAddress);

  // IPFS storage (docs/decisions/039): a service on the first city node's gateway, a file uploaded through it.
  const ipfsNodes = await ok("/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices", {}, token);
  const ipfs = await ok(
    "/sys/ipfsBusiness/ipfs/create",
    { name: `${tag} ipfs`, storeUnit: 1, orgIds: [ipfsNodes[0].orgId], idempotencyKey: key() },
    token,
  );
  ids.ipfsService.push(ipfs.ipfsServiceId);
  markers.push(ipfs.billNo);
  const ipfsKey = (kind: string) => ipfs.keys.find((k: any) => k.kind === kind).apiKey as string;
  named.ipfsUpKey = ipfsKey("upload");
  named.ipfsDownKey = ipfsKey("download");
  named.ipfsGateway = ipfsNodes[0].orgCode;
  named.ipfsOtherGateway = ipfsNodes[1].orgCode;
  markers.push(named.ipfsUpKey, named.ipfsDownKey);
  const pinned = await fetch(`${inject("baseUrl")}/ipfs-gw/${ipfsNodes[0].orgCode}/upload`, {
    method: "POST",
    headers: { Authorization: `Bearer ${named.ipfsUpKey}`, "X-File-Name": `${tag}.txt` },
    body: `${tag} ${randomBytes(16).toString("hex")} stored on IPFS`,
  });
  expect(pinned.status).toBe(200);
  const pinnedFile = (await pinned.json()) as { cid: string; ipfsFileId: number };
  ids.ipfsFile.push(pinnedFile.ipfsFileId);
  named.ipfsCid = pinnedFile.cid;
  // A capacity upgrade of that service, paid and pending (docs/decisions/039).
  const ipfsUpgrade = await ok(
    "/sys/ipfsBusiness/ipfsUpgrade/create",
    { ipfsServiceId: ipfs.ipfsServiceId, toStoreUnit: 10, idempotencyKey: key() },
    token,
  );
  ids.ipfsUpgrade.push(ipfsUpgrade.ipfsUpgradeId);
  if (ipfsUpgrade.billId) ids.bill.push(ipfsUpgrade.billId);
  if (ipfsUpgrade.billNo) markers.push(ipfsUpgrade.billNo);
  markers.push(pinnedFile.cid);
  const served = await fetch(`${inject("baseUrl")}/ipfs-gw/${ipfsNodes[0].orgCode}/ipfs/${pinnedFile.cid}`, {
    headers: { "X-Api-Key": named.ipfsDownKey },
  });
  expect(served.status).toBe(200);
  expect(await served.text()).toContain(tag);
  // The meter writes within a second: the snapshots start once it has.
  await waitFor(
    "ipfs traffic metered",
    () => ok("/sys/ipfsBusiness/ipfs/traffic", { ipfsServiceId: ipfs.ipfsServiceId }, token),
    (t) => t.totalBytes > 0,
  );

  // A dedicated node project (docs/decisions/047) on the first city node, paid from the balance; once it runs,
  // an upgrade of its data capacity.
  const prnOptions = await ok("/sys/prn/options", {}, token);
  // The region with the most free peers: every world of the run (matrix, pages, fuzz) leaves its projects running on
  // the one test server, and a city node holds only a few peers (§8 "Insufficient resources").
  const prnRegions = prnOptions.clouds.flatMap(
    (c: { cloud: string; regions: { nodeId: number; freePeers: number }[] }) =>
      c.regions.map((r) => ({ cloud: c.cloud, ...r })),
  );
  const prnRegion = prnRegions.reduce(
    (
      best: { cloud: string; nodeId: number; freePeers: number },
      r: { cloud: string; nodeId: number; freePeers: number },
    ) => (r.freePeers > best.freePeers ? r : best),
  );
  named.prnCloud = prnRegion.cloud;
  named.prnNodeId = prnRegion.nodeId;
  const prnName = prnProjectName();
  const prn = await ok(
    "/sys/prn/create",
    {
      name: prnName,
      framework: "fisco",
      consensus: "pbft",
      cloud: prnRegion.cloud,
      nodeId: prnRegion.nodeId,
      nodeCount: 1,
      hostConfig: "c2m4",
      dataCapacityGb: 20,
      cycle: 2,
      authUser: "secuser",
      password: "secret123",
      confirmPassword: "secret123",
      idempotencyKey: key(),
    },
    token,
  );
  ids.prnProject.push(prn.prnProjectId);
  markers.push(prn.billNo, prnName);
  const prnDeployed = await waitFor(
    "dedicated project deployed",
    () => ok("/sys/prn/detail", { prnProjectId: prn.prnProjectId }, token),
    (d) => d.status === 3 || d.status === 4,
    90_000,
  );
  expect(prnDeployed.status, prnDeployed.failReason).toBe(3);
  {
    const prnUpgrade = await ok(
      "/sys/prn/upgrade/create",
      { prnProjectId: prn.prnProjectId, updateType: 3, toValue: "50", idempotencyKey: key() },
      token,
    );
    ids.prnUpgrade.push(prnUpgrade.prnProjectUpdateId);
    if (prnUpgrade.billNo) markers.push(prnUpgrade.billNo);
    await waitFor(
      "dedicated upgrade applied",
      () => ok("/sys/prn/upgrade/detail", { prnProjectUpdateId: prnUpgrade.prnProjectUpdateId }, token),
      (u) => u.status !== 1,
    );
  }

  // A DDC minted from the custody account (docs/decisions/045), protected by a QR-code password, and an address bound by EIP-4361.
  const ddc = await ok(
    "/sys/ddc/mint",
    {
      projectId: project.projectId,
      accountId: custody.accountId,
      name: `${tag} ddc`,
      description: `${tag} certificate`,
      metadata: [{ key: "holder", value: tag }],
      storage: "product",
      file: await uploaded("ddc", token),
      idempotencyKey: key(),
    },
    token,
  );
  expect(ddc.status, ddc.failReason).toBe(2);
  ids.ddc.push(ddc.ddcId);
  await ok("/sys/ddc/password", { ddcId: ddc.ddcId, password: `${tag}-pw` }, token);
  const wallet = privateKeyToAccount(generatePrivateKey());
  const challenge = await ok("/sys/binding/challenge", { address: wallet.address }, token);
  const binding = await ok(
    "/sys/binding/bind",
    { message: challenge.message, signature: await wallet.signMessage({ message: challenge.message }) },
    token,
  );
  ids.binding.push(binding.bindingId);
  markers.push(wallet.address);
  // A support ticket with an attachment (docs/decisions/041): its conversation and its file are the asker's own.
  const supportFile = await fetch(`${inject("baseUrl")}/vueapi/upload/support`, {
    method: "POST",
    headers: { Authorization: `Bearer ${token}`, "X-File-Name": `${tag}.txt`, "Content-Type": "text/plain" },
    body: `${tag} support attachment`,
  });
  const supportUpload = (await supportFile.json()) as { code: number; data: { uploadId: string } };
  expect(supportUpload.code).toBe(0);
  const supportTicket = await ok(
    "/sys/technicalSupport/insertTech",
    {
      question: `${tag} question`,
      contactEmail: `${tag}@example.com`,
      file: { uploadId: supportUpload.data.uploadId },
    },
    token,
  );
  ids.supportTicket.push(supportTicket.ticketId);

  // Products: a draft with a cover, and one waiting for approval.
  const product = (n: string) => ({
    name: `${tag} ${n}`,
    productType: "1",
    brief: `${tag} brief`,
    description: `${tag} description`,
    suggestedPrice: "10.00",
    payMode: "1",
  });
  const p1 = await ok("/sys/product/save", { product: product("prod"), cover: await uploaded("cover", token) }, token);
  const p2 = await ok("/sys/product/save", { product: product("prod two") }, token);
  await ok("/sys/product/submit", { productId: p2.productId }, token);
  ids.product.push(p1.productId, p2.productId);
  named.productId = p1.productId;

  // Participations: this user joins the other's service (taken to "participated"); the other applies to this user's.
  const mine = await join(token, other.invite);
  ids.join.push(mine.joinId);
  ids.certificate.push(mine.certificateId);
  ids.ticket.push(mine.ticket);
  named.participatedAppId = other.appId;
  named.joinId = mine.joinId;
  named.certificateId = mine.certificateId;
  await ok("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: mine.joinId, auditState: 1 }, other.token);
  await ok("/sys/ops/participations/decide", { appJoinAuditId: mine.joinId, decision: "approve" }, await operator());
  await waitFor(
    "participation ready to confirm",
    () => ok("/sys/chainAppInfo/view", { appId: other.appId, appJoinAuditId: mine.joinId }, token),
    (d) => d.participation?.auditState === 13,
  );
  await ok("/sys/chainAppInfo/confirmJoin", { appJoinAuditId: mine.joinId }, token);
  // DIDs (docs/decisions/043): one of this user's, and a role credential the other's publisher issues to it for this participation.
  const did = await ok(
    "/sys/did/identifiers/create",
    { label: `${tag} did`, method: "web", custody: "portal", keyType: "Ed25519" },
    token,
  );
  ids.did.push(did.didId);
  markers.push(did.did);
  const issuerDid = await ok(
    "/sys/did/identifiers/create",
    { label: "publisher did", method: "key", custody: "portal", keyType: "Ed25519" },
    other.token,
  );
  const credential = await ok(
    "/sys/did/credentials/issueRole",
    { issuerDidId: issuerDid.didId, appJoinAuditId: mine.joinId, subjectDid: did.did },
    other.token,
  );
  ids.credential.push(credential.credentialId);
  const theirs = await join(other.token, invite);
  ids.join.push(theirs.joinId);
  named.manageJoinId = theirs.joinId;

  const certs = await ok("/sys/chainAppInfo/myCertificates", { page: { pageSize: 50, pageIndex: 1 } }, token);
  for (const c of certs.page.rows) markers.push(c.serialNumber);
  const messages = await ok("/sys/system/message/list", { page: { pageSize: 50, pageIndex: 1 } }, token);
  ids.message.push(...messages.page.rows.map((m: any) => m.messageId));
  const cardNow = (await ok("/sys/account/card", {}, token)).card;
  // Uploads left pending: another user naming them must not get them.
  const pending = {
    cover: await uploaded("cover", token),
    attachment: await uploaded("attachment", token),
    chaincode: await uploaded("chaincode", token),
    ddc: await uploaded("ddc", token),
    support: await uploaded("support", token),
  };
  ids.upload.push(...Object.values(pending).map((u) => u.uploadId));
  markers.push(...ids.upload.map(String));

  return {
    userName: u.userName,
    userId: me.userId,
    token,
    tag,
    ids,
    markers: [...new Set(markers.filter(Boolean))],
    fieldMarkers: [["last4", cardNow.last4]],
    draftAppId,
    runAppId: services.run.appId,
    invite,
    openCheckoutUrl: open.redirectUrl,
    openPaymentNo: open.payment.paymentNo,
    named,
    pending,
  };
}

/**
 * Everything the user sees of their own records, read through the paths the portal reads them with
 * (reads only: no refresh, no key download). Two snapshots differ only if something changed.
 */
export async function snapshot(w: World): Promise<Record<string, Json>> {
  const reads: [string, object][] = [
    ["/main/getClientInfo", {}],
    ["/sys/system/clientInfo/profile", {}],
    ["/main/home/summary", {}],
    ["/sys/account/summary", {}],
    ["/sys/account/transactions", { page: { pageSize: 100, pageIndex: 1 } }],
    ["/sys/system/clientInfo/h5billList", { page: { pageSize: 100, pageIndex: 1 } }],
    ["/sys/system/clientInfo/contactList", { page: { pageSize: 100, pageIndex: 1 } }],
    ["/sys/invoicetitles/h5queryInvoiceTitleList", { page: { pageSize: 100, pageIndex: 1 } }],
    ["/sys/system/clientInfo/queryClientAddresseeList", { page: { pageSize: 100, pageIndex: 1 } }],
    ["/sys/system/invoiceAccountTrade/h5queryInvoiceAccountTradeList", {}],
    ["/sys/system/invoiceAccountTrade/h5queryInvoiceableBills", {}],
    ["/sys/account/rechargeList", { page: { pageSize: 100, pageIndex: 1 } }],
    ["/sys/account/withdrawList", { page: { pageSize: 100, pageIndex: 1 } }],
    ["/sys/account/card", {}],
    ["/sys/chainAppInfo/publishedList", { page: { pageSize: 100, pageIndex: 1 } }],
    ["/sys/chainAppInfo/wizard/draft", { appState: "add", appId: w.draftAppId }],
    ["/sys/product/mine", { pageSize: 50 }],
    ["/sys/chainAppInfo/participatedList", { page: { pageSize: 100, pageIndex: 1 } }],
    ["/sys/chainAppInfo/joinManageList", { page: { pageSize: 100, pageIndex: 1 } }],
    ["/sys/chainAppInfo/myCertificates", { page: { pageSize: 100, pageIndex: 1 } }],
    ["/sys/system/message/list", { page: { pageSize: 100, pageIndex: 1 } }],
    ...w.ids.bill.map((billId): [string, object] => ["/sys/system/clientInfo/h5billDetail", { billId }]),
    ...w.ids.contact.map((contactId): [string, object] => ["/sys/system/clientInfo/contactDetail", { contactId }]),
    ...w.ids.invoice.map((invoiceId): [string, object] => [
      "/sys/system/invoiceAccountTrade/h5invoiceAccountTradeDetail",
      { invoiceId },
    ]),
    ...w.ids.payment.map((paymentNo): [string, object] => ["/sys/account/payment", { paymentNo }]),
    ...w.ids.app
      .filter((id) => id !== w.draftAppId)
      .map((appId): [string, object] => ["/sys/chainAppInfo/publishedDetail", { appId }]),
    ...w.ids.product.map((productId): [string, object] => ["/sys/product/detail", { productId }]),
    ["/sys/opc/plan/list", {}],
    ["/sys/testService/list", { pageSize: 50 }],
    ...w.ids.testService.map((testServiceId): [string, object] => ["/sys/testService/detail", { testServiceId }]),
    ["/sys/opc/project/list", { pageSize: 50 }],
    ["/sys/opc/account/list", { pageSize: 50 }],
    ...w.ids.pcProject.map((projectId): [string, object] => ["/sys/opc/project/detail", { projectId }]),
    ...w.ids.pcProject.map((projectId): [string, object] => ["/sys/opc/project/stats", { projectId, range: "7d" }]),
    ...w.ids.pcAccount.map((accountId): [string, object] => ["/sys/opc/account/detail", { accountId }]),
    ...w.ids.pcProject.map((projectId): [string, object] => ["/sys/opc/contract/list", { projectId }]),
    ...w.ids.pcContract.map((contractId): [string, object] => ["/sys/opc/contract/detail", { contractId }]),
    ["/sys/ipfsBusiness/ipfs/list", { pageSize: 50 }],
    ["/sys/crossChain/list", { pageSize: 50 }],
    ["/sys/crossChain/selectable", {}],
    ...w.ids.app
      .filter((id) => id !== w.draftAppId)
      .map((appId): [string, object] => ["/sys/crossChain/detail", { appId }]),
    ...w.ids.crossCall.map((callId): [string, object] => [
      "/sys/crossChain/call",
      { appId: w.named.crossCallAppId, callId },
    ]),
    ["/sys/ipfsBusiness/ipfs/usageByGateway", {}],
    // A workspace's rename, deletion and any change of its files move its row (name, files, updatedAt).
    ["/sys/ide/workspace/list", { pageSize: 50 }],
    ...w.ids.ipfsService.map((ipfsServiceId): [string, object] => ["/sys/ipfsBusiness/ipfs/detail", { ipfsServiceId }]),
    ...w.ids.ipfsService.map((ipfsServiceId): [string, object] => [
      "/sys/ipfsBusiness/ipfs/files",
      { ipfsServiceId, pageSize: 50 },
    ]),
    ...w.ids.ipfsService.map((ipfsServiceId): [string, object] => [
      "/sys/ipfsBusiness/ipfs/traffic",
      { ipfsServiceId },
    ]),
    ...w.ids.ipfsService.map((ipfsServiceId): [string, object] => [
      "/sys/ipfsBusiness/ipfsUpgrade/list",
      { ipfsServiceId, pageSize: 50 },
    ]),
    ...w.ids.ipfsUpgrade.map((ipfsUpgradeId): [string, object] => [
      "/sys/ipfsBusiness/ipfsUpgrade/detail",
      { ipfsUpgradeId },
    ]),
    ["/sys/prn/list", { pageSize: 50 }],
    ...w.ids.prnProject.map((prnProjectId): [string, object] => [
      "/sys/prn/upgrade/list",
      { prnProjectId, pageSize: 50 },
    ]),
    ...w.ids.prnUpgrade.map((prnProjectUpdateId): [string, object] => [
      "/sys/prn/upgrade/detail",
      { prnProjectUpdateId },
    ]),
    ["/sys/ddc/list", { pageSize: 50 }],
    ...w.ids.ddc.map((ddcId): [string, object] => ["/sys/ddc/detail", { ddcId }]),
    ["/sys/binding/list", {}],
    ["/sys/technicalSupport/list", { pageSize: 50 }],
    ...w.ids.supportTicket.map((ticketId): [string, object] => ["/sys/technicalSupport/detail", { ticketId }]),
    ["/sys/chainAppInfo/view", { appId: w.named.participatedAppId, appJoinAuditId: w.named.joinId }],
    ["/sys/did/identifiers/list", { pageSize: 50 }],
    ["/sys/did/credentials/received", { pageSize: 50 }],
    ["/sys/did/credentials/issued", { pageSize: 50 }],
    ...w.ids.did.map((didId): [string, object] => ["/sys/did/identifiers/detail", { didId }]),
    ...w.ids.credential.map((credentialId): [string, object] => ["/sys/did/credentials/detail", { credentialId }]),
    ["/sys/chainAppInfo/getJoinParamList", { appJoinAuditId: w.named.joinId }],
    ["/sys/chainAppInfo/joinManageView", { appJoinAuditId: w.named.manageJoinId }],
  ];
  const out: Record<string, Json> = {};
  const answers = await Promise.all(reads.map(([p, body]) => post(p, body, w.token)));
  reads.forEach(([p, body], i) => {
    const a = answers[i];
    out[`${p} ${JSON.stringify(body)}`] =
      a.code === 0 ? daySeriesSummed(a.data) : { failed: a.code, message: a.message };
  });
  const page = await fetch(w.openCheckoutUrl);
  out["sandbox checkout"] = `${page.status} ${/<form method="post"/.test(await page.text()) ? "open" : "closed"}`;
  return out;
}

/**
 * A series by day (`[{ day, calls, … }]`, the last 7 days of a service's traffic…) as its sums: the window follows the
 * clock, so its days change when the day turns during a run (in the platform's time zone: 16:00 UTC), while what it
 * counts is the owner's data. Everything else is kept as it is.
 */
export function daySeriesSummed(value: Json): Json {
  if (Array.isArray(value)) {
    const series =
      value.length > 0 &&
      value.every((x) => x !== null && typeof x === "object" && !Array.isArray(x) && typeof x.day === "string");
    if (!series) return value.map(daySeriesSummed);
    const sums: Record<string, number> = {};
    for (const row of value as Record<string, Json>[])
      for (const [k, x] of Object.entries(row)) if (typeof x === "number") sums[k] = (sums[k] ?? 0) + x;
    return { daySeries: sums };
  }
  if (value && typeof value === "object")
    return Object.fromEntries(Object.entries(value).map(([k, x]) => [k, daySeriesSummed(x)]));
  return value;
}

/** The keys whose values differ between two snapshots. */
export function changedKeys(before: Record<string, Json>, after: Record<string, Json>): string[] {
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  return [...keys].filter((k) => JSON.stringify(before[k]) !== JSON.stringify(after[k]));
}

/** The ways an answer can show another user's data: their tag, numbers and codes, or a marked field. */
export function leaksOf(text: string, owner: World): string[] {
  const found: string[] = [];
  const lower = text.toLowerCase();
  if (lower.includes(owner.tag.toLowerCase())) found.push(`tag ${owner.tag}`);
  for (const m of owner.markers) if (lower.includes(m.toLowerCase())) found.push(`marker ${m}`);
  for (const [field, value] of owner.fieldMarkers)
    if (text.includes(`"${field}":"${value}"`)) found.push(`${field}=${value}`);
  return found;
}

/** The id fields of a successful answer whose value is one of the owner's ids of that kind (and not the caller's). */
export function foreignIdsIn(
  data: Json,
  owner: World,
  caller: World,
  kindOf: (field: string) => Kind | null,
): string[] {
  const found: string[] = [];
  const walk = (v: Json, at: string) => {
    if (Array.isArray(v)) return v.forEach((x, i) => walk(x, `${at}[${i}]`));
    if (!v || typeof v !== "object") return;
    for (const [k, x] of Object.entries(v)) {
      const kind = kindOf(k);
      const values = Array.isArray(x) ? x : [x];
      if (kind) {
        for (const value of values) {
          if (typeof value !== "number" && typeof value !== "string") continue;
          const mine = caller.ids[kind].map(String);
          if (owner.ids[kind].map(String).includes(String(value)) && !mine.includes(String(value)))
            found.push(`${at}.${k}=${value}`);
        }
      }
      walk(x, `${at}.${k}`);
    }
  };
  walk(data, "");
  return found;
}

/** A suite's figures (counts it adds up), printed after its tests with the time the file took. */
export function figuresOf<T extends Record<string, number>>(title: () => string, initial: T): T & { ms: number } {
  const started = Date.now();
  const figures = { ...initial, ms: 0 };
  afterAll(() => {
    figures.ms = Date.now() - started;
    console.info(`${title()}: ${JSON.stringify(figures)}`);
  });
  return figures;
}

/** The first city node of the platform's catalogue (payloads that book nodes name it). */
export async function firstCityNode(): Promise<number> {
  return (await post("/anon/platform/cityNodes", {})).data[0].nodeId;
}
