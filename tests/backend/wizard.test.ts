import { and, count, eq } from "drizzle-orm";
import { strToU8, zipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { issueToken } from "#backend/http/auth.ts";
import {
  appFunctions,
  appNodes,
  appRoles,
  apps,
  appTransitions,
  appVersions,
  chaincodePackages,
} from "#backend/domains/services/tables.ts";
import { cityNodes, users } from "#backend/db/tables.ts";
import type { UploadKind } from "#contract/uploads.ts";
import { JPEG, PDF, tinyPng } from "../fixtures/files.ts";
import { callVueapi, downloadVueapi, inProcessVueapi, uploadVueapi } from "./in-process.ts";
import { wizardBasic } from "./wizard-basic.ts";

// The wizard's rules over the /vueapi protocol, in-process so that a test can put a service in a later
// status (running, rejected) directly, as the lifecycle of another issue would.
const service = inProcessVueapi("wizard", { TEST_CAPTCHA: "WIZ1", TEST_FIXTURES: "1" });
let seq = 0;

const vueapi = (p: string, body: object = {}, token?: string) => callVueapi(service, p, body, token);
const post = (p: string, body: object = {}, token?: string) => vueapi(`/sys/chainAppInfo/wizard/${p}`, body, token);

async function newUser() {
  seq += 1;
  const name = `wiz${Date.now().toString(36)}${seq}`;
  const [row] = await service.services.db
    .insert(users)
    .values({
      userName: name,
      passwordHash: "x",
      realName: "测试",
      email: `${name}@example.com`,
      userType: 1,
      activatedAt: new Date(),
    })
    .returning();
  return { id: row.id, token: await issueToken(service.services, row.id) };
}

const PNG = tinyPng();
const ZIP = zipSync({ "chaincode/main.go": strToU8("package main\n\nfunc main() {}\n") });
/** Uploads a file as `token`'s (docs/decisions/023): a wizard call then names it by its upload id. */
async function upload(kind: UploadKind, name: string, bytes: Uint8Array, token: string) {
  const res = await uploadVueapi(service, kind, name, bytes, token);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return { uploadId: res.data.uploadId as string };
}
const cover = (token: string) => upload("cover", "cover.png", PNG, token);
const zipFile = (token: string, name = "asset.zip", bytes: Uint8Array = ZIP) => upload("chaincode", name, bytes, token);

function basic(extra: Record<string, unknown> = {}) {
  seq += 1;
  return { ...wizardBasic(`Service ${Date.now().toString(36)} ${seq}`), ...extra };
}

const pkg = (extra: Record<string, unknown> = {}) => ({
  name: "asset_cc",
  version: "1.0.0",
  // Node.js runs on Fabric (the wizard's default framework here); Go needs a connected Fabric network (052).
  language: "node",
  initParams: "a, b",
  mainPath: "lib/chaincode.js",
  ...extra,
});
const fn = (packageId: number, extra: Record<string, unknown> = {}) => ({
  name: "Create asset",
  packageId: String(packageId),
  funcType: "1",
  func: "createAsset",
  parentId: "top",
  inputFormat: '{"id":"string"}',
  outputFormat: '{"ok":"boolean"}',
  ...extra,
});

async function draftOf(token: string, appId: number, appState = "add") {
  const res = await post("draft", { appState, appId }, token);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return res.data.draft ?? res.data.source;
}

/** A complete draft: basic info, one package, one function, one role, one node, certificate mode. */
async function completeDraft(token: string, extra: Record<string, unknown> = {}) {
  const saved = await post("saveBasic", { appState: "add", basic: basic(extra), cover: await cover(token) }, token);
  expect(saved.code, JSON.stringify(saved)).toBe(0);
  const appId = saved.data.appId as number;
  const ref = { appState: "add", appId };
  expect((await post("addPackage", { ...ref, pkg: pkg(), file: await zipFile(token) }, token)).code).toBe(0);
  const packageId = (await draftOf(token, appId)).packages[0].packageId;
  expect((await post("advance", { ...ref, from: "packages" }, token)).code).toBe(0);
  expect((await post("addFunction", { ...ref, fn: fn(packageId) }, token)).code).toBe(0);
  const functionId = (await draftOf(token, appId)).functions[0].functionId;
  expect((await post("advance", { ...ref, from: "functions" }, token)).code).toBe(0);
  expect(
    (
      await post(
        "addRole",
        { ...ref, role: { name: "Bank", description: "Issues letters", functionIds: [String(functionId)] } },
        token,
      )
    ).code,
  ).toBe(0);
  expect((await post("advance", { ...ref, from: "roles" }, token)).code).toBe(0);
  const [node] = await service.services.db.select().from(cityNodes).limit(1);
  const nodes = { nodes: [{ cityNodeId: String(node.id), selected: "on", tps: "100", capacityGb: "50", peers: "2" }] };
  expect((await post("saveNodes", { ...ref, form: nodes }, token)).code).toBe(0);
  expect((await post("saveCertificate", { ...ref, form: { certificateMode: "2" } }, token)).code).toBe(0);
  return { appId, ref, packageId, functionId, node };
}

async function countFor(table: typeof chaincodePackages | typeof appFunctions | typeof appRoles, verId: number) {
  const [row] = await service.services.db.select({ n: count() }).from(table).where(eq(table.verId, verId));
  return row.n;
}

describe("step 1, basic information (§2, §3 Service, §5 Service)", () => {
  it("refuses bad input without creating anything, then creates the draft at verState 1 on the first good save", async () => {
    const { id, token } = await newUser();
    const bad = await post(
      "saveBasic",
      {
        appState: "add",
        basic: basic({
          name: "",
          version: "1.0",
          contactEmail: "nope",
          webUrl: undefined,
          crossChain: "on",
          crossProtocol: "2",
          paymentCycle: "3",
        }),
        cover: await cover(token),
      },
      token,
    );
    expect(bad.message).toBe("MSG_10001");
    expect(Object.keys(bad.data.fieldErrors).sort()).toEqual([
      "basic.contactEmail",
      "basic.name",
      "basic.paymentCycle",
      "basic.version",
    ]);
    // Rules across fields: an access address (§5 "address"), a protocol, and the APPCode of the second protocol.
    const cross = await post(
      "saveBasic",
      {
        appState: "add",
        basic: basic({ webUrl: undefined, crossChain: "on", crossProtocol: "2" }),
        cover: await cover(token),
      },
      token,
    );
    expect(cross.data.fieldErrors).toEqual({
      "basic.webUrl": ["wizard:validation.accessRequired"],
      "basic.crossAppCode": ["wizard:validation.appCodeRequired"],
    });
    const noProtocol = await post(
      "saveBasic",
      { appState: "add", basic: basic({ crossChain: "on" }), cover: await cover(token) },
      token,
    );
    expect(noProtocol.data.fieldErrors).toEqual({ "basic.crossProtocol": ["wizard:validation.protocolRequired"] });
    const noCover = await post("saveBasic", { appState: "add", basic: basic() }, token);
    expect(noCover.data.fieldErrors).toEqual({ cover: ["wizard:validation.coverRequired"] });
    // A cover that is not an image is refused at its upload, by its bytes.
    const fakeCover = await uploadVueapi(service, "cover", "cover.png", strToU8("not an image"), token);
    expect(fakeCover).toMatchObject({
      code: 1,
      message: "MSG_20021",
      data: { fieldErrors: { file: ["wizard:validation.file.coverType"] } },
    });
    // An upload id is used once, by its uploader, for its kind.
    const once = await cover(token);
    expect(
      (await post("saveBasic", { appState: "add", basic: basic(), cover: once }, (await newUser()).token)).data
        .fieldErrors,
    ).toEqual({ cover: ["errors:MSG_20022"] });
    expect(
      (await post("saveBasic", { appState: "add", basic: basic(), cover: await zipFile(token) }, token)).message,
    ).toBe("MSG_20022");
    const [none] = await service.services.db.select({ n: count() }).from(apps).where(eq(apps.userId, id));
    expect(none.n).toBe(0);

    const used = await cover(token);
    const good = await post(
      "saveBasic",
      { appState: "add", basic: basic({ crossChain: "on", crossProtocol: "2", crossAppCode: "APP-1" }), cover: used },
      token,
    );
    expect(good.code, JSON.stringify(good)).toBe(0);
    expect(good.data.wizardStep).toBe("packages");
    const draft = await draftOf(token, good.data.appId);
    expect(draft).toMatchObject({
      verState: 1,
      editable: true,
      wizardStep: "packages",
      basic: { crossChain: true, crossProtocol: "2", crossAppCode: "APP-1", version: "1.0.0" },
    });
    expect(draft.cover.name).toBe("cover.png");
    // The cover it claimed cannot be claimed again.
    const again = await post(
      "saveBasic",
      {
        appState: "add",
        appId: good.data.appId,
        basic: basic({ crossChain: "on", crossProtocol: "2", crossAppCode: "APP-1" }),
        cover: used,
      },
      token,
    );
    expect(again.data.fieldErrors).toEqual({ cover: ["errors:MSG_20022"] });
  });

  it("service names are unique across services (§8 duplicate names), whoever owns them", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const b = basic();
    expect(
      (await post("saveBasic", { appState: "add", basic: b, cover: await cover(alice.token) }, alice.token)).code,
    ).toBe(0);
    const dup = await post(
      "saveBasic",
      { appState: "add", basic: { ...basic(), name: b.name.toUpperCase() }, cover: await cover(bob.token) },
      bob.token,
    );
    expect(dup.message).toBe("MSG_37002");
    expect(dup.data.fieldErrors).toEqual({ "basic.name": ["MSG_37002"] });
  });

  it("one free service per account (§1): a second free one is refused", async () => {
    const { token } = await newUser();
    expect(
      (
        await post(
          "saveBasic",
          { appState: "add", basic: basic({ freeService: "on" }), cover: await cover(token) },
          token,
        )
      ).code,
    ).toBe(0);
    const second = await post(
      "saveBasic",
      { appState: "add", basic: basic({ freeService: "on" }), cover: await cover(token) },
      token,
    );
    expect(second.message).toBe("MSG_37011");
    expect((await post("saveBasic", { appState: "add", basic: basic(), cover: await cover(token) }, token)).code).toBe(
      0,
    );
  });

  it("another user's draft is not found, to read or to change", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const { appId } = await completeDraft(alice.token);
    expect((await post("draft", { appState: "add", appId }, bob.token)).message).toBe("MSG_10002");
    expect(
      (await post("saveBasic", { appState: "add", appId, basic: basic(), cover: await cover(bob.token) }, bob.token))
        .message,
    ).toBe("MSG_10002");
    expect(
      (
        await post(
          "addPackage",
          { appState: "add", appId, pkg: pkg({ name: "other_cc" }), file: await zipFile(bob.token) },
          bob.token,
        )
      ).message,
    ).toBe("MSG_10002");
    expect((await post("submit", { appState: "add", appId, form: { agreement: "on" } }, bob.token)).message).toBe(
      "MSG_10002",
    );
    expect((await post("draft", { appState: "add", appId })).code).toBe(3);
  });
});

