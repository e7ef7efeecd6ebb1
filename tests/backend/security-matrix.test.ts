import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { endpoints } from "#backend/index.ts";
import { eventFor, signCallback } from "#backend/domains/payments/checkout.ts";
import { ResponseCode } from "#contract/envelope.ts";
import { Msg } from "#contract/messages.ts";
import { paths, type PathSpec, type VueapiPath } from "#contract/paths.ts";
import { downloads as downloadSpecs } from "#contract/downloads.ts";
import { PERMISSION_REFUSED, refusalMessage, roleMay, type Permission, type TeamRole } from "#contract/team-roles.ts";
import { UPLOAD_KINDS } from "#contract/uploads.ts";
import { basePayload, DISCRIMINATED, KIND_OF_FIELD, recordFieldsOf, withField } from "./security/payloads.ts";
import { allPaths, getAt, idFieldsOf, openObjectsOf, setAt, type Json, type JsonObject } from "./security/schema.ts";
import { download, login, uploadRaw } from "./client.ts";
import { buildTeam, MEMBER_ROLES, type Team } from "./security/team.ts";
import {
  buildWorld,
  changedKeys,
  figuresOf,
  firstCityNode,
  foreignIdsIn,
  leaksOf,
  post,
  publisher,
  snapshot,
  type Kind,
  type Reply,
  type World,
} from "./security/world.ts";

/**
 * The authorization matrix (issue "Hardening", security suites), generated from contract/paths.ts and the
 * endpoints the domains register (backend/index.ts `endpoints`). User A calls every non-anonymous path
 * with the ids of user B's records (each id field in turn, then all at once), and every operator path as
 * a non-operator; every endpoint is called with forged credentials. Nothing of B's may be in an answer
 * (B's tag, numbers and codes, B's ids in a successful answer) and nothing of B's may change (B reads
 * everything again). A path or endpoint the tables below do not cover fails the suite.
 */

/** Test fixtures (open only with TEST_FIXTURES=1, refused in production): not part of the product's surface. */
const FIXTURE_PATHS = new Set<VueapiPath>([
  "/test/fixtures",
  "/test/services",
  "/test/store",
  "/test/participation/service",
  "/test/participation/order",
  "/test/jobs",
  "/test/jobs/status",
  "/test/accounts/operator",
  "/test/ipfs/capacity",
  "/test/crossChain/call",
  "/test/alerts/webhookDue",
]);

/** Non-anonymous paths whose payload names no record: A calls them with a valid payload of A's own. */
const NO_IDS = new Set<VueapiPath>([
  // The legal and contact texts (docs/decisions/089): a page is named by its kind, not by a record.
  "/sys/ops/legal/list",
  "/sys/ops/legal/detail",
  "/sys/ops/legal/save",
  "/sys/ops/legal/contact",
  // Alerts (issue 35 §1, docs/decisions/087): the acting account's own settings and history.
  "/sys/alerts/settings",
  "/sys/alerts/save",
  "/sys/alerts/history",
  // The alert webhook (docs/decisions/092): the acting account's own webhook and deliveries.
  "/sys/alerts/webhook",
  "/sys/alerts/webhook/save",
  "/sys/alerts/webhook/rotate",
  "/sys/alerts/webhook/delete",
  "/sys/alerts/webhook/test",
  "/sys/alerts/webhook/deliveries",
  // The transaction page (docs/decisions/089): a hash, answered only when one of the caller's chain accounts or
  // contracts is a party (tests/backend/search.test.ts refuses another account's).
  "/sys/opc/transaction",
  // The console's search (docs/decisions/086): a query, answered from the caller's own records only.
  "/sys/search",
  // Enterprise certification (docs/decisions/071): the caller's own state; the operators' list.
  "/sys/system/clientInfo/certification",
  "/sys/ops/certifications/list",
  // The operators' list of platform-issued DID credentials (docs/decisions/043).
  "/sys/ops/did/credentials",
  // The community's content (docs/decisions/040): public posts and partners, operators' lists; a sign-up is the caller's own.
  "/sys/devGame/detail",
  "/sys/devGame/saveSingUpInfo",
  "/sys/ops/community/posts",
  "/sys/ops/community/post",
  "/sys/ops/community/savePost",
  "/sys/ops/community/publishPost",
  "/sys/ops/community/deletePost",
  "/sys/ops/community/signups",
  "/sys/ops/community/partners",
  "/sys/ops/community/deletePartner",
  "/sys/technicalSupport/list",
  "/sys/ops/tickets/list",
  "/sys/ops/newsletter/list",
  "/sys/ops/newsletter/send",
  "/sys/ops/configUpgrades/list",
  "/sys/ops/prices/list",
  "/sys/ops/prices/history",
  "/sys/ops/prices/set",
  "/main/user/logout",
  "/main/user/logoutEverywhere",
  "/main/getClientInfo",
  "/main/updatePassword",
  "/main/home/summary",
  "/main/home/dashboard",
  "/main/home/checklist/dismiss",
  "/sys/system/message/list",
  "/sys/system/clientInfo/h5billList",
  "/sys/system/clientInfo/h5billExport",
  // The list exports (docs/decisions/093): the caller's own rows with the list's filter.
  "/sys/account/transactionsExport",
  "/sys/system/invoiceAccountTrade/h5invoiceExport",
  "/sys/account/summary",
  "/sys/account/transactions",
  "/sys/account/usage30",
  "/sys/account/autoPay",
  "/sys/product/h5isHasNoPayBillV2",
  "/sys/system/clientInfo/h5billDue",
  "/sys/account/recharge",
  "/sys/account/rechargeList",
  "/sys/account/h5cashOutAmount",
  "/sys/account/withdrawList",
  "/sys/account/cardSetup",
  "/ops/remittances/list",
  "/ops/paymentReviews/list",
  "/ops/withdrawals/list",
  "/sys/invoicetitles/h5queryInvoiceTitleList",
  "/sys/system/clientInfo/queryClientAddresseeList",
  "/sys/system/invoiceAccountTrade/h5queryInvoiceableBills",
  "/sys/system/invoiceAccountTrade/h5queryInvoiceAccountTradeList",
  "/sys/operations/invoices/list",
  "/sys/system/clientInfo/profile",
  "/sys/system/clientInfo/updateProfile",
  "/sys/system/clientInfo/contactList",
  "/sys/chainAppInfo/publishedList",
  "/sys/ops/serviceReviews/list",
  "/sys/ops/refunds/list",
  "/sys/ops/services/list",
  "/sys/store/services",
  "/sys/product/list",
  "/sys/product/mine",
  "/sys/ops/products/list",
  "/sys/chainAppInfo/participatedList",
  "/sys/chainAppInfo/joinManageList",
  "/sys/chainAppInfo/myCertificates",
  "/sys/chainAppInfo/wizard/drafts",
  "/sys/ops/participations/list",
  "/sys/ops/jobs/failedList",
  "/sys/ops/jobs/retry",
  "/sys/ops/queues/waiting",
  "/main/mfa/enrolment",
  "/main/mfa/confirm",
  "/main/mfa/verify",
  "/sys/ops/audit/list",
  "/sys/ops/audit/export",
  "/sys/pubChainOrg/queryPubOrgList",
  "/sys/opc/plan/buy",
  "/sys/opc/plan/list",
  "/sys/testService/list",
  "/sys/ops/testNetwork/status",
  "/sys/ops/testNetwork/reset",
  // The chains on nodes by URL (docs/decisions/094 addendum): chains and nodes are named by name and address.
  "/sys/ops/chainNodes/list",
  "/sys/ops/chainNodes/move",
  "/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices",
  "/sys/ipfsBusiness/ipfsUpgrade/selectCapacity",
  "/sys/ipfsBusiness/ipfs/getIpfsUnitPrice",
  "/sys/ipfsBusiness/ipfs/getIpfsPrice",
  "/sys/ipfsBusiness/ipfs/create",
  "/sys/ipfsBusiness/ipfs/list",
  "/sys/ipfsBusiness/ipfs/usageByGateway",
  "/sys/ops/ipfsUpgrades/list",
  "/sys/did/identifiers/list",
  "/sys/did/identifiers/create",
  "/sys/did/credentials/issued",
  "/sys/did/credentials/received",
  "/sys/did/credentials/options",
  "/sys/ddc/options",
  "/sys/ddc/list",
  "/sys/binding/challenge",
  "/sys/binding/bind",
  "/sys/binding/list",
  "/sys/ide/template/list",
  "/sys/ide/workspace/list",
  "/sys/ide/workspace/create",
  "/sys/ide/grant",
  // Manual pages and market entries are public to every reader (docs/decisions/042): no user's record.
  "/sys/ops/docs/list",
  "/sys/ops/docs/detail",
  "/sys/ops/docs/move",
  "/sys/ops/docs/publish",
  "/sys/ops/docs/delete",
  "/sys/market/list",
  "/sys/market/detail",
  "/sys/ops/market/list",
  "/sys/ops/market/withdraw",
  "/sys/crossChain/list",
  "/sys/crossChain/selectable",
  "/sys/ops/crossChain/pending",
  "/sys/prn/options",
  "/sys/prn/quote",
  "/sys/prn/list",
  "/sys/prn/create",
  // Teams (issue 33): the caller's own accounts and team; an invitation is named by its link or by an id of the
  // caller's own account (another account's is refused in tests/backend/teams.test.ts).
  "/main/team/accounts",
  "/main/team/invitation",
  "/main/team/accept",
  "/sys/team/members",
  "/sys/team/invite",
  "/sys/team/resend",
  "/sys/team/cancelInvitation",
]);

