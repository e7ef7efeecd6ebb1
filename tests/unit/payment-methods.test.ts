import { describe, expect, it } from "vitest";
import {
  defaultProviderMethods,
  isBankTransfer,
  offeredPayTypes,
  parseProviderMethods,
  PAY_TYPES,
  providerMethodOf,
  type PayType,
  type ProviderMethod,
} from "#contract/payments-codes.ts";
import { readBackendEnv } from "#backend/env.ts";

/** Issue 31 item 2, docs/decisions/072: what each payment type really does, and which are offered. */
describe("payment types and provider methods", () => {
  // [type, provider method or null for a bank transfer]
  const routes: [PayType, ProviderMethod | null][] = [
    ["GT0001", "wechat_pay"],
    ["GT0002", "card"],
    ["GT0003", null],
    ["GT0004", null],
    ["GT0005", "alipay"],
  ];
  it.each(routes)("%s goes to %s", (type, method) => {
    expect(providerMethodOf(type)).toBe(method);
    expect(isBankTransfer(type)).toBe(method === null);
  });

  it("keeps the catalogue GT0001-GT0004 and adds Alipay as GT0005", () => {
    expect(PAY_TYPES).toEqual(["GT0001", "GT0002", "GT0003", "GT0004", "GT0005"]);
  });

  // [configured methods, offered types]
  const offers: [ProviderMethod[], PayType[]][] = [
    [["card"], ["GT0002", "GT0003", "GT0004"]],
    [
      ["card", "wechat_pay", "alipay"],
      ["GT0001", "GT0002", "GT0003", "GT0004", "GT0005"],
    ],
    [["wechat_pay"], ["GT0001", "GT0003", "GT0004"]],
    [
      ["alipay", "card"],
      ["GT0002", "GT0003", "GT0004", "GT0005"],
    ],
    [[], ["GT0003", "GT0004"]],
  ];
  it.each(offers)("methods %j offer %j", (methods, types) => {
    expect(offeredPayTypes(methods)).toEqual(types);
  });

  // [STRIPE_PAYMENT_METHODS, methods or the error's start]
  const parsed: [string, ProviderMethod[] | string][] = [
    ["card", ["card"]],
    ["card,wechat_pay,alipay", ["card", "wechat_pay", "alipay"]],
    [" alipay , card ,", ["alipay", "card"]],
    ["card,card", ["card"]],
    ["", "name at least one"],
    [" , ", "name at least one"],
    ["card,paypal", 'unknown payment method "paypal"'],
    ["WeChat_Pay", 'unknown payment method "WeChat_Pay"'],
  ];
  it.each(parsed)("STRIPE_PAYMENT_METHODS=%j", (text, expected) => {
    const result = parseProviderMethods(text);
    if (typeof expected === "string") {
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.error.startsWith(expected)).toBe(true);
    } else expect(result).toEqual({ ok: true, methods: expected });
  });

  it("defaults: Stripe takes cards only, the sandbox simulates every method", () => {
    expect(defaultProviderMethods("stripe")).toEqual(["card"]);
    expect(defaultProviderMethods("sandbox")).toEqual(["card", "wechat_pay", "alipay"]);
  });

  it("the server reads STRIPE_PAYMENT_METHODS and refuses an unknown method at start", () => {
    const base = { NODE_ENV: "test", DATA_DIR: "/tmp/bsn-unit-pay-methods" };
    expect(readBackendEnv(base).paymentMethods).toEqual(["card", "wechat_pay", "alipay"]);
    expect(readBackendEnv({ ...base, STRIPE_PAYMENT_METHODS: "alipay" }).paymentMethods).toEqual(["alipay"]);
    expect(() => readBackendEnv({ ...base, STRIPE_PAYMENT_METHODS: "card,bitcoin" })).toThrow(/STRIPE_PAYMENT_METHODS/);
  });
});
