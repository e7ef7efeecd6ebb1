import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  addresseeSchema,
  deliverInvoiceFormSchema,
  invoiceApplicationSchema,
  invoiceTitleSchema,
  titleAllowsSpecialVat,
  TITLE_TYPE,
} from "./invoices.ts";

const issues = (r: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) =>
  Object.fromEntries((r.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));

describe("invoice rules (SPEC §3, §9)", () => {
  it("titles: enterprise and organisation need a tax number of 15-20 capital letters and digits", () => {
    expect(invoiceTitleSchema.safeParse({ titleType: "1", title: "Li Lei" }).success).toBe(true);
    expect(issues(invoiceTitleSchema.safeParse({ titleType: "2", title: "Co" }))).toEqual({
      taxNo: "invoices:validation.taxNoRequired",
    });
    expect(issues(invoiceTitleSchema.safeParse({ titleType: "3", title: "Org", taxNo: "91110108ma01abcd1x" }))).toEqual(
      { taxNo: "invoices:validation.taxNo" },
    );
    expect(invoiceTitleSchema.safeParse({ titleType: "3", title: "Org", taxNo: "91110108MA01ABCD1X" }).success).toBe(
      true,
    );
    expect(issues(invoiceTitleSchema.safeParse({ titleType: "4", title: "X" })).titleType).toBe(
      "invoices:validation.titleType",
    );
  });

  it("special VAT needs a complete enterprise or organisation title", () => {
    const full = {
      titleType: TITLE_TYPE.ENTERPRISE,
      taxNo: "91110108MA01ABCD1X",
      bank: "B",
      bankAccount: "123456",
      registeredAddress: "A",
      registeredPhone: "010-1234567",
    };
    expect(titleAllowsSpecialVat(full)).toBe(true);
    expect(titleAllowsSpecialVat({ ...full, titleType: TITLE_TYPE.INDIVIDUAL })).toBe(false);
    expect(titleAllowsSpecialVat({ ...full, bank: null })).toBe(false);
  });

  it("addresses need name, mobile, location and address", () => {
    expect(Object.keys(issues(addresseeSchema.safeParse({})))).toEqual(
      expect.arrayContaining(["name", "mobile", "location", "address"]),
    );
    expect(
      addresseeSchema.safeParse({ name: "A", mobile: "13800000000", location: "Beijing", address: "1 Road", email: "" })
        .success,
    ).toBe(true);
  });

  it("applications: paper needs an address, electronic an email, at least one bill", () => {
    const base = { idempotencyKey: "abcdefghijklmnopqrst", billIds: ["1"], titleId: "1", invoiceType: "1" };
    expect(issues(invoiceApplicationSchema.safeParse({ ...base, issuance: "1" }))).toEqual({
      addresseeId: "invoices:validation.addresseeRequired",
    });
    expect(issues(invoiceApplicationSchema.safeParse({ ...base, issuance: "2" }))).toEqual({
      email: "invoices:validation.emailRequired",
    });
    expect(
      issues(invoiceApplicationSchema.safeParse({ ...base, billIds: [], issuance: "2", email: "a@b.co" })),
    ).toEqual({ billIds: "invoices:validation.billsRequired" });
  });

  it("delivery: paper needs courier name and bill number, electronic the email", () => {
    expect(Object.keys(issues(deliverInvoiceFormSchema.safeParse({ invoiceId: "1", issuance: "1" })))).toEqual([
      "courierName",
      "courierNo",
    ]);
    expect(Object.keys(issues(deliverInvoiceFormSchema.safeParse({ invoiceId: "1", issuance: "2" })))).toEqual([
      "deliveryEmail",
    ]);
  });

  it("every invoices:validation key of the contract is translated in both languages", () => {
    const source =
      readFileSync(path.join(__dirname, "invoices.ts"), "utf8") +
      ["user-book.ts", "user-applications.ts", "operator.ts", "shared.ts"]
        .map((file) => readFileSync(path.join(__dirname, "../backend/domains/invoices/handlers", file), "utf8"))
        .join("\n");
    const used = new Set([...source.matchAll(/"invoices:(validation\.[A-Za-z]+)"/g)].map((m) => m[1]));
    expect(used.size).toBeGreaterThan(10);
    for (const lng of ["en", "zh-CN"]) {
      const file = JSON.parse(readFileSync(path.join(__dirname, `../locales/${lng}/invoices.json`), "utf8"));
      for (const key of used) expect(file.validation[key.split(".")[1]], `${lng} ${key}`).toBeTruthy();
    }
  });
});
