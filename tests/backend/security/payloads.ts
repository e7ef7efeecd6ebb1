import type { VueapiPath } from "#contract/paths.ts";
import {
  accepts,
  getAt,
  idFieldsOf,
  issuesOf,
  jsonSchemaOf,
  minimalValue,
  setAt,
  type FieldPath,
  type IdField,
  type Json,
  type JsonObject,
  type Schema,
} from "./schema.ts";
import { key, prnProjectName, type Kind, type World } from "./world.ts";
import { COUNTER_SOURCE } from "../fixtures/counter-contract.ts";
import { PASSWORD } from "../client.ts";
import { wizardBasic } from "../wizard-basic.ts";

/**
 * The kind of record each id-like field names (by its name), for every path of the contract. A field the
 * suites cannot map fails them: a new path's ids get a kind here, or a mark saying why they are not ids.
 */
export const KIND_OF_FIELD: Record<string, Kind | "catalogue" | "not-id"> = {
  billId: "bill",
  billIds: "bill",
  appId: "app",
  appVerId: "appVer",
  commentId: "comment",
  contactId: "contact",
  titleId: "title",
  addresseeId: "addressee",
  invoiceId: "invoice",
  paymentNo: "payment",
  withdrawalNo: "withdrawal",
  productId: "product",
  appJoinAuditId: "join",
  joinAuditId: "join",
  certificateId: "certificate",
  roleId: "role",
  functionIds: "function",
  packageId: "package",
  parentId: "function",
  userId: "user",
  /** Teams (issue 33): a member and an account are logins (users). */
  memberId: "user",
  /**
   * An invitation of an enterprise account: the worlds are individuals and have none; another account's
   * invitation id is refused in tests/backend/teams.test.ts.
   */
  invitationId: "not-id",
  messageIds: "message",
  refundId: "refund",
  ticket: "ticket",
  setupRef: "setupRef",
  /** The platform's city nodes: a public catalogue every user chooses from. */
  cityNodeId: "catalogue",
  cityNodeIds: "catalogue",
  /** Texts the user types, not references: a tax number, a courier's bill number, a bank transfer reference. */
  taxNo: "not-id",
  courierNo: "not-id",
  remittanceRef: "not-id",
  /** A background job of the platform: only operators name one (/sys/ops/jobs/*), or the test path its caller's own. */
  jobId: "not-id",
  /** A file uploaded and not used yet: only its uploader may name it in a call. */
  uploadId: "upload",
  /** The public chain (docs/decisions/026): the organisation nodes are a catalogue every user chooses from. */
  orgId: "catalogue",
  planId: "pcPlan",
  projectId: "pcProject",
  /** A configuration upgrade of one of the user's services (docs/decisions/036). */
  upgradeId: "upgrade",
  /** An item of the price catalogue: only operators name one (/sys/ops/prices/set). */
  itemId: "not-id",
  accountId: "pcAccount",
  /** An account the login acts for (issue 33, docs/decisions/075): a user id; a foreign one is refused unless the login is its member. */
  teamAccountId: "user",
  contractId: "pcContract",
  /** Test services (docs/decisions/034). */
  testServiceId: "testService",
  /** IPFS storage (docs/decisions/039): a service and one of its pinned files; its gateways are city nodes (a catalogue). */
  ipfsServiceId: "ipfsService",
  ipfsFileId: "ipfsFile",
  /** A capacity upgrade of one of the user's IPFS services (docs/decisions/039). */
  ipfsUpgradeId: "ipfsUpgrade",
  /** DDC certificates and bound addresses (docs/decisions/045). */
  ddcId: "ddc",
  bindingId: "binding",
  orgIds: "catalogue",
  /** The DID service (docs/decisions/043): a user's DIDs and the credentials they issued or hold. */
  didId: "did",
  issuerDidId: "did",
  subjectDidId: "did",
  credentialId: "credential",
  /**
   * The community's content (docs/decisions/040): news, events, release notes, announcements and partners are
   * public to every user once published (drafts answer "not found" to all but operators); a sign-up names its
   * event and is always the caller's own.
   */
  postId: "not-id",
  eventId: "not-id",
  partnerId: "not-id",
  /** The online IDE (docs/decisions/044): a workspace and one of its files; templates are a catalogue named by text. */
  workspaceId: "ideWorkspace",
  fileId: "ideFile",
  templateId: "not-id",
  /** A support ticket (docs/decisions/041): the asker's own; operators read any. */
  ticketId: "supportTicket",
  /** Manual pages and chaincode market entries (docs/decisions/042): public to every reader; only operators change them. */
  docId: "catalogue",
  marketPackageId: "catalogue",
  /** The audit log's filter: a record of any kind, written as text; only operators read the log. */
  targetId: "not-id",
  /** Dedicated nodes (docs/decisions/047): a user's project and its upgrades; regions are city nodes (a catalogue). */
  prnProjectId: "prnProject",
  prnProjectUpdateId: "prnUpgrade",
  nodeId: "catalogue",
  /** A cross-chain call record of one of the user's services (docs/decisions/048). */
  callId: "crossCall",
};