describe("step 2, chaincode packages (§5 Chaincode package)", () => {
  it("checks name, version, language, main path and the zip; bad input never reaches the database", async () => {
    const { token } = await newUser();
    const { data } = await post("saveBasic", { appState: "add", basic: basic(), cover: await cover(token) }, token);
    const ref = { appState: "add", appId: data.appId };
    const verId = (await draftOf(token, data.appId)).verId;
    const noNext = await post("advance", { ...ref, from: "packages" }, token);
    expect(noNext.message).toBe("MSG_37012");

    const bad = await post(
      "addPackage",
      {
        ...ref,
        pkg: { name: "1abc", version: "v1", language: "rust", mainPath: "", initParams: "a,,b" },
        file: await zipFile(token),
      },
      token,
    );
    expect(Object.keys(bad.data.fieldErrors).sort()).toEqual([
      "pkg.initParams",
      "pkg.language",
      "pkg.mainPath",
      "pkg.name",
      "pkg.version",
    ]);
    for (const name of ["abc", "a_name_longer_than_16", "has space", "名字abcd"]) {
      expect(
        (await post("addPackage", { ...ref, pkg: pkg({ name }), file: await zipFile(token) }, token)).data.fieldErrors,
      ).toHaveProperty(["pkg.name"]);
    }
    // The zip itself is checked at its upload: its name before a byte is read, then its bytes.
    const refusedUpload = (name: string, bytes: Uint8Array = ZIP) =>
      uploadVueapi(service, "chaincode", name, bytes, token);
    expect((await refusedUpload("my chaincode.zip")).data.fieldErrors).toEqual({
      file: ["wizard:validation.file.spaces"],
    });
    expect((await refusedUpload(`${"a".repeat(47)}.zip`)).data.fieldErrors).toEqual({
      file: ["wizard:validation.file.nameTooLong"],
    });
    expect((await refusedUpload("code.tar")).message).toBe("MSG_20021");
    const fake = await refusedUpload("fake.zip", strToU8("not a zip at all"));
    expect(fake).toMatchObject({
      message: "MSG_20021",
      data: { fieldErrors: { file: ["wizard:validation.file.zipOnly"] } },
    });
    expect(
      (await post("addPackage", { ...ref, pkg: pkg(), file: { uploadId: "x".repeat(43) } }, token)).data.fieldErrors,
    ).toEqual({ file: ["errors:MSG_20022"] });
    expect(await countFor(chaincodePackages, verId)).toBe(0);

    expect(
      (await post("addPackage", { ...ref, pkg: pkg({ name: "_asset1" }), file: await zipFile(token) }, token)).code,
    ).toBe(0);
    const dup = await post("addPackage", { ...ref, pkg: pkg({ name: "_ASSET1" }), file: await zipFile(token) }, token);
    expect(dup.message).toBe("MSG_37004");
    const draft = await draftOf(token, data.appId);
    expect(draft.packages).toHaveLength(1);
    expect(draft.packages[0]).toMatchObject({
      name: "_asset1",
      initParams: "a,b",
      fileName: "asset.zip",
      size: ZIP.byteLength,
    });
    expect((await post("advance", { ...ref, from: "packages" }, token)).data.wizardStep).toBe("functions");
  });

  it("takes Solidity packages only on an EVM framework, and keeps such a draft on one", async () => {
    const { token } = await newUser();
    const fabric = await post("saveBasic", { appState: "add", basic: basic(), cover: await cover(token) }, token);
    const onFabric = { appState: "add", appId: fabric.data.appId };
    const refused = await post(
      "addPackage",
      { ...onFabric, pkg: pkg({ name: "token_sol", language: "solidity" }), file: await zipFile(token) },
      token,
    );
    expect(refused).toMatchObject({ message: "MSG_37021", data: { fieldErrors: { "pkg.language": ["MSG_37021"] } } });
    expect(await countFor(chaincodePackages, (await draftOf(token, fabric.data.appId)).verId)).toBe(0);

    const fisco = await post(
      "saveBasic",
      { appState: "add", basic: basic({ name: `Sol ${Date.now()}`, framework: "fisco" }), cover: await cover(token) },
      token,
    );
    const onFisco = { appState: "add", appId: fisco.data.appId };
    expect(
      (
        await post(
          "addPackage",
          { ...onFisco, pkg: pkg({ name: "token_sol", language: "solidity" }), file: await zipFile(token) },
          token,
        )
      ).code,
    ).toBe(0);
    // With a Solidity package in the draft, its framework cannot become one that does not run it.
    const switched = await post(
      "saveBasic",
      { ...onFisco, basic: basic({ name: `Sol ${Date.now()}`, framework: "fabric" }) },
      token,
    );
    expect(switched).toMatchObject({
      message: "MSG_37021",
      data: { fieldErrors: { "basic.framework": ["MSG_37021"] } },
    });
  });
});

