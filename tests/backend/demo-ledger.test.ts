import { asc, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { users } from "#backend/db/tables.ts";
import { ledgerEntries, wallets } from "#backend/domains/billing/tables.ts";
import { callVueapi, inProcessVueapi, loginToken } from "./in-process.ts";

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