/**
 * Id fields (path#field) that may answer code 0 when only that field holds another user's id, because the
 * answer is about the caller alone: the foreign value is ignored or matches nothing of theirs. The answer
 * is still checked for B's data, and B reads everything again afterwards.
 */
const OWN_ONLY: Record<string, string> = {
  "/sys/system/message/read#messageIds":
    "marks read only the caller's messages among the ids; answers the caller's unread count",
  "/sys/account/card#setupRef":
    "another user's card checkout is 'unknown' (backend/domains/payments/handlers/user.ts getCard); the answer is the caller's card",
  "/sys/invoicetitles/h5insertInvoiceTitle#titleId":
    "adding a title ignores titleId: it always adds one of the caller's",
  "/sys/chainAppInfo/queryRolesForAppList#page.condition.ticket":
    "the caller's own draft needs no ticket: the roles listed are the caller's",
};

/** Paths called last: they end A's session (the matrix then checks that it has ended). */
const LAST: VueapiPath[] = ["/main/user/logoutEverywhere", "/main/user/logout"];

/** Kinds of the id fields in answers (for B's ids in a successful answer). */
const ANSWER_KINDS: Record<string, Kind> = {
  ...(Object.fromEntries(
    Object.entries(KIND_OF_FIELD).filter(([, k]) => k !== "catalogue" && k !== "not-id"),
  ) as Record<string, Kind>),
  messageId: "message",
  functionId: "function",
  attachmentId: "attachment",
  fileId: "file",
  verId: "appVer",
  currentVerId: "appVer",
};
const answerKind = (field: string) => ANSWER_KINDS[field] ?? null;

type Variant = { label: string; payload: JsonObject; foreign: boolean; idFields: string[]; field?: string };

const figures = figuresOf(() => "security matrix", {
  paths: 0,
  pathIdRequests: 0,
  operatorRequests: 0,
  sessionRequests: 0,
  endpointRequests: 0,
  webhookRequests: 0,
  roleRequests: 0,
  snapshots: 0,
});

let A: World;
let B: World;
/** A's token once the matrix's logout has ended it. */
let revokedToken: string;
let cityNodeId: number;

beforeAll(async () => {
  const C = await publisher("secc");
  A = await buildWorld("seca", C, "4242424242424242");
  B = await buildWorld("secb", C, "5555555555554444");
  cityNodeId = await firstCityNode();
}, 300_000);