describe("steps 3 and 4, functions and roles (§5 Function, Role)", () => {
  it("checks FUNC, parents and uniqueness; roles need a unique name and a function; deletes wait for the roles", async () => {
    const { token } = await newUser();
    const { data } = await post("saveBasic", { appState: "add", basic: basic(), cover: await cover(token) }, token);
    const ref = { appState: "add", appId: data.appId };
    await post("addPackage", { ...ref, pkg: pkg(), file: await zipFile(token) }, token);
    const { packages, verId } = await draftOf(token, data.appId);
    const packageId = packages[0].packageId;
    expect((await post("advance", { ...ref, from: "functions" }, token)).message).toBe("MSG_37020");

    for (const func of ["创建", "create asset", "create-asset!", ""]) {
      const res = await post("addFunction", { ...ref, fn: fn(packageId, { func }) }, token);
      expect(res.data.fieldErrors, func).toHaveProperty(["fn.func"]);
    }
    const empty = await post("addFunction", { ...ref, fn: { packageId: String(packageId), func: "x" } }, token);
    expect(Object.keys(empty.data.fieldErrors).sort()).toEqual([
      "fn.funcType",
      "fn.inputFormat",
      "fn.name",
      "fn.outputFormat",
      "fn.parentId",
    ]);
    expect((await post("addFunction", { ...ref, fn: fn(999999) }, token)).data.fieldErrors).toEqual({
      "fn.packageId": ["validation.required"],
    });
    expect(await countFor(appFunctions, verId)).toBe(0);

    expect((await post("addFunction", { ...ref, fn: fn(packageId) }, token)).code).toBe(0);
    expect((await post("addFunction", { ...ref, fn: fn(packageId, { name: "Again" }) }, token)).message).toBe(
      "MSG_37005",
    );
    const parentId = (await draftOf(token, data.appId)).functions[0].functionId;
    expect(
      (
        await post(
          "addFunction",
          {
            ...ref,
            fn: fn(packageId, {
              name: "Query",
              func: "queryAsset",
              funcType: "2",
              parentId: String(parentId),
              crossChainAllowed: "on",
            }),
          },
          token,
        )
      ).code,
    ).toBe(0);
    const fns = (await draftOf(token, data.appId)).functions;
    expect(fns[1]).toMatchObject({ parentId, funcType: 2, crossChainAllowed: true });
    expect((await post("delete", { ...ref, kind: "function", id: parentId }, token)).message).toBe("MSG_37010");

    expect((await post("advance", { ...ref, from: "roles" }, token)).message).toBe("MSG_37015");
    const noFunctions = await post(
      "addRole",
      { ...ref, role: { name: "Bank", description: "d", functionIds: [] } },
      token,
    );
    expect(noFunctions.data.fieldErrors).toEqual({ "role.functionIds": ["wizard:validation.functionsRequired"] });
    expect(
      (
        await post(
          "addRole",
          { ...ref, role: { name: "", description: "", functionIds: [String(fns[1].functionId)] } },
          token,
        )
      ).data.fieldErrors,
    ).toEqual({
      "role.name": ["validation.required"],
      "role.description": ["validation.required"],
    });
    expect(await countFor(appRoles, verId)).toBe(0);
    expect(
      (
        await post(
          "addRole",
          { ...ref, role: { name: "Bank", description: "Issues", functionIds: [String(fns[1].functionId)] } },
          token,
        )
      ).code,
    ).toBe(0);
    expect(
      (
        await post(
          "addRole",
          { ...ref, role: { name: "bank", description: "Dup", functionIds: [String(fns[0].functionId)] } },
          token,
        )
      ).message,
    ).toBe("MSG_37006");

    // §5: deleting a package or function requires first deleting the roles built on it.
    expect((await post("delete", { ...ref, kind: "function", id: fns[1].functionId }, token)).message).toBe(
      "MSG_37009",
    );
    expect((await post("delete", { ...ref, kind: "package", id: packageId }, token)).message).toBe("MSG_37008");
    const roleId = (await draftOf(token, data.appId)).roles[0].roleId;
    expect((await post("delete", { ...ref, kind: "role", id: roleId }, token)).code).toBe(0);
    expect((await post("delete", { ...ref, kind: "package", id: packageId }, token)).code).toBe(0);
    const after = await draftOf(token, data.appId);
    expect(after.packages).toEqual([]);
    expect(after.functions).toEqual([]);
  });

  it("every package needs functions and a role before the roles step is left", async () => {
    const { token } = await newUser();
    const { ref } = await completeDraft(token);
    expect(
      (await post("addPackage", { ...ref, pkg: pkg({ name: "second_cc" }), file: await zipFile(token) }, token)).code,
    ).toBe(0);
    expect((await post("advance", { ...ref, from: "functions" }, token)).message).toBe("MSG_37013");
    const second = (await draftOf(token, ref.appId)).packages[1].packageId;
    await post("addFunction", { ...ref, fn: fn(second, { func: "transfer" }) }, token);
    expect((await post("advance", { ...ref, from: "roles" }, token)).message).toBe("MSG_37014");
    expect((await post("submit", { ...ref, form: { agreement: "on" } }, token)).message).toBe("MSG_37014");
  });
});

