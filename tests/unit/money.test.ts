import { describe, expect, it } from "vitest";
import { moneyAmount, toCents } from "#contract/rules.ts";
import { deltasFor } from "#backend/domains/billing/ledger.ts";

describe("SPEC §5 Money: form amounts", () => {
  it.each([
    ["1", 100],
    ["0.01", 1],
    ["12.5", 1250],
    ["12.50", 1250],
    ["1000000", 100_000_000],
    [" 7.05 ", 705],
  ])("%s is %i cents", (input, cents) => {
    expect(moneyAmount().safeParse(input).success).toBe(true);
    expect(toCents(input)).toBe(cents);
  });

  it.each([
    [undefined, "validation.amount.required"],
    ["", "validation.amount.required"],
    ["0", "validation.amount.positive"],
    ["0.00", "validation.amount.positive"],
    ["-5", "validation.amount.format"],
    ["abc", "validation.amount.format"],
    ["1.234", "validation.amount.format"],
    ["1e3", "validation.amount.format"],
    ["01", "validation.amount.format"],
    ["1000000.01", "validation.amount.max"],
  ])("%s is refused with %s", (input, key) => {
    const result = moneyAmount().safeParse(input);
    expect(result.success).toBe(false);
    expect(result.error!.issues[0].message).toBe(key);
  });
});

describe("ledger deltas", () => {
  const t = (balanceCents: number, withdrawableCents: number, invoiceableCents: number) => ({
    balanceCents,
    withdrawableCents,
    invoiceableCents,
  });

  it("spends non-withdrawable money first and makes what is spent invoiceable", () => {
    expect(deltasFor("bill_payment", 200, t(1000, 800, 0))).toEqual({
      balanceDelta: -200,
      withdrawableDelta: 0,
      invoiceableDelta: 200,
    });
    expect(deltasFor("bill_payment", 500, t(1000, 800, 0))).toEqual({
      balanceDelta: -500,
      withdrawableDelta: -300,
      invoiceableDelta: 500,
    });
  });

  it("refuses what the totals cannot cover", () => {
    expect(() => deltasFor("bill_payment", 1001, t(1000, 1000, 0))).toThrow("MSG_30001");
    expect(() => deltasFor("withdrawal_hold", 801, t(1000, 800, 0))).toThrow("MSG_30008");
    expect(() => deltasFor("invoice_hold", 1, t(1000, 800, 0))).toThrow("MSG_30009");
    expect(() => deltasFor("recharge", 0, t(0, 0, 0))).toThrow("MSG_30007");
    expect(() => deltasFor("recharge", 1.5, t(0, 0, 0))).toThrow("MSG_30007");
  });

  it("returns refunded money as withdrawable and takes it off the invoiceable amount", () => {
    expect(deltasFor("refund", 400, t(0, 0, 300))).toEqual({
      balanceDelta: 400,
      withdrawableDelta: 400,
      invoiceableDelta: -300,
    });
  });
});