/** Fields whose kind depends on another field of the payload (`kind`, `targetKind`). */
export const DISCRIMINATED: Record<string, { by: string; kinds: Record<string, Kind> }> = {
  "/sys/store/follow#targetId": { by: "targetKind", kinds: { app: "app", product: "product" } },
  "/sys/chainAppInfo/wizard/delete#id": {
    by: "kind",
    kinds: { attachment: "attachment", package: "package", function: "function", role: "role" },
  },
};

export type FieldKinds = { field: IdField; kinds: [string | null, Kind][] };

/** The kinds of one id field of a path ([discriminator value, kind] pairs), or an error saying it is unmapped. */
export function kindsOf(path: VueapiPath, field: IdField): [string | null, Kind][] | "catalogue" | "not-id" | null {
  const d = DISCRIMINATED[`${path}#${field.key}`];
  if (d) return Object.entries(d.kinds);
  const k = KIND_OF_FIELD[field.name];
  if (!k) return null;
  if (k === "catalogue" || k === "not-id") return k;
  return [[null, k]];
}

/** The id fields of a path that name users' records, with their kinds; unmapped ones listed apart. */
export function recordFieldsOf(path: VueapiPath): { fields: FieldKinds[]; unmapped: string[] } {
  const fields: FieldKinds[] = [];
  const unmapped: string[] = [];
  for (const field of idFieldsOf(path)) {
    const kinds = kindsOf(path, field);
    if (kinds === null) unmapped.push(field.key);
    else if (Array.isArray(kinds)) fields.push({ field, kinds });
  }
  return { fields, unmapped };
}

/** What payloads are built from: the caller's records, the catalogue, a fresh captcha. */
export type PayloadContext = {
  world: World;
  cityNodeId: number;
  captcha?: { key: string; answer: string };
  /** The account the login payload names (the caller's own by default). */
  loginName?: string;
  /** Idempotency keys (a fresh random one each by default). */
  idempotencyKey?: () => string;
};

const DAY = "2026-01-01";

/** Values of fields whose rules the JSON Schema does not carry (§5 refinements), by field name. */
function namer(ctx: PayloadContext) {
  const byName: Record<string, () => Json> = {
    idempotencyKey: ctx.idempotencyKey ?? key,
    email: () => "sec@example.com",
    contactEmail: () => "sec@example.com",
    deliveryEmail: () => "sec@example.com",
    mobile: () => "13800000009",
    contactMobile: () => "13800000009",
    version: () => "1.0.0",
    amount: () => "1.00",
    suggestedPrice: () => "10.00",
    password: () => PASSWORD,
    confirmPassword: () => PASSWORD,
    realName: () => "测试",
    dateFrom: () => DAY,
    dateTo: () => DAY,
    webUrl: () => "https://example.com",
    func: () => "createAsset",
    captchaKey: () => ctx.captcha?.key ?? "no-captcha",
    captcha: () => ctx.captcha?.answer ?? "x",
    username: () => ctx.loginName ?? ctx.world.userName,
    comments: () => "security suite",
    subjectDid: () => "did:key:z6MkhaXgBZDvotDkL5257faiztiGiC2QtKLGpbnnEGta2doK",
  };
  const typed = (s: Schema, value: number | string): Json => {
    if (s.type === "array") return [typed(s.items ?? {}, value)];
    return s.type === "string" ? String(value) : value;
  };
  return (name: string, _at: FieldPath, s: Schema): Json | undefined => {
    const kind = KIND_OF_FIELD[name];
    if (kind === "catalogue") return typed(s, ctx.cityNodeId);
    if (kind && kind !== "not-id") {
      const value = ctx.world.ids[kind][0];
      return value === undefined ? undefined : typed(s, value);
    }
    return byName[name]?.();
  };
}