describe("step 5, city nodes (§3 City node, §5 bookkeeping nodes)", () => {
  it("needs a node, whole numbers, at most 3 bookkeeping nodes and no more than the node offers", async () => {
    const { token } = await newUser();
    const { ref, node } = await completeDraft(token);
    const id = String(node.id);
    expect(
      (await post("saveNodes", { ...ref, form: { nodes: [{ cityNodeId: id, tps: "10" }] } }, token)).data.fieldErrors,
    ).toEqual({ "form.nodes": ["wizard:validation.nodesRequired"] });
    const bad = await post(
      "saveNodes",
      { ...ref, form: { nodes: [{ cityNodeId: id, selected: "on", tps: "0", capacityGb: "x", peers: "4" }] } },
      token,
    );
    expect(bad.data.fieldErrors).toEqual({
      "form.nodes.0.tps": ["wizard:validation.wholeNumber"],
      "form.nodes.0.capacityGb": ["wizard:validation.wholeNumber"],
      "form.nodes.0.peers": ["wizard:validation.peersMax"],
    });
    const tooMuch = await post(
      "saveNodes",
      {
        ...ref,
        form: {
          nodes: [{ cityNodeId: id, selected: "on", tps: String(node.availableTps + 1), capacityGb: "1", peers: "1" }],
        },
      },
      token,
    );
    expect(tooMuch).toMatchObject({
      message: "MSG_37018",
      data: { fieldErrors: { "form.nodes.0.tps": ["MSG_37018"] } },
    });
    // The saved nodes are unchanged by refused input.
    expect((await draftOf(token, ref.appId)).nodes).toEqual([
      { cityNodeId: node.id, tps: 100, capacityGb: 50, peers: 2 },
    ]);
  });
});