/** Every payload A sends for one path: B's ids in each id field in turn, all at once, and B's ids slipped into open objects. */
function variantsOf(path: VueapiPath): Variant[] {
  const ctx = { world: A, cityNodeId };
  const base = () => basePayload(path, ctx).payload;
  const { fields } = recordFieldsOf(path);
  const idFields = fields.map((f) => f.field.key);
  const out: Variant[] = [];
  if (fields.length === 0) out.push({ label: "A's own payload", payload: base(), foreign: false, idFields });
  for (const { field, kinds } of fields) {
    for (const [disc, kind] of kinds) {
      for (const value of B.ids[kind]) {
        let payload = base();
        if (disc)
          payload = setAt(
            payload,
            [...field.at.slice(0, -1), DISCRIMINATED[`${path}#${field.key}`].by],
            disc,
          ) as JsonObject;
        out.push({
          label: `${field.key}=B's ${kind} ${value}`,
          payload: withField(payload, field.at, value),
          foreign: true,
          idFields,
          field: field.key,
        });
      }
    }
  }
  if (fields.length > 1) {
    let payload = base();
    for (const { field, kinds } of fields) {
      const [disc, kind] = kinds[0];
      if (disc)
        payload = setAt(
          payload,
          [...field.at.slice(0, -1), DISCRIMINATED[`${path}#${field.key}`].by],
          disc,
        ) as JsonObject;
      if (B.ids[kind][0] !== undefined) payload = withField(payload, field.at, B.ids[kind][0]);
    }
    out.push({ label: "every id B's", payload, foreign: true, idFields });
  }
  // Ids a handler should never read from an open object (a paged request's condition, a passthrough payload).
  const injected: JsonObject = {};
  for (const [name, kind] of Object.entries(ANSWER_KINDS)) {
    const value = B.ids[kind][0];
    if (value !== undefined) injected[name] = name.endsWith("Ids") ? [value] : value;
  }
  for (const at of openObjectsOf(path)) {
    const payload = base();
    const current = (getAt(payload, at) ?? {}) as JsonObject;
    out.push({
      label: `B's ids slipped into ${at.join(".") || "the payload"}`,
      payload: setAt(payload, at, { ...injected, ...current }) as JsonObject,
      foreign: false,
      idFields,
    });
  }
  return out;
}

/** What is wrong with A's answer to one variant (empty when it is a proper refusal or an own-only answer). */
function problemsOf(path: VueapiPath, v: Variant, r: Reply): string[] {
  const out: string[] = [];
  const where = `${path} [${v.label}]`;
  if (r.status >= 500 || r.message === Msg.SERVER_ERROR)
    out.push(`${where}: server error ${r.status} ${r.text.slice(0, 200)}`);
  for (const leak of leaksOf(r.text, B)) out.push(`${where}: answer shows B's ${leak}`);
  if (paths[path].auth === "operator") {
    if (r.code !== ResponseCode.NO_PERMISSION) out.push(`${where}: a non-operator got code ${r.code} ${r.message}`);
    return out;
  }
  if (r.code === 0) {
    for (const id of foreignIdsIn(r.data as Json, B, A, answerKind)) out.push(`${where}: answer holds B's id ${id}`);
    if (v.foreign && !(v.field && OWN_ONLY[`${path}#${v.field}`]))
      out.push(`${where}: accepted B's id (code 0): ${r.text.slice(0, 200)}`);
  }
  if (r.message === Msg.INVALID_PARAMS) {
    const fields = Object.keys(r.data?.fieldErrors ?? {});
    const beyondIds = fields.filter((f) => !v.idFields.some((id) => f === id || f.startsWith(`${id}.`)));
    if (beyondIds.length)
      out.push(`${where}: refused for fields that are not ids (${beyondIds.join(", ")}): the suite's payload is wrong`);
  }
  return out;
}

describe("the matrix covers every path and endpoint", () => {
  it("every path's id fields have a kind, or the path is marked as naming no record", () => {
    const problems: string[] = [];
    for (const path of allPaths) {
      const { fields, unmapped } = recordFieldsOf(path);
      for (const key of unmapped)
        problems.push(`${path}: id field ${key} has no kind in KIND_OF_FIELD / DISCRIMINATED`);
      if (paths[path].auth === "anon" || FIXTURE_PATHS.has(path)) continue;
      if (fields.length === 0 && !NO_IDS.has(path))
        problems.push(
          `${path}: names no record (${
            idFieldsOf(path)
              .map((f) => f.key)
              .join(", ") || "no id fields"
          }); add it to NO_IDS`,
        );
      if (NO_IDS.has(path) && fields.length > 0)
        problems.push(`${path}: is in NO_IDS but names records (${fields.map((f) => f.field.key).join(", ")})`);
    }
    for (const entry of Object.keys(OWN_ONLY)) {
      const [path, field] = entry.split("#") as [VueapiPath, string];
      if (!(path in paths) || !recordFieldsOf(path).fields.some((f) => f.field.key === field))
        problems.push(`OWN_ONLY ${entry}: no such id field`);
    }
    for (const path of [...NO_IDS, ...FIXTURE_PATHS])
      if (!(path in paths)) problems.push(`${path}: no longer in contract/paths.ts`);
    for (const path of allPaths.filter((p) => p.startsWith("/test/")))
      if (!FIXTURE_PATHS.has(path)) problems.push(`${path}: a test path missing from FIXTURE_PATHS`);
    expect(problems).toEqual([]);
  });

  it("every registered endpoint has probes", () => {
    const missing = endpoints.filter((e) => !ENDPOINT_PROBES[e.path]).map((e) => e.path);
    expect(missing, "add probes with forged credentials to ENDPOINT_PROBES").toEqual([]);
  });

  it("every base payload is valid for the contract", () => {
    const invalid = allPaths
      .map((p) => [p, basePayload(p, { world: A, cityNodeId }).problem])
      .filter(([, problem]) => problem);
    expect(invalid).toEqual([]);
  });
});