/** Payload parts the generic builder cannot guess (several fields that must agree, uploads). */
function overrides(ctx: PayloadContext): Partial<Record<VueapiPath, () => JsonObject>> {
  const w = ctx.world;
  const idem = ctx.idempotencyKey ?? key;
  const draftRef = { appState: "add", appId: w.draftAppId };
  const basic = { ...wizardBasic(`${w.tag} basic`), description: "d", introduction: "i" };
  return {
    // A public address (the guard refuses private, loopback and documentation ranges at save; docs/decisions/092).
    "/sys/alerts/webhook/save": () => ({ url: "https://93.184.215.14/bsn-security-suite" }),
    "/anon/user/register": () => ({
      payload: {
        userType: "1",
        userName: `sec${key().slice(3, 15)}`,
        password: PASSWORD,
        confirmPassword: PASSWORD,
        realName: "测试",
        email: `${key()}@example.com`,
        captchaKey: ctx.captcha?.key ?? "x",
        captcha: ctx.captcha?.answer ?? "x",
        agreeTerms: "on",
        agreePrivacy: "on",
      },
    }),
    "/sys/ops/community/savePost": () => ({ kind: "news", titleEn: `${w.tag} news` }),
    "/sys/ops/community/savePartner": () => ({ partner: { nameEn: `${w.tag} partner`, sortOrder: 1 } }),
    "/anon/platform/desktopLink": () => ({ email: `${key()}@example.com`, path: "/g/home/index" }),
    // A visitor's private key and the newsletter's mail tokens: well formed, known to nobody (docs/decisions/041).
    "/anon/technicalSupport/ticket": () => ({ key: "K".repeat(43) }),
    "/anon/technicalSupport/reply": () => ({ key: "K".repeat(43), content: "thanks" }),
    "/anon/technicalSupport/close": () => ({ key: "K".repeat(43) }),
    "/anon/newsletter/confirm": () => ({ token: "T".repeat(43) }),
    "/anon/newsletter/unsubscribe": () => ({ token: "T".repeat(43) }),
    "/sys/crossChain/call": () => ({ appId: w.named.crossCallAppId as number, callId: w.ids.crossCall[0] as number }),
    "/sys/crossChain/send": () => ({ appId: w.runAppId, target: "open-alliance", kind: "message", text: "hello" }),
    // SPEC §5 Support ticket: a contact email or mobile is required (docs/decisions/041).
    "/sys/technicalSupport/insertTech": () => ({
      question: `${w.tag} question`,
      contactEmail: "sec@example.com",
      file: w.pending.support,
    }),
    "/anon/technicalSupport/insertTech": () => ({
      question: `${w.tag} question`,
      contactMobile: "+8613912345678",
      source: "support",
      captchaKey: ctx.captcha?.key ?? "x",
      captcha: ctx.captcha?.answer ?? "x",
    }),
    "/anon/password/checkResetCode": () => ({ phone: w.userName, retrieveWay: "email", captcha: "123456" }),
    "/main/updateEmailPassword": () => ({
      phone: w.userName,
      retrieveWay: "email",
      captcha: "123456",
      password: PASSWORD,
      confirmPassword: PASSWORD,
    }),
    "/anon/password/sendResetCode": () => ({
      phone: w.userName,
      retrieveWay: "email",
      captchaKey: ctx.captcha?.key ?? "x",
      captcha: ctx.captcha?.answer ?? "x",
    }),
    // A well-formed code that is not the current one (the operator's secret is not the suite's to know).
    "/main/mfa/confirm": () => ({ code: "000000" }),
    "/main/mfa/verify": () => ({ code: "000000" }),
    "/main/updatePassword": () => ({ oldPassword: "Wr0ng!!pass", password: "Nw58!@qz", confirmPassword: "Nw58!@qz" }),
    "/sys/system/clientInfo/updateProfile": () => ({ country: "China", selfIntroduction: `${w.tag} about me` }),
    "/pay/callback": () => ({
      event: JSON.stringify({ id: "evt_x" }),
      timestamp: Math.floor(Date.now() / 1000),
      signature: "0".repeat(64),
    }),
    "/sys/account/recharge": () => ({ payType: "GT0001", amount: "1.00", idempotencyKey: idem() }),
    "/sys/invoicetitles/h5insertInvoiceTitle": () => ({ titleType: "1", title: `${w.tag} title` }),
    "/sys/invoicetitles/h5updateInvoiceTitle": () => ({
      titleId: String(w.ids.title[0]),
      titleType: "1",
      title: `${w.tag} title`,
    }),
    "/sys/system/clientInfo/addOrUpdateClientAddressee": () => ({
      addresseeId: String(w.ids.addressee[0]),
      name: `${w.tag} addr`,
      mobile: "13800000002",
      location: "city",
      address: "street",
    }),
    "/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade": () => ({
      idempotencyKey: idem(),
      billIds: [String(w.ids.bill[w.ids.bill.length - 2])],
      titleId: String(w.ids.title[0]),
      invoiceType: "1",
      issuance: "1",
      addresseeId: String(w.ids.addressee[0]),
    }),
    "/sys/operations/invoices/approve": () => ({ invoiceId: String(w.ids.invoice[0]) }),
    "/sys/operations/invoices/reject": () => ({ invoiceId: String(w.ids.invoice[0]), comments: "security suite" }),
    "/sys/operations/invoices/deliver": () => ({
      invoiceId: String(w.ids.invoice[0]),
      deliveryEmail: "sec@example.com",
    }),
    "/sys/system/clientInfo/insertContactList": () => ({
      contactId: w.ids.contact[0],
      name: `${w.tag} contact`,
      mobile: "13800000001",
      email: "c@example.com",
      department: "dept",
    }),
    "/sys/chainAppInfo/wizard/draft": () => draftRef,
    "/sys/chainAppInfo/wizard/saveBasic": () => ({ ...draftRef, basic }),
    "/sys/chainAppInfo/wizard/addAttachment": () => ({
      ...draftRef,
      attachment: { attachmentName: `${w.tag} att two` },
      file: w.pending.attachment,
    }),
    "/sys/chainAppInfo/wizard/addPackage": () => ({
      ...draftRef,
      pkg: { name: "other_cc", version: "1.0.0", language: "node", mainPath: "lib/chaincode.js" },
      file: w.pending.chaincode,
    }),
    "/sys/chainAppInfo/wizard/addFunction": () => ({
      ...draftRef,
      fn: {
        name: `${w.tag} fn two`,
        packageId: String(w.ids.package[0]),
        funcType: "1",
        func: "readAsset",
        parentId: String(w.ids.function[0]),
        inputFormat: "{}",
        outputFormat: "{}",
      },
    }),
    "/sys/chainAppInfo/wizard/addRole": () => ({
      ...draftRef,
      role: { name: `${w.tag} role two`, description: "r", functionIds: [String(w.ids.function[0])] },
    }),
    "/sys/chainAppInfo/wizard/delete": () => ({ ...draftRef, kind: "attachment", id: w.ids.attachment[0] as number }),
    "/sys/chainAppInfo/wizard/saveNodes": () => ({
      ...draftRef,
      form: {
        nodes: [{ cityNodeId: String(ctx.cityNodeId), selected: "on", tps: "10", capacityGb: "10", peers: "1" }],
      },
    }),
    "/sys/chainAppInfo/wizard/saveCertificate": () => ({ ...draftRef, form: { certificateMode: "1" } }),
    "/sys/chainAppInfo/wizard/advance": () => ({ ...draftRef, from: "roles" }),
    "/sys/chainAppInfo/wizard/submit": () => ({ ...draftRef, form: { agreement: "on" } }),
    "/sys/chainAppInfo/joinApp": () => ({
      appId: w.runAppId,
      roleId: w.ids.role[0] as number,
      cityNodeIds: [ctx.cityNodeId],
      certificateMode: 1,
      ticket: String(w.ids.ticket[0]),
    }),
    "/sys/chainAppInfo/applyJoinApp": () => ({
      appId: w.runAppId,
      token: w.invite.get("c")!,
      expiry: w.invite.get("d")!,
      language: "en",
    }),
    "/sys/product/save": () => ({
      productId: w.ids.product[0] as number,
      product: {
        name: `${w.tag} prod`,
        productType: "1",
        brief: "b",
        description: "d",
        suggestedPrice: "10.00",
        payMode: "1",
      },
      cover: w.pending.cover,
    }),
    "/sys/store/follow": () => ({ targetKind: "product", targetId: w.ids.product[0] as number, follow: true }),
    "/sys/chainAppInfo/replyComment": () => ({
      appId: w.runAppId,
      commentId: w.ids.comment[0] as number,
      reply: "thanks",
    }),
    "/sys/chainAppInfo/addComment": () => ({ appId: w.runAppId, text: "nice" }),
    "/sys/chainAppInfo/disableJoin": () => ({
      appJoinAuditId: w.named.manageJoinId as number,
      comments: "security suite",
    }),
    "/sys/chainAppInfo/auditAppJoined": () => ({ appJoinAuditId: w.named.manageJoinId as number, auditState: 1 }),
    "/sys/chainAppInfo/certificateFile": () => ({ certificateId: w.ids.certificate[0] as number, kind: "certificate" }),
    "/sys/system/message/read": () => ({ messageIds: [w.ids.message[0] as number] }),
    // A member's spending limit (ADR 080): an amount in USD; the member is an id of the world.
    "/sys/team/spendLimit": () => ({ memberId: w.ids.user[0] as number, spendLimit: "5.00" }),
    "/sys/opc/plan/buy": () => ({ orgId: 1, idempotencyKey: idem() }),
    "/sys/opc/project/create": () => ({
      planId: w.ids.pcPlan[0] as number,
      name: `${w.tag} project ${key().slice(3, 9)}`,
      framework: "evm",
      dailyRequests: "1000",
    }),
    "/sys/opc/account/create": () => ({
      projectId: w.ids.pcProject[0] as number,
      name: `${w.tag} acct ${key().slice(3, 9)}`,
      keyType: "3",
      address: `0x${key().slice(3, 23)}${key().slice(3, 23)}`,
      gasWarning: "0.01",
    }),
    "/sys/opc/account/assignGas": () => ({
      accountId: w.ids.pcAccount[0] as number,
      amount: "0.01",
      idempotencyKey: idem(),
    }),
    "/sys/opc/account/keystore": () => ({ accountId: w.ids.pcAccount[0] as number, password: PASSWORD }),
    "/sys/opc/contract/create": () => ({
      projectId: w.ids.pcProject[0] as number,
      accountId: w.ids.pcAccount[0] as number,
      name: `${w.tag} c ${key().slice(3, 9)}`,
      sourceKind: "abi",
      abi: "[]",
      bytecode: "0x6001600c60003960016000f300",
    }),
    "/sys/opc/contract/update": () => ({ contractId: w.ids.pcContract[0] as number, name: `${w.tag} contract` }),
    "/sys/opc/contract/call": () => ({ contractId: w.ids.pcContract[0] as number, functionName: "v", args: [] }),
    "/sys/ops/testNetwork/reset": () => ({ confirmName: "test-network" }),
    "/sys/ops/chainNodes/move": () => ({
      chain: "open-alliance",
      nodeUrl: "http://127.0.0.1:9",
      confirmName: "open-alliance",
    }),
    "/sys/ddc/mint": () => ({
      projectId: w.ids.pcProject[0] as number,
      accountId: w.ids.pcAccount[0] as number,
      name: `${w.tag} ddc two`,
      storage: "product",
      file: w.pending.ddc,
      idempotencyKey: idem(),
    }),
    "/sys/ddc/transfer": () => ({ ddcId: w.ids.ddc[0] as number, to: `0x${"ab".repeat(20)}` }),
    "/sys/ddc/password": () => ({ ddcId: w.ids.ddc[0] as number, password: "new-password" }),
    "/sys/binding/challenge": () => ({ address: `0x${"cd".repeat(20)}` }),
    "/sys/binding/bind": () => ({ message: "not a challenge", signature: `0x${"11".repeat(65)}` }),
    "/sys/ide/workspace/create": () => ({ name: `${w.tag} ws ${key().slice(3, 9)}`, templateId: "empty" }),
    "/sys/ide/file/create": () => ({
      workspaceId: w.ids.ideWorkspace[0] as number,
      path: `contracts/x${key().slice(3, 9)}.sol`,
    }),
    "/sys/ide/file/rename": () => ({
      workspaceId: w.ids.ideWorkspace[0] as number,
      fileId: w.ids.ideFile[0] as number,
      path: `contracts/r${key().slice(3, 9)}.sol`,
    }),
    "/sys/ide/deploy": () => ({
      workspaceId: w.ids.ideWorkspace[0] as number,
      contract: "contracts/SimpleStorage.sol:SimpleStorage",
      projectId: w.ids.pcProject[0] as number,
      accountId: w.ids.pcAccount[0] as number,
      constructorArgs: ["1"],
    }),
    "/sys/ide/call": () => ({
      workspaceId: w.ids.ideWorkspace[0] as number,
      contractId: w.ids.pcContract[0] as number,
      signature: "v()",
      args: [],
    }),
    "/sys/ops/docs/save": () => ({
      form: { slug: `sec-${key().slice(3, 9).toLowerCase()}`, titleEn: `${w.tag} page`, bodyEn: "Text." },
    }),
    "/sys/ops/market/save": () => ({
      form: {
        name: "sec_market",
        language: "go",
        version: "1.0.0",
        descriptionEn: "d",
        descriptionZh: "d",
        mainPath: "main.go",
        functions: "main | Main",
      },
    }),
    "/sys/prn/create": () => ({
      name: prnProjectName(),
      framework: "fisco",
      consensus: "pbft",
      cloud: String(w.named.prnCloud),
      nodeId: Number(w.named.prnNodeId),
      nodeCount: 1,
      hostConfig: "c2m4",
      dataCapacityGb: 20,
      cycle: 2,
      authUser: "secuser",
      password: "secret123",
      confirmPassword: "secret123",
      idempotencyKey: idem(),
    }),
    "/sys/prn/password": () => ({
      prnProjectId: w.ids.prnProject[0] as number,
      password: "secret456",
      confirmPassword: "secret456",
    }),
    "/sys/prn/tryIt": () => ({
      prnProjectId: w.ids.prnProject[0] as number,
      method: "eth_blockNumber",
      params: "[]",
      password: "secret123",
    }),
    "/sys/prn/quote": () => ({ nodeCount: 1, hostConfig: "c2m4", dataCapacityGb: 20, cycle: 2 }),
    "/sys/prn/upgrade/quote": () => ({ prnProjectId: w.ids.prnProject[0] as number, updateType: 3, toValue: "50" }),
    "/sys/prn/upgrade/create": () => ({
      prnProjectId: w.ids.prnProject[0] as number,
      updateType: 3,
      toValue: "50",
      idempotencyKey: idem(),
    }),
    // The transaction page (docs/decisions/089): the caller's own contract write.
    "/sys/opc/transaction": () => ({ hash: String(w.ids.pcTx[0]) }),
    "/sys/testService/create": () => ({
      name: `${w.tag} ts ${key().slice(3, 9)}`,
      version: "1.0.0",
      platform: "evm",
      sourceKind: "source",
      source: COUNTER_SOURCE,
      mainContract: "",
      initParams: "",
    }),
    "/sys/testService/edit": () => ({
      testServiceId: w.ids.testService[0] as number,
      name: `${w.tag} ts ${key().slice(3, 9)}`,
      version: "1.0.0",
      platform: "evm",
      sourceKind: "source",
      source: COUNTER_SOURCE,
      mainContract: "",
      initParams: "",
    }),
    "/sys/testService/upgrade": () => ({
      testServiceId: w.ids.testService[0] as number,
      name: `${w.tag} ts`,
      version: "9.9.9",
      platform: "evm",
      sourceKind: "source",
      source: COUNTER_SOURCE,
      mainContract: "",
      initParams: "",
    }),
  };
}

/** Ids keep the type the schema wants: strings stay strings, lists stay lists. */
export function typedLike(base: Json | undefined, value: number | string): Json {
  if (Array.isArray(base)) return [typedLike(base[0], value)];
  if (typeof base === "string") return String(value);
  return typeof value === "number" ? value : /^[0-9]+$/.test(value) ? Number(value) : value;
}

/**
 * A valid payload of the path for the caller of `ctx` (their own records in every id field). Built from the
 * path's JSON Schema, the field-name values above and the overrides; checked against the contract.
 */
export function basePayload(path: VueapiPath, ctx: PayloadContext): { payload: JsonObject; problem: string } {
  const built = (minimalValue(jsonSchemaOf(path), "", [], namer(ctx)) ?? {}) as JsonObject;
  const extra = overrides(ctx)[path]?.();
  const payload = extra ? { ...built, ...extra } : built;
  return { payload, problem: accepts(path, payload) ? "" : issuesOf(path, payload) };
}

/** The payload with one field set to a value of another user's record (typed like the caller's own). */
export function withField(payload: JsonObject, at: FieldPath, value: number | string): JsonObject {
  return setAt(payload, at, typedLike(getAt(payload, at), value)) as JsonObject;
}