describe("submission (§5 Service) and the lifecycle", () => {
  it("re-checks everything, saves the cost of one cycle and moves 1 → 5 with a transition row", async () => {
    const { token, id } = await newUser();
    const { ref, node } = await completeDraft(token);
    expect((await post("submit", { ...ref, form: {} }, token)).data.fieldErrors).toEqual({
      "form.agreement": ["wizard:validation.agreement"],
    });
    const draft = await draftOf(token, ref.appId);
    // Monthly: 100 TPS × monthly TPS price + 50 GB × GB-month price × 1.
    const expected = 100 * node.tpsPricePerMonthCents + 50 * node.capacityPricePerGbMonthCents;
    expect(draft.cost).toMatchObject({ totalCents: expected, paymentCycle: 2, free: false });
    const done = await post("submit", { ...ref, form: { agreement: "on" } }, token);
    expect(done.code, JSON.stringify(done)).toBe(0);
    expect(done.data).toMatchObject({ verState: 5, costCents: expected });
    const [version] = await service.services.db.select().from(appVersions).where(eq(appVersions.id, draft.verId));
    expect(version).toMatchObject({ verState: 5, costCents: expected });
    expect(version.agreementAcceptedAt).toBeInstanceOf(Date);
    const rows = await service.services.db.select().from(appTransitions).where(eq(appTransitions.verId, draft.verId));
    expect(rows).toEqual([
      expect.objectContaining({ event: "submit", fromState: 1, toState: 5, actorId: id, actorKind: "publisher" }),
    ]);
    // Submitted: shown, no longer editable; a second submit is refused.
    expect((await draftOf(token, ref.appId)).editable).toBe(false);
    expect((await post("submit", { ...ref, form: { agreement: "on" } }, token)).message).toBe("MSG_37001");
    expect(
      (await post("addRole", { ...ref, role: { name: "Late", description: "x", functionIds: ["1"] } }, token)).message,
    ).toBe("MSG_37001");
  });

  it("a certificate mode is required before submission", async () => {
    const { token } = await newUser();
    const { ref } = await completeDraft(token);
    const { verId } = await draftOf(token, ref.appId);
    await service.services.db.update(appVersions).set({ certificateMode: null }).where(eq(appVersions.id, verId));
    expect((await post("submit", { ...ref, form: { agreement: "on" } }, token)).message).toBe("MSG_37019");
  });

  it("mod2 edits a rejected version (22) through every step and resubmits it", async () => {
    const { token } = await newUser();
    const { ref } = await completeDraft(token);
    const { verId } = await draftOf(token, ref.appId);
    await service.services.db.update(appVersions).set({ verState: 22 }).where(eq(appVersions.id, verId));
    expect(
      (await post("addPackage", { ...ref, pkg: pkg({ name: "late_cc" }), file: await zipFile(token) }, token)).message,
    ).toBe("MSG_37001");
    const mod2 = { appState: "mod2", appId: ref.appId };
    const d = await draftOf(token, ref.appId, "mod2");
    expect(d.editable).toBe(true);
    expect(
      (
        await post(
          "saveBasic",
          { ...mod2, basic: { ...basic(), name: d.basic.name, version: "1.0.1", description: "Fixed" } },
          token,
        )
      ).code,
    ).toBe(0);
    const done = await post("submit", { ...mod2, form: { agreement: "on" } }, token);
    expect(done.data.verState).toBe(5);
    const [last] = await service.services.db
      .select()
      .from(appTransitions)
      .where(and(eq(appTransitions.verId, verId), eq(appTransitions.event, "resubmit")));
    expect(last).toMatchObject({ fromState: 22, toState: 5 });
  });
});

