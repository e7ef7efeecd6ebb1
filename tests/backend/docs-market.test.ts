import { strFromU8, strToU8, unzipSync, zipSync } from "fflate";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { paths } from "#contract/paths.ts";
import { auditLog, cityNodes } from "#backend/db/tables.ts";
import { docPages } from "#backend/domains/docs/tables.ts";
import { MANUAL_TREE, writeManual } from "#backend/domains/docs/manual.ts";
import { findingsOf, zipOf } from "#backend/domains/market/handlers.ts";
import { SHIPPED_PACKAGES } from "#backend/domains/market/samples.ts";
import { marketPackages } from "#backend/domains/market/tables.ts";
import { tinyPng } from "../fixtures/files.ts";
import {
  callVueapi,
  downloadedBytes,
  insertedUser,
  openVueapi,
  ownDatabase,
  refusedDownload,
  sessionOf,
  uploadVueapi,
  type Vueapi,
} from "./in-process.ts";
import { uniqueName } from "./client.ts";
import { wizardBasic } from "./wizard-basic.ts";
import { okVia } from "../support/envelope.ts";

// Issue 15 (docs/decisions/042): the manual written at start, its search in both languages, operators' pages;
// the chaincode market's packages, downloads, operators' entries and "Use in a new service" through the test job.

let service: Vueapi;
let user: string;
let operator: string;
let operatorId: number;

const ok = okVia((p: string, body: object, as?: string) => callVueapi(service, p, body, as));
const auditOf = async (action: string) =>
  service.services.db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.action, action), eq(auditLog.actorId, operatorId)));

beforeAll(async () => {
  // A database of its own on PostgreSQL: the security fuzzer, acting as an operator, may unpublish or move shipped pages.
  service = await openVueapi("docs-market", {
    DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
    PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
    DEMO: "0",
    TEST_FIXTURES: "1",
    JOBS_INTERVAL_MS: "0",
  });
  user = await sessionOf(service, await insertedUser(service, uniqueName("docu")));
  operatorId = await insertedUser(service, uniqueName("dops"), "operator");
  operator = await sessionOf(service, operatorId);
}, 120_000);
afterAll(async () => {
  await service?.close();
});

