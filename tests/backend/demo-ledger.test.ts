import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "#backend/db/tables.ts";
import { ledgerEntries, wallets } from "#backend/domains/billing/tables.ts";
import { appJoins } from "#backend/domains/participation/tables.ts";
import { appVersions, apps, chaincodePackages } from "#backend/domains/services/tables.ts";
import { VerState } from "#contract/service-status.ts";
import { strFromU8, unzipSync } from "fflate";
import { evaluate } from "./fabric-support.ts";
import { callVueapi, downloadedBytes, inProcessVueapi, loginToken } from "./in-process.ts";

// Issue 16 "Demo data you can trust": every demo ledger entry is posted through the ledger in time order,
// whichever domain seeds it (backend/kit/demo-timeline.ts), so "balance after" chains on My account.
const service = inProcessVueapi("demo-ledger", { DEMO: "1", TEST_CAPTCHA: "DEMO1" });

describe("the demo ledger chains", () => {
  for (const userName of ["demoperson", "democompany"]) {
    it(`${userName}: each entry's totals after are the previous entry's plus its deltas, in time order`, async () => {
      const db = service.services.db;
      const [user] = await db.select().from(users).where(eq(users.userName, userName));
      const entries = await db
        .select()
        .from(ledgerEntries)
        .where(eq(ledgerEntries.userId, user.id))
        .orderBy(asc(ledgerEntries.createdAt), asc(ledgerEntries.id));
      // Money of several domains: billing's recharges, bills and withdrawal, the services' grants and publish bills.
      expect(new Set(entries.map((e) => e.kind)).size).toBeGreaterThanOrEqual(userName === "democompany" ? 5 : 3);
      let totals = { balance: 0, withdrawable: 0, invoiceable: 0 };
      for (const e of entries) {
        totals = {
          balance: totals.balance + e.balanceDelta,
          withdrawable: totals.withdrawable + e.withdrawableDelta,
          invoiceable: totals.invoiceable + e.invoiceableDelta,
        };
        expect({
          at: e.createdAt,
          balance: e.balanceAfter,
          withdrawable: e.withdrawableAfter,
          invoiceable: e.invoiceableAfter,
        }).toEqual({ at: e.createdAt, ...totals });
      }
      const [wallet] = await db.select().from(wallets).where(eq(wallets.userId, user.id));
      expect({
        balance: wallet.balanceCents,
        withdrawable: wallet.withdrawableCents,
        invoiceable: wallet.invoiceableCents,
      }).toEqual(totals);
    });
  }

  it("My account's transaction list (newest first) chains page after page", async () => {
    const token = await loginToken(service, "democompany");
    const rows: { balanceAfter: number; balanceDelta: number }[] = [];
    for (let pageIndex = 1; ; pageIndex++) {
      const reply = await callVueapi(
        service,
        "/sys/account/transactions",
        { page: { pageSize: 10, pageIndex, condition: {} } },
        token,
      );
      expect(reply.code, JSON.stringify(reply)).toBe(0);
      rows.push(...reply.data.page.rows);
      if (rows.length >= reply.data.page.total) break;
    }
    expect(rows.length).toBeGreaterThan(10);
    for (let i = 0; i + 1 < rows.length; i++)
      expect(rows[i].balanceAfter - rows[i].balanceDelta).toBe(rows[i + 1].balanceAfter);
  });
});

// Issue 28 "Existing data": the demo's running service is the market's supply_trace on Fabric, really installed on
// the embedded peer, with demoperson as its confirmed participant, whose access kit names it.
describe("the demo's running service", () => {
  it("is supply_trace on Fabric, running on the peer, with a participant whose kit names the chaincode", async () => {
    const db = service.services.db;
    const [app] = await db.select().from(apps).where(eq(apps.name, "Cold-chain traceability"));
    expect(app.framework).toBe("fabric");
    const [version] = await db.select().from(appVersions).where(eq(appVersions.id, app.currentVerId!));
    expect(version.verState).toBe(VerState.RUNNING);
    const pkgs = await db.select().from(chaincodePackages).where(eq(chaincodePackages.verId, version.id));
    expect(pkgs.map((p) => [p.name, p.language])).toEqual([["supply_trace", "node"]]);
    const channel = app.appCode.toLowerCase();
    const missing = await evaluate(service, channel, channel, ["traceProduct", "no-such-product"]);
    expect(missing.message).toContain("product no-such-product not found");

    const [person] = await db.select().from(users).where(eq(users.userName, "demoperson"));
    const [join] = await db.select().from(appJoins).where(eq(appJoins.userId, person.id));
    const token = await loginToken(service, "demoperson");
    const zip = unzipSync(
      new Uint8Array(await downloadedBytes(service, "participant-access-kit", { appJoinAuditId: join.id }, token)),
    );
    const kit = JSON.parse(strFromU8(Object.entries(zip).find(([n]) => n.endsWith("/kit.json"))![1]));
    expect(kit).toMatchObject({ kind: "fabric", channel, chaincode: channel });
    expect(kit.functions.map((f: { name: string }) => f.name)).toEqual(["registerProduct", "addStep", "traceProduct"]);
  });
});