describe("mod and update on a running service (§4 action availability)", () => {
  async function running(token: string) {
    const { ref } = await completeDraft(token);
    const { verId } = await draftOf(token, ref.appId);
    await service.services.db.update(appVersions).set({ verState: 25, billState: 15 }).where(eq(appVersions.id, verId));
    return { appId: ref.appId, verId };
  }

  it("mod saves basic information without review, only when basic-info edit is offered", async () => {
    const { token } = await newUser();
    const { appId, verId } = await running(token);
    const d = await draftOf(token, appId, "mod");
    const saved = await post(
      "saveBasic",
      {
        appState: "mod",
        appId,
        basic: { ...basic(), name: d.basic.name, version: "9.9.9", introduction: "Now with more banks." },
      },
      token,
    );
    expect(saved.code, JSON.stringify(saved)).toBe(0);
    const after = await draftOf(token, appId, "mod");
    expect(after).toMatchObject({ verState: 25, basic: { introduction: "Now with more banks.", version: "1.0.0" } });
    expect(
      (
        await post(
          "addPackage",
          { appState: "mod", appId, pkg: pkg({ name: "mod_cc" }), file: await zipFile(token) },
          token,
        )
      ).message,
    ).toBe("MSG_37001");
    await service.services.db.update(appVersions).set({ billState: 1 }).where(eq(appVersions.id, verId));
    expect((await post("draft", { appState: "mod", appId }, token)).message).toBe("MSG_36001");
    expect(
      (await post("saveBasic", { appState: "mod", appId, basic: basic({ name: d.basic.name }) }, token)).message,
    ).toBe("MSG_36001");
  });

  it("update creates a new version with a new unique number, copying packages, functions, roles and nodes", async () => {
    const { token } = await newUser();
    const { appId, verId } = await running(token);
    const src = await post("draft", { appState: "update", appId }, token);
    expect(src.data).toMatchObject({ draft: null, source: { verId, verState: 25 } });
    const name = src.data.source.basic.name;
    const same = await post(
      "saveBasic",
      { appState: "update", appId, basic: basic({ name, version: "1.0.0" }) },
      token,
    );
    expect(same).toMatchObject({ message: "MSG_37003", data: { fieldErrors: { "basic.version": ["MSG_37003"] } } });
    const [before] = await service.services.db
      .select({ n: count() })
      .from(appVersions)
      .where(eq(appVersions.appId, appId));
    expect(before.n).toBe(1);
    const up = await post("saveBasic", { appState: "update", appId, basic: basic({ name, version: "1.1.0" }) }, token);
    expect(up.code, JSON.stringify(up)).toBe(0);
    const d = await draftOf(token, appId, "update");
    expect(d).toMatchObject({ verState: 1, wizardStep: "packages", certificateMode: 2, basic: { version: "1.1.0" } });
    expect(d.verId).not.toBe(verId);
    expect(d.packages).toHaveLength(1);
    expect(d.functions).toHaveLength(1);
    expect(d.roles[0].functionIds).toEqual([d.functions[0].functionId]);
    const [nodes] = await service.services.db.select({ n: count() }).from(appNodes).where(eq(appNodes.verId, d.verId));
    expect(nodes.n).toBe(1);
    const done = await post("submit", { appState: "update", appId, form: { agreement: "on" } }, token);
    expect(done.data.verState).toBe(5);
    // The running version is untouched.
    const [old] = await service.services.db.select().from(appVersions).where(eq(appVersions.id, verId));
    expect(old.verState).toBe(25);
  });

  it("update is refused when service upgrade is not offered: cross-chaining in progress with its own §8 message, not upgradable with the generic one", async () => {
    const { token } = await newUser();
    const { appId } = await running(token);
    for (const crossStatus of [3, 4]) {
      await service.services.db.update(apps).set({ crossStatus }).where(eq(apps.id, appId));
      expect((await post("draft", { appState: "update", appId }, token)).message).toBe("MSG_48109");
    }
    await service.services.db.update(apps).set({ crossStatus: 0 }).where(eq(apps.id, appId));
    await service.services.db.update(appVersions).set({ verUpable: false }).where(eq(appVersions.appId, appId));
    expect((await post("draft", { appState: "update", appId }, token)).message).toBe("MSG_36001");
  });
});