describe("user A with user B's ids", () => {
  it("every non-anonymous path refuses B's records, shows nothing of B's and changes nothing of B's", async () => {
    const problems: string[] = [];
    const refusals: Record<string, Set<string>> = {};
    const initial = await snapshot(B);
    let before = initial;
    figures.snapshots += 1;
    const order = allPaths.filter((p) => paths[p].auth !== "anon" && !FIXTURE_PATHS.has(p) && !LAST.includes(p));
    for (const path of [...order, ...LAST]) {
      figures.paths += 1;
      let accepted = false;
      for (const v of variantsOf(path)) {
        const r = await post(path, v.payload, A.token);
        if (paths[path].auth === "operator") figures.operatorRequests += 1;
        else figures.pathIdRequests += 1;
        if (r.code === 0) accepted = true;
        else if (v.foreign)
          (refusals[path] ??= new Set()).add(r.code === ResponseCode.NO_PERMISSION ? "code 4" : r.message);
        problems.push(...problemsOf(path, v, r));
      }
      // A call that succeeded may have changed something: B reads everything again now, to name the path.
      if (accepted) {
        const after = await snapshot(B);
        figures.snapshots += 1;
        for (const k of changedKeys(before, after)) problems.push(`${path}: B's ${k} changed`);
        before = after;
      }
    }
    // For the record: the paths that refused B's ids with something else than "not found" (a business rule came first).
    const other = Object.entries(refusals).filter(([, m]) => [...m].some((x) => x !== Msg.NOT_FOUND && x !== "code 4"));
    console.info(
      `refusals other than not found: ${JSON.stringify(Object.fromEntries(other.map(([p, m]) => [p, [...m]])))}`,
    );
    const final = await snapshot(B);
    figures.snapshots += 1;
    for (const k of changedKeys(initial, final)) problems.push(`after the matrix: B's ${k} changed`);
    expect(problems).toEqual([]);
  }, 900_000);

  it("A's own records never came to hold B's (no cross-links made by the calls above)", async () => {
    // The matrix ended with logout: A logs in again.
    expect((await post("/main/getClientInfo", {}, A.token)).code).toBe(ResponseCode.SESSION_INVALID);
    revokedToken = A.token;
    A = { ...A, token: (await login(A.userName)).data.token };
    const mine = JSON.stringify(await snapshot(A));
    expect(leaksOf(mine, B)).toEqual([]);
  }, 60_000);

  it("without a valid session (none, forged, revoked) every non-anonymous path answers code 3 and nothing else", async () => {
    const forged = randomBytes(32).toString("base64url");
    const problems: string[] = [];
    const before = await snapshot(B);
    for (const path of allPaths.filter((p) => paths[p].auth !== "anon")) {
      const variants = variantsOf(path);
      const payload = (variants.find((v) => v.label === "every id B's") ?? variants[0]).payload;
      for (const [label, token] of [
        ["no token", undefined],
        ["a forged token", forged],
        ["a revoked token", revokedToken],
      ] as const) {
        const r = await post(path, payload, token);
        figures.sessionRequests += 1;
        if (r.code !== ResponseCode.SESSION_INVALID || r.status >= 500)
          problems.push(`${path} with ${label}: ${r.status} code ${r.code} ${r.message}`);
        for (const leak of leaksOf(r.text, B)) problems.push(`${path} with ${label}: shows B's ${leak}`);
      }
    }
    for (const k of changedKeys(before, await snapshot(B)))
      problems.push(`after the calls without a session: B's ${k} changed`);
    expect(problems).toEqual([]);
  }, 300_000);
});

/* ------------------------------------------------ endpoints ------------------------------------------------ */

type Probe = {
  label: string;
  method: string;
  url: string;
  body?: BodyInit;
  headers?: Record<string, string>;
  expect: number[];
};

/**
 * Requests with no or forged credentials, per registered endpoint (by its path prefix). An endpoint the
 * test server serves also gets a method it does not answer (405) and a body over its limit (413) at `sample`;
 * one it does not serve (another provider's webhook) must not answer at all, whatever is sent.
 */
type EndpointProbes =
  | { served: true; sample: (base: string) => string; probes: (b: World, base: string) => Probe[] }
  | { served: string; probes: (b: World, base: string) => Probe[] };