describe("the manual (issue 15)", () => {
  it("is written at start: every shipped page, in both languages, in a table of contents", async () => {
    const toc = await ok<any[]>("/anon/docs/toc", {});
    for (const node of MANUAL_TREE) {
      const entry = toc.find((e) => e.slug === node.key);
      expect(entry, node.key).toBeTruthy();
      expect(entry.titleEn).not.toBe("");
      expect(entry.titleZh).toMatch(/\p{Script=Han}/u);
      if (node.parent) expect(entry.parentId).toBe(toc.find((e) => e.slug === node.parent).docId);
    }
    // Tree order: a parent comes before its children.
    const index = (slug: string) => toc.findIndex((e) => e.slug === slug);
    expect(index("consortium")).toBeLessThan(index("publish-service"));
    expect(index("publish-service")).toBeLessThan(index("test-services"));
    const page = await ok("/anon/docs/page", { slug: "publish-service" });
    expect(page.bodyEn).toContain("60 MB");
    expect(page.bodyZh).toContain("60 MB");
  });

  it("search finds Chinese pages with a Chinese query and English pages with an English query", async () => {
    const zh = await ok("/anon/docs/search", { q: "发票" });
    expect(zh.rows.length).toBeGreaterThan(0);
    expect(zh.rows.every((r: any) => r.lang === "zh-CN")).toBe(true);
    expect(zh.rows.map((r: any) => r.slug)).toContain("bills-invoices");
    const en = await ok("/anon/docs/search", { q: "invoice title" });
    expect(en.rows.every((r: any) => r.lang === "en")).toBe(true);
    expect(en.rows.map((r: any) => r.slug)).toContain("bills-invoices");
    // A query with a word no page has finds nothing.
    expect((await ok("/anon/docs/search", { q: "invoice zzqxv" })).rows).toEqual([]);
    expect((await callVueapi(service, "/anon/docs/search", { q: "" })).code).not.toBe(0);
  });

  it("an operator's edit survives the next start; an unedited page takes the product's text; a deleted page stays deleted", async () => {
    const toc = await ok<any[]>("/anon/docs/toc", {});
    const gateway = toc.find((e) => e.slug === "ipfs-gateway");
    const current = await ok("/sys/ops/docs/detail", { docId: gateway.docId }, operator);
    await ok(
      "/sys/ops/docs/save",
      {
        docId: gateway.docId,
        form: {
          slug: "ipfs-gateway",
          parentId: String(current.parentId),
          titleEn: "Gateway (ours)",
          titleZh: current.titleZh,
          bodyEn: "Our own gateway text.",
          bodyZh: current.bodyZh,
          published: "on",
        },
      },
      operator,
    );
    const register = toc.find((e) => e.slug === "account-register");
    await service.services.db.update(docPages).set({ bodyEn: "stale text" }).where(eq(docPages.id, register.docId));
    const community = toc.find((e) => e.slug === "developer-community");
    await ok("/sys/ops/docs/delete", { docId: community.docId }, operator);

    await writeManual(service.services);
    expect((await ok("/anon/docs/page", { slug: "ipfs-gateway" })).bodyEn).toBe("Our own gateway text.");
    expect((await ok("/anon/docs/page", { slug: "account-register" })).bodyEn).toContain(
      "Two-step login for operators",
    );
    expect((await callVueapi(service, "/anon/docs/page", { slug: "developer-community" })).message).toBe(Msg.NOT_FOUND);
    // The edit is searchable at once; the old text is not.
    expect((await ok("/anon/docs/search", { q: "our own gateway", lang: "en" })).rows.map((r: any) => r.slug)).toEqual([
      "ipfs-gateway",
    ]);
  });

  it("operators create, reorder, unpublish and delete pages; bad input is a field error; every change is audited", async () => {
    const slug = `faq-${Date.now()}`;
    const bad = await callVueapi(service, "/sys/ops/docs/save", { form: { slug: "Bad Slug", titleEn: "x" } }, operator);
    expect(bad.data.fieldErrors["form.slug"]).toBeTruthy();
    expect(bad.data.fieldErrors["form.bodyEn"]).toEqual(["docs:validation.bodyWithTitle"]);
    const taken = await callVueapi(
      service,
      "/sys/ops/docs/save",
      { form: { slug: "payments", titleEn: "x", bodyEn: "y" } },
      operator,
    );
    expect(taken.message).toBe(Msg.DOC_SLUG_TAKEN);
    // English only: the Chinese reader gets the English text (the portal shows that it fell back).
    const { docId } = await ok(
      "/sys/ops/docs/save",
      {
        form: { slug, titleEn: "Frequently asked zebra questions", bodyEn: "Zebras are **striped**.", published: "on" },
      },
      operator,
    );
    expect((await ok("/anon/docs/search", { q: "zebra" })).rows.map((r: any) => r.slug)).toEqual([slug]);
    const tops = () =>
      ok<any[]>("/anon/docs/toc", {}).then((t) => t.filter((e) => e.parentId === null).map((e) => e.slug));
    expect((await tops()).at(-1)).toBe(slug);
    await ok("/sys/ops/docs/move", { docId, direction: "up" }, operator);
    expect((await tops()).at(-2)).toBe(slug);
    // Its own sub-page is not a parent it may take.
    const child = await ok(
      "/sys/ops/docs/save",
      { form: { slug: `${slug}-more`, parentId: String(docId), titleZh: "更多", bodyZh: "内容" } },
      operator,
    );
    const loop = await callVueapi(
      service,
      "/sys/ops/docs/save",
      { docId, form: { slug, parentId: String(child.docId), titleEn: "x", bodyEn: "y" } },
      operator,
    );
    expect(loop.message).toBe(Msg.DOC_PARENT_INVALID);
    expect((await callVueapi(service, "/sys/ops/docs/delete", { docId }, operator)).message).toBe(Msg.DOC_HAS_CHILDREN);
    await ok("/sys/ops/docs/publish", { docId, published: false }, operator);
    expect((await callVueapi(service, "/anon/docs/page", { slug })).message).toBe(Msg.NOT_FOUND);
    expect((await ok("/anon/docs/search", { q: "zebra" })).rows).toEqual([]);
    await ok("/sys/ops/docs/delete", { docId: child.docId }, operator);
    await ok("/sys/ops/docs/delete", { docId }, operator);
    const entries = await auditOf("doc.change");
    expect(
      entries
        .filter((e) => e.targetId === String(docId))
        .map((e) => e.decision)
        .sort(),
    ).toEqual(["delete", "move", "publish"].sort());
    // Users and visitors are refused every operator path.
    for (const p of ["/sys/ops/docs/save", "/sys/ops/docs/delete", "/sys/ops/docs/list"]) {
      expect(
        (await callVueapi(service, p, { docId, form: { slug: "x", titleEn: "x", bodyEn: "y" } }, user)).code,
        p,
      ).toBe(4);
      expect((await callVueapi(service, p, { docId })).code, p).not.toBe(0);
    }
  });
});

