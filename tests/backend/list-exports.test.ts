import { randomBytes } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_EXPORT_LIMIT, LIST_EXPORT_LIMIT } from "#contract/list-exports.ts";
import { Msg } from "#contract/messages.ts";
import { ledgerEntries } from "#backend/domains/billing/tables.ts";
import { invoiceApplications } from "#backend/domains/invoices/tables.ts";
import { pubChainAccounts } from "#backend/domains/public-chain/tables.ts";
import { okVia } from "../support/envelope.ts";
import { idempotencyKeys } from "../support/ids.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf } from "./in-process.ts";

// issue 35 §3 (docs/decisions/093 "List exports"): each list export answers the rows its page lists with the same
// filter, only the caller's own, every one up to the export limit (then `truncated`). In-process on a PGlite of its
// own (the service is opened without a database URL), so it runs in the PGlite stage only (docs/decisions/105).
const service = inProcessVueapi("list-exports", { DEMO: "0", TEST_FIXTURES: "1" });
const idem = idempotencyKeys("lx");
const tokens: Record<string, string> = {};
const ids: Record<string, number> = {};

const call = (p: string, body: object, who: string) => callVueapi(service, p, body, tokens[who]);
const ok = okVia(call);

/** Rows inserted in chunks (one statement each), for the export limits. */
async function insertMany<T>(table: Parameters<typeof service.services.db.insert>[0], rows: T[]) {
  for (let i = 0; i < rows.length; i += 1_000)
    await service.services.db.insert(table).values(rows.slice(i, i + 1_000) as never);
}

beforeAll(async () => {
  for (const who of ["a", "b", "c"]) {
    ids[who] = await insertedUser(service, `lx${who}${randomBytes(3).toString("hex")}`);
    tokens[who] = await sessionOf(service, ids[who]);
  }
});

describe("the transaction inquiry's export", () => {
  it("answers the inquiry's rows with its filter, none of another account's, and caps at the export limit", async () => {
    await ok(
      "/test/fixtures",
      {
        grantCents: 10_000,
        bills: [
          { totalCents: 1_000, payState: 15 },
          { totalCents: 250, payState: 15 },
        ],
      },
      "a",
    );
    await ok("/test/fixtures", { grantCents: 7_000, bills: [{ totalCents: 300, payState: 15 }] }, "b");

    const condition = { kind: "bill_payment" };
    const exported = await ok("/sys/account/transactionsExport", { condition }, "a");
    const listed = await ok("/sys/account/transactions", { page: { pageSize: 100, condition } }, "a");
    expect(exported).toMatchObject({ total: 2, truncated: false });
    expect(exported.rows).toEqual(listed.page.rows);
    expect(exported.rows.map((r: { balanceDelta: number }) => r.balanceDelta)).toEqual([-250, -1_000]);

    const all = await ok("/sys/account/transactionsExport", {}, "a");
    expect(all.total).toBe(3);
    const theirs = await ok("/sys/account/transactionsExport", {}, "b");
    expect(theirs.total).toBe(2);
    const mine = new Set(all.rows.map((r: { entryId: number }) => r.entryId));
    for (const r of theirs.rows) expect(mine.has(r.entryId)).toBe(false);
    expect(all.rows.some((r: { balanceDelta: number }) => r.balanceDelta === 7_000)).toBe(false);

    const tomorrow = new Date(Date.now() + 32 * 3_600_000).toISOString().slice(0, 10);
    expect((await ok("/sys/account/transactionsExport", { condition: { dateFrom: tomorrow } }, "a")).total).toBe(0);
    expect((await call("/sys/account/transactionsExport", { condition: { kind: "nope" } }, "a")).message).toBe(
      Msg.INVALID_PARAMS,
    );

    const at = Date.parse("2026-01-01T00:00:00Z");
    await insertMany(
      ledgerEntries,
      Array.from({ length: LIST_EXPORT_LIMIT + 1 }, (_, i) => ({
        userId: ids.c,
        kind: "grant",
        balanceDelta: 1,
        withdrawableDelta: 0,
        invoiceableDelta: 0,
        balanceAfter: i + 1,
        withdrawableAfter: 0,
        invoiceableAfter: 0,
        refType: "grant",
        refId: ids.c,
        createdAt: new Date(at + i * 1_000),
      })),
    );
    const capped = await ok("/sys/account/transactionsExport", {}, "c");
    expect(capped).toMatchObject({ total: LIST_EXPORT_LIMIT + 1, truncated: true });
    expect(capped.rows).toHaveLength(LIST_EXPORT_LIMIT);
    // The newest first: the oldest entry is the one left out.
    expect(capped.rows[0].balanceAfter).toBe(LIST_EXPORT_LIMIT + 1);
    expect(capped.rows.at(-1).balanceAfter).toBe(2);
  });
});