describe("SPEC §5 Blocking by bills, on the backend's wizard paths", () => {
  it("an unpaid usage bill: opening a draft and every save answer MSG_30005 and write nothing; paying opens them again", async () => {
    const { id, token } = await newUser();
    const { data } = await post("saveBasic", { appState: "add", basic: basic(), cover: await cover(token) }, token);
    const ref = { appState: "add", appId: data.appId };
    expect((await post("addPackage", { ...ref, pkg: pkg(), file: await zipFile(token) }, token)).code).toBe(0);
    const { verId, packages } = await draftOf(token, data.appId);
    const bill = await vueapi(
      "/test/fixtures",
      { grantCents: 1_000, bills: [{ billType: 3, cycle: 99, totalCents: 300 }] },
      token,
    );
    expect(bill.code, JSON.stringify(bill)).toBe(0);

    const refused = [
      await post("draft", ref, token),
      await post("draft", { appState: "add" }, token),
      await post("saveBasic", { appState: "add", basic: basic(), cover: await cover(token) }, token),
      await post("saveBasic", { ...ref, basic: basic() }, token),
      await post(
        "addAttachment",
        { ...ref, attachment: { attachmentName: "Manual" }, file: await upload("attachment", "m.pdf", PDF, token) },
        token,
      ),
      await post("addPackage", { ...ref, pkg: pkg({ name: "more_cc" }), file: await zipFile(token) }, token),
      await post("addFunction", { ...ref, fn: fn(packages[0].packageId) }, token),
      await post("advance", { ...ref, from: "packages" }, token),
      await post("delete", { ...ref, kind: "package", id: packages[0].packageId }, token),
      await post("submit", { ...ref, form: { agreement: "on" } }, token),
    ];
    expect(refused.map((r) => r.message)).toEqual(refused.map(() => "MSG_30005"));
    const [mine] = await service.services.db.select({ n: count() }).from(apps).where(eq(apps.userId, id));
    expect(mine.n).toBe(1);
    expect(await countFor(chaincodePackages, verId)).toBe(1);
    expect(await countFor(appFunctions, verId)).toBe(0);

    const paid = await vueapi(
      "/sys/system/clientInfo/h5billPay",
      { billId: bill.data.billIds[0], idempotencyKey: `wiz-bill-${Date.now()}` },
      token,
    );
    expect(paid.code, JSON.stringify(paid)).toBe(0);
    expect((await post("draft", ref, token)).code).toBe(0);
    expect((await post("advance", { ...ref, from: "packages" }, token)).code).toBe(0);
  });
});