const ENDPOINT_PROBES: Record<string, EndpointProbes> = {
  // The city node gateways of IPFS services (docs/decisions/039): the upload and download keys are the credentials.
  // Forged keys, near misses of B's, B's keys swapped or on a gateway B's service did not choose, other paths.
  "/ipfs-gw/": {
    served: true,
    sample: (base) => `${base}/ipfs-gw/CN-BJ-01/upload`,
    probes: (b, base): Probe[] => {
      const gw = `${base}/ipfs-gw/${b.named.ipfsGateway}`;
      const cid = String(b.named.ipfsCid);
      const up = String(b.named.ipfsUpKey);
      const down = String(b.named.ipfsDownKey);
      const forged = (kind: "up" | "dl") => `ipfs_${kind}_${randomBytes(32).toString("base64url")}`;
      const near = (k: string) => `${k.slice(0, -1)}${k.endsWith("A") ? "B" : "A"}`;
      const file = { "Content-Type": "application/octet-stream", "X-File-Name": "mallory.txt" };
      return [
        {
          label: "an upload without a key",
          method: "POST",
          url: `${gw}/upload`,
          body: "mallory",
          headers: file,
          expect: [401],
        },
        {
          label: "an upload with a forged key",
          method: "POST",
          url: `${gw}/upload`,
          body: "mallory",
          headers: { ...file, Authorization: `Bearer ${forged("up")}` },
          expect: [401],
        },
        {
          label: "an upload with a near miss of B's upload key",
          method: "POST",
          url: `${gw}/upload`,
          body: "mallory",
          headers: { ...file, "X-Api-Key": near(up) },
          expect: [401],
        },
        {
          label: "an upload with B's download key",
          method: "POST",
          url: `${gw}/upload`,
          body: "mallory",
          headers: { ...file, "X-Api-Key": down },
          expect: [401],
        },
        {
          label: "an upload with B's key in upper case",
          method: "POST",
          url: `${gw}/upload`,
          body: "mallory",
          headers: { ...file, "X-Api-Key": up.toUpperCase() },
          expect: [401],
        },
        { label: "B's CID without a key", method: "GET", url: `${gw}/ipfs/${cid}`, expect: [401] },
        {
          label: "B's CID with a forged key",
          method: "GET",
          url: `${gw}/ipfs/${cid}`,
          headers: { "X-Api-Key": forged("dl") },
          expect: [401],
        },
        {
          label: "B's CID with a near miss of B's download key",
          method: "GET",
          url: `${gw}/ipfs/${cid}`,
          headers: { Authorization: `Bearer ${near(down)}` },
          expect: [401],
        },
        {
          label: "B's CID with B's upload key",
          method: "GET",
          url: `${gw}/ipfs/${cid}`,
          headers: { "X-Api-Key": up },
          expect: [401],
        },
        {
          label: "B's CID, B's key, a gateway B's service did not choose",
          method: "GET",
          url: `${base}/ipfs-gw/${b.named.ipfsOtherGateway}/ipfs/${cid}`,
          headers: { "X-Api-Key": down },
          expect: [403],
        },
        {
          label: "a path escaping the prefix",
          method: "GET",
          url: `${base}/ipfs-gw/..%2F..%2Fvueapi%2Fmain%2FgetClientInfo`,
          expect: [404],
        },
        {
          label: "an unknown action",
          method: "GET",
          url: `${gw}/pins/${cid}`,
          headers: { "X-Api-Key": down },
          expect: [404],
        },
        {
          label: "an extra segment",
          method: "GET",
          url: `${gw}/ipfs/${cid}/more`,
          headers: { "X-Api-Key": down },
          expect: [404],
        },
      ];
    },
  },
  // The sandbox checkout: its id is the credential. Forged and near-miss ids, other shapes of path.
  "/sandbox-pay/": {
    served: true,
    sample: (base) => `${base}/sandbox-pay/checkout/cs_${randomBytes(18).toString("base64url")}`,
    probes: (b, base): Probe[] => {
      const real = new URL(b.openCheckoutUrl).pathname.split("/").pop()!;
      const forged = `cs_${randomBytes(18).toString("base64url")}`;
      const nearMiss = `${real.slice(0, -1)}${real.endsWith("A") ? "B" : "A"}`;
      const pay = new URLSearchParams({
        action: "pay",
        number: "4242424242424242",
        expiry: "12/39",
        cvc: "123",
        name: "Mallory",
      });
      const form = { "Content-Type": "application/x-www-form-urlencoded" };
      return [
        { label: "a forged checkout id", method: "GET", url: `${base}/sandbox-pay/checkout/${forged}`, expect: [404] },
        {
          label: "paying a forged checkout id",
          method: "POST",
          url: `${base}/sandbox-pay/checkout/${forged}`,
          body: pay,
          headers: form,
          expect: [404],
        },
        {
          label: "a near miss of B's checkout id",
          method: "GET",
          url: `${base}/sandbox-pay/checkout/${nearMiss}`,
          expect: [404],
        },
        {
          label: "paying a near miss of B's checkout id",
          method: "POST",
          url: `${base}/sandbox-pay/checkout/${nearMiss}`,
          body: pay,
          headers: form,
          expect: [404],
        },
        {
          label: "cancelling a near miss",
          method: "POST",
          url: `${base}/sandbox-pay/checkout/${nearMiss}`,
          body: new URLSearchParams({ action: "cancel" }),
          headers: form,
          expect: [404],
        },
        {
          label: "B's id under another path",
          method: "GET",
          url: `${base}/sandbox-pay/checkout/${real}/extra`,
          expect: [404],
        },
        {
          label: "B's id in upper case",
          method: "GET",
          url: `${base}/sandbox-pay/checkout/${real.toUpperCase()}`,
          expect: [404],
        },
        { label: "no id", method: "GET", url: `${base}/sandbox-pay/checkout/`, expect: [404] },
        {
          label: "a path escaping the prefix",
          method: "GET",
          url: `${base}/sandbox-pay/checkout/..%2F..%2Fvueapi%2Fmain%2FgetClientInfo`,
          expect: [404],
        },
        { label: "a SQL-ish id", method: "GET", url: `${base}/sandbox-pay/checkout/cs_'%20OR%20'1'='1`, expect: [404] },
      ];
    },
  },
  // The chains' JSON-RPC without a key, served only with TEST_FIXTURES=1 (docs/decisions/025): it holds no
  // user's data (the keyed /chain/rpc/<projectKey> endpoint comes with the public-chain console). Unknown chains,
  // actions and paths that escape the prefix are not found; a body that is not JSON is a JSON-RPC parse error.
  "/chain/test-rpc/": {
    served: true,
    sample: (base) => `${base}/chain/test-rpc/test-network`,
    probes: (_b, base): Probe[] => {
      const json = { "Content-Type": "application/json" };
      const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" });
      return [
        {
          label: "an unknown chain",
          method: "POST",
          url: `${base}/chain/test-rpc/no-such-chain`,
          body: call,
          headers: json,
          expect: [404],
        },
        {
          label: "a path escaping the prefix",
          method: "POST",
          url: `${base}/chain/test-rpc/..%2F..%2Fvueapi%2Fmain%2FgetClientInfo`,
          body: call,
          headers: json,
          expect: [404],
        },
        {
          label: "an unknown action",
          method: "POST",
          url: `${base}/chain/test-rpc/test-network/drain`,
          body: call,
          headers: json,
          expect: [404],
        },
        {
          label: "an extra segment",
          method: "POST",
          url: `${base}/chain/test-rpc/test-network/fund/more`,
          body: call,
          headers: json,
          expect: [404],
        },
        {
          label: "a fund to a bad address",
          method: "POST",
          url: `${base}/chain/test-rpc/test-network/fund`,
          body: JSON.stringify({ address: "0x12", wei: "1" }),
          headers: json,
          expect: [400],
        },
        {
          label: "a body that is not JSON",
          method: "POST",
          url: `${base}/chain/test-rpc/test-network`,
          body: "{",
          headers: json,
          expect: [200],
        },
      ];
    },
  },
  // The keyed JSON-RPC endpoint of open-alliance projects (docs/decisions/026): the project key is the credential,
  // in the path or in x-api-key. Forged keys, near misses of B's, B's in another case, other shapes of path.
  "/chain/rpc/": {
    served: true,
    sample: (base) => `${base}/chain/rpc/${randomBytes(32).toString("base64url")}`,
    probes: (b, base): Probe[] => {
      const json = { "Content-Type": "application/json" };
      const call = JSON.stringify({
        jsonrpc: "2.0",
        id: 1,
        method: "eth_getBalance",
        params: [
          b.markers.find((m) => /^0x[0-9a-fA-F]{40}$/.test(m)) ?? "0x0000000000000000000000000000000000000000",
          "latest",
        ],
      });
      const real = String(b.named.projectKey);
      const forged = randomBytes(32).toString("base64url");
      const nearMiss = `${real.slice(0, -1)}${real.endsWith("A") ? "B" : "A"}`;
      return [
        {
          label: "a forged key",
          method: "POST",
          url: `${base}/chain/rpc/${forged}`,
          body: call,
          headers: json,
          expect: [401],
        },
        {
          label: "a near miss of B's key",
          method: "POST",
          url: `${base}/chain/rpc/${nearMiss}`,
          body: call,
          headers: json,
          expect: [401],
        },
        {
          label: "B's key in upper case",
          method: "POST",
          url: `${base}/chain/rpc/${real.toUpperCase()}`,
          body: call,
          headers: json,
          expect: [401],
        },
        {
          label: "a forged x-api-key",
          method: "POST",
          url: `${base}/chain/rpc`,
          body: call,
          headers: { ...json, "x-api-key": forged },
          expect: [401],
        },
        {
          label: "a near miss in x-api-key",
          method: "POST",
          url: `${base}/chain/rpc/`,
          body: call,
          headers: { ...json, "x-api-key": nearMiss },
          expect: [401],
        },
        { label: "no key", method: "POST", url: `${base}/chain/rpc`, body: call, headers: json, expect: [401] },
        {
          label: "B's key under another path",
          method: "POST",
          url: `${base}/chain/rpc/${real}/extra`,
          body: call,
          headers: json,
          expect: [404],
        },
        {
          label: "a path escaping the prefix",
          method: "POST",
          url: `${base}/chain/rpc/..%2F..%2Fvueapi%2Fmain%2FgetClientInfo`,
          body: call,
          headers: json,
          expect: [401],
        },
        {
          label: "a SQL-ish key",
          method: "POST",
          url: `${base}/chain/rpc/'%20OR%20'1'='1`,
          body: call,
          headers: json,
          expect: [401],
        },
      ];
    },
  },
  // The access URLs of test services (docs/decisions/034): the test key is the credential. Forged keys, near
  // misses and B's in another case are unknown; other shapes of path are refused before any lookup.
  "/chain/test/": {
    served: true,
    sample: (base) => `${base}/chain/test/${randomBytes(32).toString("base64url")}`,
    probes: (b, base): Probe[] => {
      const json = { "Content-Type": "application/json" };
      const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" });
      const real = String(b.named.testKey);
      const nearMiss = `${real.slice(0, -1)}${real.endsWith("A") ? "B" : "A"}`;
      return [
        {
          label: "a forged test key",
          method: "POST",
          url: `${base}/chain/test/${randomBytes(32).toString("base64url")}`,
          body: call,
          headers: json,
          expect: [401],
        },
        {
          label: "a near miss of B's test key",
          method: "POST",
          url: `${base}/chain/test/${nearMiss}`,
          body: call,
          headers: json,
          expect: [401],
        },
        {
          label: "B's test key in upper case",
          method: "POST",
          url: `${base}/chain/test/${real.toUpperCase()}`,
          body: call,
          headers: json,
          expect: [401],
        },
        {
          label: "B's test key under another path",
          method: "POST",
          url: `${base}/chain/test/${real}/extra`,
          body: call,
          headers: json,
          expect: [401],
        },
        {
          label: "a path escaping the prefix",
          method: "POST",
          url: `${base}/chain/test/..%2F..%2Fvueapi%2Fmain%2FgetClientInfo`,
          body: call,
          headers: json,
          expect: [401],
        },
        { label: "no key", method: "POST", url: `${base}/chain/test/`, body: call, headers: json, expect: [401] },
      ];
    },
  },
  // The chains of consortium services (docs/decisions/038): a user's service key is the credential. Forged keys
  // are unknown; other shapes of path are refused before any lookup (a real key's refusals are in
  // tests/backend/consortium-chain.test.ts: a participant who lost access, a stopped service).
  "/chain/service/": {
    served: true,
    sample: (base) => `${base}/chain/service/${randomBytes(32).toString("base64url")}`,
    probes: (_b, base): Probe[] => {
      const json = { "Content-Type": "application/json" };
      const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" });
      const forged = randomBytes(32).toString("base64url");
      return [
        {
          label: "a forged service key",
          method: "POST",
          url: `${base}/chain/service/${forged}`,
          body: call,
          headers: json,
          expect: [401],
        },
        {
          label: "a key under another path",
          method: "POST",
          url: `${base}/chain/service/${forged}/extra`,
          body: call,
          headers: json,
          expect: [401],
        },
        {
          label: "a path escaping the prefix",
          method: "POST",
          url: `${base}/chain/service/..%2F..%2Fvueapi%2Fmain%2FgetClientInfo`,
          body: call,
          headers: json,
          expect: [401],
        },
        { label: "no key", method: "POST", url: `${base}/chain/service/`, body: call, headers: json, expect: [401] },
      ];
    },
  },
  // The gateways of dedicated networks (docs/decisions/046): HTTP Basic with the network's authorized user. Unknown
  // networks and nodes, other shapes of path and forged credentials answer nothing of a network (the 401s of a real
  // network's wrong, near-miss and old credentials are in tests/backend/dedicated-network.test.ts).
  "/chain/dedicated/": {
    served: true,
    sample: (base) => `${base}/chain/dedicated/prn-probe`,
    probes: (_b, base): Probe[] => {
      const json = { "Content-Type": "application/json" };
      const call = JSON.stringify({ jsonrpc: "2.0", id: 1, method: "eth_chainId" });
      const forged = {
        ...json,
        Authorization: `Basic ${Buffer.from(`mallory:${randomBytes(8).toString("hex")}`).toString("base64")}`,
      };
      return [
        {
          label: "an unknown network",
          method: "POST",
          url: `${base}/chain/dedicated/prn-nosuch`,
          body: call,
          headers: forged,
          expect: [404],
        },
        {
          label: "an unknown network's node",
          method: "POST",
          url: `${base}/chain/dedicated/prn-nosuch/nodes/peer-1`,
          body: call,
          headers: forged,
          expect: [404],
        },
        {
          label: "an unknown network's CA",
          method: "GET",
          url: `${base}/chain/dedicated/prn-nosuch/ca`,
          headers: forged,
          expect: [404],
        },
        {
          label: "a name out of shape",
          method: "POST",
          url: `${base}/chain/dedicated/PRN'%20OR%20'1'='1`,
          body: call,
          headers: forged,
          expect: [404],
        },
        {
          label: "a path escaping the prefix",
          method: "POST",
          url: `${base}/chain/dedicated/..%2F..%2Fvueapi%2Fmain%2FgetClientInfo`,
          body: call,
          headers: forged,
          expect: [404],
        },
        {
          label: "an unknown action",
          method: "POST",
          url: `${base}/chain/dedicated/prn-nosuch/drain`,
          body: call,
          headers: json,
          expect: [404],
        },
        {
          label: "an extra segment",
          method: "POST",
          url: `${base}/chain/dedicated/prn-nosuch/nodes/peer-1/more`,
          body: call,
          headers: json,
          expect: [404],
        },
        {
          label: "no network",
          method: "POST",
          url: `${base}/chain/dedicated/`,
          body: call,
          headers: json,
          expect: [404],
        },
      ];
    },
  },
  // The DID service's public documents (docs/decisions/043): did:web documents and status lists are public by
  // design (public keys, revocation bits); only exact shapes answer, anything else is not found.
  "/users/": {
    served: true,
    sample: (base) => `${base}/users/${randomBytes(10).toString("hex")}/did.json`,
    probes: (_b, base): Probe[] => [
      {
        label: "an unknown handle",
        method: "GET",
        url: `${base}/users/${randomBytes(10).toString("hex")}/did.json`,
        expect: [404],
      },
      {
        label: "a handle in upper case",
        method: "GET",
        url: `${base}/users/${randomBytes(10).toString("hex").toUpperCase()}/did.json`,
        expect: [404],
      },
      {
        label: "a path escaping the prefix",
        method: "GET",
        url: `${base}/users/..%2F..%2Fvueapi%2Fmain%2FgetClientInfo`,
        expect: [404],
      },
      {
        label: "an extra segment",
        method: "GET",
        url: `${base}/users/${randomBytes(10).toString("hex")}/did.json/more`,
        expect: [404],
      },
      { label: "a SQL-ish handle", method: "GET", url: `${base}/users/'%20OR%20'1'='1/did.json`, expect: [404] },
    ],
  },
  "/.well-known/did.json": {
    served: true,
    sample: (base) => `${base}/.well-known/did.json`,
    probes: (_b, base): Probe[] => [
      { label: "a longer path", method: "GET", url: `${base}/.well-known/did.json/more`, expect: [404] },
      { label: "the platform's document", method: "GET", url: `${base}/.well-known/did.json`, expect: [200] },
    ],
  },
  "/did-status/": {
    served: true,
    sample: (base) => `${base}/did-status/1`,
    probes: (_b, base): Probe[] => [
      { label: "an unknown list", method: "GET", url: `${base}/did-status/2147483647`, expect: [404] },
      { label: "a list id out of range", method: "GET", url: `${base}/did-status/99999999999`, expect: [404] },
      {
        label: "a path escaping the prefix",
        method: "GET",
        url: `${base}/did-status/..%2F..%2Fvueapi%2Fmain%2FgetClientInfo`,
        expect: [404],
      },
      { label: "a SQL-ish id", method: "GET", url: `${base}/did-status/1'%20OR%20'1'='1`, expect: [404] },
    ],
  },
  // Stripe's webhook is served only with PAYMENT_PROVIDER=stripe; its signature checks (forged, tampered,
  // unsigned, stale) are tested against a fake Stripe in tests/backend/stripe.test.ts.
  "/payments/stripe/webhook": {
    served: "only with PAYMENT_PROVIDER=stripe (the test server runs the sandbox)",
    probes: (b, base): Probe[] => {
      const event = JSON.stringify({
        id: `evt_${randomBytes(8).toString("hex")}`,
        type: "checkout.session.completed",
        data: {
          object: {
            id: `cs_${randomBytes(12).toString("hex")}`,
            client_reference_id: b.openPaymentNo,
            payment_status: "paid",
            amount_total: 500,
            currency: "usd",
            metadata: { paymentNo: b.openPaymentNo },
          },
        },
      });
      const url = `${base}/payments/stripe/webhook`;
      return [
        {
          label: "B's payment completed, forged signature",
          method: "POST",
          url,
          body: event,
          headers: {
            "Content-Type": "application/json",
            "Stripe-Signature": `t=${Math.floor(Date.now() / 1000)},v1=${"0".repeat(64)}`,
          },
          expect: [302, 404],
        },
        {
          label: "B's payment completed, unsigned",
          method: "POST",
          url,
          body: event,
          headers: { "Content-Type": "application/json" },
          expect: [302, 404],
        },
      ];
    },
  },
};