describe("the invoice applications' export", () => {
  const application = (userId: number, status: number, title: string, amountCents: number, i = 0) => ({
    applicationNo: `LX${randomBytes(6).toString("hex")}${i}`,
    userId,
    title: { titleType: 1, title },
    invoiceType: 1,
    amountCents,
    status,
    issuance: 2,
    recipient: { email: "lx@example.com" },
  });

  it("answers the list's rows with its status filter, none of another account's, and caps at the export limit", async () => {
    await insertMany(invoiceApplications, [
      application(ids.a, 1, "Pending Ltd", 1_000),
      application(ids.a, 5, "=HYPERLINK(1)", 2_000),
      application(ids.a, 5, "Approved Ltd", 3_000),
      application(ids.b, 5, "Other account Ltd", 4_000),
    ]);
    const condition = { status: 5 };
    const exported = await ok("/sys/system/invoiceAccountTrade/h5invoiceExport", { condition }, "a");
    const listed = await ok(
      "/sys/system/invoiceAccountTrade/h5queryInvoiceAccountTradeList",
      { page: { pageSize: 100, pageIndex: 1, condition } },
      "a",
    );
    expect(exported).toMatchObject({ total: 2, truncated: false });
    expect(exported.rows).toEqual(listed.page.rows);
    expect(exported.rows.map((r: { title: string }) => r.title).sort()).toEqual(["=HYPERLINK(1)", "Approved Ltd"]);

    const all = await ok("/sys/system/invoiceAccountTrade/h5invoiceExport", {}, "a");
    expect(all.total).toBe(3);
    expect(all.rows.map((r: { title: string }) => r.title)).not.toContain("Other account Ltd");
    expect((await ok("/sys/system/invoiceAccountTrade/h5invoiceExport", {}, "b")).total).toBe(1);
    expect(
      (await call("/sys/system/invoiceAccountTrade/h5invoiceExport", { condition: { status: 2 } }, "a")).message,
    ).toBe(Msg.INVALID_PARAMS);

    await insertMany(
      invoiceApplications,
      Array.from({ length: LIST_EXPORT_LIMIT + 1 }, (_, i) => ({
        ...application(ids.c, 10, `Bulk ${i}`, 100),
        createdAt: new Date(Date.parse("2026-01-01T00:00:00Z") + i * 1_000),
      })),
    );
    const capped = await ok("/sys/system/invoiceAccountTrade/h5invoiceExport", {}, "c");
    expect(capped).toMatchObject({ total: LIST_EXPORT_LIMIT + 1, truncated: true });
    expect(capped.rows).toHaveLength(LIST_EXPORT_LIMIT);
    expect(capped.rows[0].title).toBe(`Bulk ${LIST_EXPORT_LIMIT}`);
  });
});

describe("a project's chain accounts export (gas per account)", () => {
  /** A deployed open-alliance project of `who` (plan bought from a granted balance); answers its id. */
  async function project(who: string) {
    await ok("/test/fixtures", { grantCents: 10_000 }, who);
    const orgs = await ok(
      "/sys/pubChainOrg/queryPubOrgList",
      { page: { pageSize: 10, pageIndex: 1, condition: { orgName: "Shanghai" } } },
      who,
    );
    const plan = await ok("/sys/opc/plan/buy", { orgId: orgs.page.rows[0].orgId, idempotencyKey: idem() }, who);
    const { projectId } = await ok(
      "/sys/opc/project/create",
      { planId: plan.planId, name: `${who} project`, framework: "evm", dailyRequests: "1000" },
      who,
    );
    for (let i = 0; i < 20 && (await ok("/sys/opc/project/detail", { projectId }, who)).status !== 11; i++)
      await service.runJobs();
    return projectId as number;
  }

  it("answers the list's accounts with their gas, refuses another account's project, and caps", async () => {
    const mine = await project("a");
    const theirs = await project("b");
    for (const name of ["@wallet", "savings"])
      await ok("/sys/opc/account/create", { projectId: mine, name, keyType: "1", gasWarning: "0.05" }, "a");
    await ok(
      "/sys/opc/account/create",
      { projectId: theirs, name: "their wallet", keyType: "1", gasWarning: "1" },
      "b",
    );

    const exported = await ok("/sys/opc/account/export", { projectId: mine }, "a");
    const listed = await ok("/sys/opc/account/list", { projectId: mine, pageIndex: 1, pageSize: 50 }, "a");
    expect(exported).toMatchObject({ total: 2, truncated: false });
    expect(exported.rows).toEqual(listed.page.rows);
    expect(exported.rows.map((r: { name: string }) => r.name)).toEqual(["savings", "@wallet"]);
    for (const r of exported.rows) expect(r.gasWei).toMatch(/^[0-9]+$/);

    // Another account's project is not found, like an unknown one; its accounts never appear.
    expect((await call("/sys/opc/account/export", { projectId: theirs }, "a")).message).toBe(Msg.NOT_FOUND);
    expect((await call("/sys/opc/account/export", { projectId: 2_147_480_000 }, "a")).message).toBe(Msg.NOT_FOUND);
    expect((await call("/sys/opc/project/stats", { projectId: theirs, range: "7d" }, "a")).message).toBe(Msg.NOT_FOUND);
    expect((await ok("/sys/opc/account/export", { projectId: theirs }, "b")).total).toBe(1);

    await insertMany(
      pubChainAccounts,
      Array.from({ length: ACCOUNT_EXPORT_LIMIT - 1 }, (_, i) => ({
        userId: ids.a,
        projectId: mine,
        name: `bulk ${i}`,
        address: `0x${(i + 1).toString(16).padStart(40, "0")}`,
        keyType: 3,
        gasWarningWei: "0",
        createdAt: new Date(),
      })),
    );
    const capped = await ok("/sys/opc/account/export", { projectId: mine }, "a");
    expect(capped).toMatchObject({ total: ACCOUNT_EXPORT_LIMIT + 1, truncated: true });
    expect(capped.rows).toHaveLength(ACCOUNT_EXPORT_LIMIT);
    expect(capped.rows[0].name).toBe(`bulk ${ACCOUNT_EXPORT_LIMIT - 2}`);
    expect(capped.rows.map((r: { name: string }) => r.name)).not.toContain("@wallet");
  }, 120_000);
});
