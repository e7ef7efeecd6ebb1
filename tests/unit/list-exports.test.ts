import { describe, expect, it } from "vitest";
import {
  chainAccountsCsvHref,
  invoicesCsvHref,
  ipfsTrafficCsvHref,
  rpcUsageCsvHref,
  transactionsCsvHref,
  withQuery,
} from "#app/lib/list-exports.ts";

describe("list export links carry the page's filters (app/lib/list-exports.ts)", () => {
  it("keeps the filters that are set, encoded, and leaves out the others", () => {
    expect(withQuery("/x.csv", {})).toBe("/x.csv");
    expect(withQuery("/x.csv", { a: undefined, b: null, c: "" })).toBe("/x.csv");
    expect(withQuery("/x.csv", { kind: "recharge", dateFrom: "2026-11-01", n: 3 })).toBe(
      "/x.csv?kind=recharge&dateFrom=2026-11-01&n=3",
    );
    expect(withQuery("/x.csv", { q: "a&b=c" })).toBe("/x.csv?q=a%26b%3Dc");
  });

  it("points each list at its export route", () => {
    expect(transactionsCsvHref({ kind: "bill_pay", dateTo: "2026-12-01" })).toBe(
      "/g/home/userCenter/MyAccount/transactions.csv?kind=bill_pay&dateTo=2026-12-01",
    );
    expect(invoicesCsvHref(null)).toBe("/g/home/userCenter/Invoices/export.csv");
    expect(invoicesCsvHref(5)).toBe("/g/home/userCenter/Invoices/export.csv?status=5");
    expect(ipfsTrafficCsvHref(7)).toBe("/g/home/IPFS/Traffic/export.csv?ipfsServiceId=7");
    expect(rpcUsageCsvHref(4, "1m")).toBe("/g/home/PermissionlessServices/Project/export.csv?projectId=4&range=1m");
    expect(chainAccountsCsvHref(4)).toBe("/g/home/PermissionlessServices/Accounts/export.csv?projectId=4");
  });
});