async function probe(p: Probe): Promise<{ status: number; text: string }> {
  const res = await fetch(p.url, { method: p.method, body: p.body, headers: p.headers, redirect: "manual" });
  return { status: res.status, text: await res.text() };
}

describe("endpoints and webhooks with forged credentials", () => {
  it("every endpoint refuses forged credentials, other methods and oversized bodies, and shows and changes nothing of B's", async () => {
    const base = inject("baseUrl");
    const before = await snapshot(B);
    const problems: string[] = [];
    for (const endpoint of endpoints) {
      const entry = ENDPOINT_PROBES[endpoint.path];
      const generic: Probe[] = [];
      if (entry.served === true) {
        const url = entry.sample(base);
        const other = (["PUT", "DELETE", "PATCH"] as const).find(
          (m) => !(endpoint.methods as readonly string[]).includes(m),
        )!;
        generic.push({ label: `method ${other}`, method: other, url, expect: [405] });
        if ((endpoint.methods as readonly string[]).includes("POST")) {
          generic.push({
            label: "a body over the limit",
            method: "POST",
            url,
            body: "x".repeat(endpoint.bodyLimitBytes + 1),
            headers: { "Content-Type": "application/x-www-form-urlencoded" },
            expect: [413],
          });
        }
      }
      for (const p of [...entry.probes(B, base), ...generic]) {
        const r = await probe(p);
        figures.endpointRequests += 1;
        if (!p.expect.includes(r.status))
          problems.push(
            `${endpoint.path} ${p.label}: status ${r.status}, expected ${p.expect.join("/")}: ${r.text.slice(0, 120)}`,
          );
        for (const leak of leaksOf(r.text, B)) problems.push(`${endpoint.path} ${p.label}: shows B's ${leak}`);
      }
    }
    // The provider's webhook (/pay/callback): "B's open checkout succeeded", signed with a wrong secret, unsigned, replayed late.
    const reference = new URL(B.openCheckoutUrl).pathname.split("/").pop()!;
    const now = Math.floor(Date.now() / 1000);
    const event = JSON.stringify(
      eventFor(
        {
          reference,
          mode: "payment",
          merchantRef: B.openPaymentNo,
          status: "succeeded",
          amountCents: 500,
          currency: "USD",
          card: { brand: "Visa", last4: "4242", expMonth: 12, expYear: 2039 },
          reason: null,
        },
        `evt_${randomBytes(8).toString("hex")}`,
        now,
      ),
    );
    const forgeries = [
      {
        label: "signed with a wrong secret",
        event,
        timestamp: now,
        signature: signCallback("not-the-secret", now, event),
      },
      { label: "a zero signature", event, timestamp: now, signature: "0".repeat(64) },
      {
        label: "another event's signature",
        event,
        timestamp: now,
        signature: signCallback("not-the-secret", now, "{}"),
      },
      {
        label: "a stale, wrongly signed event",
        event,
        timestamp: now - 86_400,
        signature: signCallback("x", now - 86_400, event),
      },
    ];
    for (const { label, ...body } of forgeries) {
      const r = await post("/pay/callback", body);
      figures.webhookRequests += 1;
      if (r.code === 0 || r.status >= 500)
        problems.push(`/pay/callback ${label}: answered ${r.status} code ${r.code} ${r.message}`);
      for (const leak of leaksOf(r.text, B)) problems.push(`/pay/callback ${label}: shows B's ${leak}`);
    }
    for (const k of changedKeys(before, await snapshot(B)))
      problems.push(`after the endpoint probes: B's ${k} changed`);
    expect(problems).toEqual([]);
  }, 120_000);
});