describe("the cover (shown from the portal's cover route, not inside the draft)", () => {
  it("answers the owner's cover file, without its bytes when the caller has it already; another user's is not found", async () => {
    const alice = await newUser();
    const bob = await newUser();
    const { data } = await post(
      "saveBasic",
      { appState: "add", basic: basic(), cover: await cover(alice.token) },
      alice.token,
    );
    const draft = await draftOf(alice.token, data.appId);
    expect(draft.cover).toEqual({ fileId: expect.any(Number), name: "cover.png", size: PNG.byteLength });
    expect(JSON.stringify(draft)).not.toContain(PNG.toString("base64"));

    // The bytes come from the download path (docs/decisions/053), their ETag naming the file.
    const coverOf = (token: string, headers: Record<string, string> = {}) =>
      downloadVueapi(service, "wizard-cover", { appId: data.appId }, token, headers);
    const full = await coverOf(alice.token);
    expect(full.status).toBe(200);
    expect(full.headers.get("Content-Type")).toBe("image/png");
    expect(full.headers.get("Content-Disposition")).toMatch(/^inline; filename="cover\.png"/);
    expect(Buffer.from(await full.arrayBuffer())).toEqual(PNG);
    const etag = full.headers.get("ETag")!;
    expect(etag).toBe(`"file-${draft.cover.fileId}"`);
    const current = await coverOf(alice.token, { "If-None-Match": etag });
    expect(current.status).toBe(304);
    expect(await current.text()).toBe("");
    expect((await (await coverOf(bob.token, { "If-None-Match": etag })).json()).message).toBe("MSG_10002");
    expect((await (await coverOf(bob.token)).json()).message).toBe("MSG_10002");

    // A new upload is a new file: the old ETag no longer matches.
    const jpeg = await upload("cover", "new.jpg", JPEG, alice.token);
    expect(
      (
        await post(
          "saveBasic",
          { appState: "add", appId: data.appId, basic: { ...basic(), name: draft.basic.name }, cover: jpeg },
          alice.token,
        )
      ).code,
    ).toBe(0);
    const changed = await coverOf(alice.token, { "If-None-Match": etag });
    expect(changed.status).toBe(200);
    expect(changed.headers.get("ETag")).not.toBe(etag);
    expect(changed.headers.get("Content-Type")).toBe("image/jpeg");
    expect(changed.headers.get("Content-Disposition")).toMatch(/filename="new\.jpg"/);
  });
});