describe("the API reference source", () => {
  it("every path of the contract has a payload and a data schema zod can describe", async () => {
    const { apiReference } = await import("#app/lib/api-reference.server.ts");
    const listed = apiReference().flatMap((g) => g.paths.map((p) => p.path));
    expect(listed.sort()).toEqual(Object.keys(paths).sort());
  });
});

describe("the chaincode market (issue 15)", () => {
  it("every shipped package passes the service test job's inspection (Solidity compiled)", async () => {
    for (const pkg of SHIPPED_PACKAGES) {
      const findings = await findingsOf(zipOf(pkg), {
        name: pkg.name,
        language: pkg.language,
        mainPath: pkg.mainPath,
        funcs: pkg.functions.map((f) => f.func),
      });
      expect(findings, pkg.key).toEqual([]);
    }
  }, 60_000);

  it("lists the packages with language and description; a download is a valid zip and is counted", async () => {
    const { page } = await ok("/sys/market/list", { pageSize: 50 }, user);
    expect(page.rows.length).toBeGreaterThanOrEqual(4);
    const solidity = await ok("/sys/market/list", { language: "solidity" }, user);
    expect(solidity.page.rows.map((r: any) => r.name).sort()).toEqual(["notary_proof", "service_token"]);
    const token = page.rows.find((r: any) => r.name === "service_token");
    expect(token.descriptionZh).toMatch(/\p{Script=Han}/u);
    const before = token.downloads;
    const dl = await downloadedBytes(service, "market-package", { marketPackageId: token.marketPackageId }, user);
    const files = unzipSync(new Uint8Array(dl));
    expect(strFromU8(files["contracts/ServiceToken.sol"])).toContain("contract ServiceToken");
    const detail = await ok("/sys/market/detail", { marketPackageId: token.marketPackageId }, user);
    expect(detail.downloads).toBe(before + 1);
    expect(detail.files.find((f: any) => f.path === "contracts/ServiceToken.sol").text).toContain("function transfer");
    expect((await callVueapi(service, "/sys/market/detail", { marketPackageId: 999999 }, user)).message).toBe(
      Msg.NOT_FOUND,
    );
  });

  it("operators add entries whose zip passes the test job, update and withdraw them; users are refused; audited", async () => {
    const name = `cc_${Date.now().toString(36).slice(-8)}`;
    const good = zipSync({
      "kv/main.go": strToU8("package main\n\nfunc putValue() {}\nfunc getValue() {}\nfunc main() {}\n"),
    });
    const form = {
      name,
      language: "go",
      version: "1.0.0",
      descriptionEn: "Key-value store",
      descriptionZh: "键值存储",
      mainPath: "kv/main.go",
      functions: 'putValue | Put a value\ngetValue | Get a value | ["key"] | string',
    };
    expect((await callVueapi(service, "/sys/ops/market/save", { form }, operator)).message).toBe(
      Msg.MARKET_FILE_REQUIRED,
    );
    const upload = async (bytes: Uint8Array, as = operator) =>
      (await uploadVueapi(service, "chaincode", `${name}.zip`, bytes, as)).data;
    // A FUNC the sources lack: the test job would fail it, so the market refuses it.
    const missing = await callVueapi(
      service,
      "/sys/ops/market/save",
      { form: { ...form, functions: "putValue | Put\nremoveValue | Remove" }, file: await upload(good) },
      operator,
    );
    expect(missing.message).toBe(Msg.MARKET_PACKAGE_INVALID);
    expect(missing.data.findings[0].key).toBe("report.funcMissing");
    const badFunctions = await callVueapi(
      service,
      "/sys/ops/market/save",
      { form: { ...form, functions: "not a func" }, file: await upload(good) },
      operator,
    );
    expect(badFunctions.data.fieldErrors["form.functions"]).toEqual(["market:validation.functionLine"]);
    const users = await callVueapi(service, "/sys/ops/market/save", { form, file: await upload(good, user) }, user);
    expect(users.code).toBe(4);
    const { marketPackageId } = await ok("/sys/ops/market/save", { form, file: await upload(good) }, operator);
    expect((await ok("/sys/market/detail", { marketPackageId }, user)).functions.map((f: any) => f.func)).toEqual([
      "putValue",
      "getValue",
    ]);
    await ok("/sys/ops/market/save", { marketPackageId, form: { ...form, version: "1.1.0" } }, operator);
    await ok("/sys/ops/market/withdraw", { marketPackageId, withdrawn: true }, operator);
    expect((await refusedDownload(service, "market-package", { marketPackageId }, user)).message).toBe(
      Msg.MARKET_WITHDRAWN,
    );
    expect(
      (await callVueapi(service, "/sys/ops/market/withdraw", { marketPackageId, withdrawn: false }, user)).code,
    ).toBe(4);
    const entries = (await auditOf("market.change")).filter((e) => e.targetId === String(marketPackageId));
    expect(entries.map((e) => e.decision).sort()).toEqual(["save", "withdraw"]);
    // An entry the operator changed is theirs at the next start.
    const [row] = await service.services.db.select().from(marketPackages).where(eq(marketPackages.id, marketPackageId));
    expect(row.operatorEdited).toBe(true);
  });

  it('"Use in a new service" creates a draft with the package and its functions, and the package passes the test job', async () => {
    const publisherId = await insertedUser(service, uniqueName("mpub"));
    const publisher = await sessionOf(service, publisherId);
    const { page } = await ok("/sys/market/list", { language: "solidity" }, publisher);
    const notary = page.rows.find((r: any) => r.name === "notary_proof");
    const cover = async () => (await uploadVueapi(service, "cover", "c.png", tinyPng(), publisher)).data;
    // Solidity needs an EVM framework: the basic step says so at the framework field.
    const fabric = await callVueapi(
      service,
      "/sys/chainAppInfo/wizard/saveBasic",
      {
        appState: "add",
        basic: wizardBasic(uniqueName("Notary")),
        cover: await cover(),
        marketPackageId: notary.marketPackageId,
      },
      publisher,
    );
    expect(fabric.data.fieldErrors["basic.framework"]).toEqual([Msg.SOLIDITY_NEEDS_EVM]);
    const { appId } = await ok(
      "/sys/chainAppInfo/wizard/saveBasic",
      {
        appState: "add",
        basic: { ...wizardBasic(uniqueName("Notary")), framework: "fisco" },
        cover: await cover(),
        marketPackageId: notary.marketPackageId,
      },
      publisher,
    );
    const ref = { appState: "add", appId };
    const { draft } = await ok("/sys/chainAppInfo/wizard/draft", ref, publisher);
    expect(draft.packages.map((p: any) => p.name)).toEqual(["notary_proof"]);
    expect(draft.functions.map((f: any) => f.func)).toEqual(["notarise", "verify", "revoke"]);
    await ok("/sys/chainAppInfo/wizard/advance", { ...ref, from: "packages" }, publisher);
    await ok("/sys/chainAppInfo/wizard/advance", { ...ref, from: "functions" }, publisher);
    await ok(
      "/sys/chainAppInfo/wizard/addRole",
      {
        ...ref,
        role: {
          name: "Notary",
          description: "Notarises documents",
          functionIds: draft.functions.map((f: any) => String(f.functionId ?? f.id)),
        },
      },
      publisher,
    );
    await ok("/sys/chainAppInfo/wizard/advance", { ...ref, from: "roles" }, publisher);
    const [node] = await service.services.db.select().from(cityNodes).limit(1);
    await ok(
      "/sys/chainAppInfo/wizard/saveNodes",
      {
        ...ref,
        form: { nodes: [{ cityNodeId: String(node.id), selected: "on", tps: "100", capacityGb: "10", peers: "1" }] },
      },
      publisher,
    );
    await ok("/sys/chainAppInfo/wizard/saveCertificate", { ...ref, form: { certificateMode: "2" } }, publisher);
    const submitted = await ok("/sys/chainAppInfo/wizard/submit", { ...ref, form: { agreement: "on" } }, publisher);
    await ok("/sys/ops/serviceReviews/decide", { appVerId: submitted.verId, decision: "approve" }, operator);
    await service.runJobs();
    const detail = await ok("/sys/chainAppInfo/publishedDetail", { appId }, publisher);
    expect(detail.contents.testReport, JSON.stringify(detail.contents.testReport)).toMatchObject({
      passed: true,
      reasons: [],
    });
    expect(detail.verState).toBe(15);
  }, 60_000);
});