/**
 * Teams (issue 33, docs/decisions/075): one enterprise account with a member per role calls every user path,
 * download and upload, and each answers by the permission its contract declares: a role without it gets code 4
 * and the message naming the roles that have it, before its payload is read; a role with it is never refused
 * by role. A user path without a permission fails here. The whole matrix wherever the file runs (the test command
 * runs it on PostgreSQL only, docs/decisions/097).
 */
describe("one account, a member per role: every path by its permission", () => {
  let team: Team;
  beforeAll(async () => {
    team = await buildTeam("mxt");
  }, 300_000);

  const ROLE_REFUSALS = new Set(Object.values(PERMISSION_REFUSED));
  const identities = () =>
    [["owner", team.owner.token], ...MEMBER_ROLES.map((r) => [r, team.members[r].token])] as [TeamRole, string][];

  function judged(where: string, role: TeamRole, permission: Permission | undefined, r: Reply): string[] {
    if (!permission) return [`${where}: declares no permission`];
    if (r.status >= 500) return [`${where} as ${role}: server error ${r.status}`];
    if (!roleMay(role, permission)) {
      if (r.code !== ResponseCode.NO_PERMISSION || r.message !== refusalMessage(permission))
        return [`${where} as ${role}: not refused for "${permission}" (code ${r.code} ${r.message})`];
      return [];
    }
    if (r.code === ResponseCode.SESSION_INVALID || ROLE_REFUSALS.has(r.message))
      return [`${where} as ${role}: refused although the role has "${permission}" (code ${r.code} ${r.message})`];
    return [];
  }

  it("each role is answered by each user path's permission", async () => {
    const problems: string[] = [];
    const userPaths = allPaths.filter((p) => paths[p].auth === "user" && !FIXTURE_PATHS.has(p) && !LAST.includes(p));
    const started = performance.now();
    for (const path of userPaths) {
      const payload = basePayload(path, { world: A, cityNodeId }).payload;
      for (const [role, token] of identities()) {
        figures.roleRequests += 1;
        problems.push(...judged(path, role, (paths[path] as PathSpec).permission, await post(path, payload, token)));
      }
    }
    console.info(`role matrix: ${userPaths.length} paths × 5 roles in ${Math.round(performance.now() - started)} ms`);
    // The account is intact: each member still acts for it with its role.
    for (const [role, token] of identities()) {
      const me = await post("/main/getClientInfo", {}, token);
      expect([me.data?.userId, me.data?.member?.role]).toEqual([team.accountId, role]);
    }
    expect(problems).toEqual([]);
  }, 900_000);

  it("each role is answered by each download's and upload's permission", async () => {
    const problems: string[] = [];
    for (const [kind, spec] of Object.entries(downloadSpecs)) {
      if (spec.auth !== "user") continue;
      for (const [role, token] of identities()) {
        const res = await download(kind, {}, token);
        const text = await res.text();
        const envelope = /^\{/.test(text) ? (JSON.parse(text) as { code: number; message: string }) : null;
        const r = { status: res.status, code: envelope?.code ?? 0, message: envelope?.message ?? "", text } as Reply;
        problems.push(...judged(`download ${kind}`, role, spec.permission, r));
      }
    }
    for (const [kind, rule] of Object.entries(UPLOAD_KINDS)) {
      if (rule.anonymous) continue;
      for (const [role, token] of identities()) {
        const res = await uploadRaw(kind, "empty.txt", "", token);
        const envelope = (await res.json()) as { code: number; message: string };
        const r = { status: res.status, ...envelope, text: JSON.stringify(envelope) } as Reply;
        problems.push(...judged(`upload ${kind}`, role, rule.permission, r));
      }
    }
    expect(problems).toEqual([]);
  }, 300_000);
});
