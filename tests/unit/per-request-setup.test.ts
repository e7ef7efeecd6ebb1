import { describe, expect, it } from "vitest";
import { formatMinorUnits, formatNumber, formatUsd, numberFormat } from "#app/lib/format.ts";
import { createInstance } from "i18next";
import { fixedT, i18nFor, rememberPlainTexts } from "#app/lib/i18n.server.ts";

// Issue 11: what a page needs for its language is made once, not on every request or every call.
describe("number formats", () => {
  it("are built once per locale and kind, and format as Intl does", () => {
    expect(numberFormat("en", { style: "currency", currency: "USD" })).toBe(
      numberFormat("en", { style: "currency", currency: "USD" }),
    );
    expect(numberFormat("en", { style: "currency", currency: "USD" })).not.toBe(
      numberFormat("zh-CN", { style: "currency", currency: "USD" }),
    );
    expect(numberFormat("en")).not.toBe(numberFormat("en", { style: "currency", currency: "USD" }));
    expect(formatUsd(123456, "en")).toBe(
      new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" }).format(1234.56),
    );
    expect(formatUsd(123456, "zh-CN")).toBe(
      new Intl.NumberFormat("zh-CN", { style: "currency", currency: "USD" }).format(1234.56),
    );
    expect(formatNumber(3000, "en")).toBe("3,000");
    expect(formatMinorUnits(1234, "JPY", "en")).toBe(
      new Intl.NumberFormat("en-US", { style: "currency", currency: "JPY" }).format(1234),
    );
    expect(formatMinorUnits(5, "NOPE", "en")).toBe("5 NOPE");
  });
});

describe("i18next on the server", () => {
  it("has one ready instance per language, reused by every request", () => {
    const en = i18nFor("en");
    expect(i18nFor("en")).toBe(en);
    expect(en.isInitialized).toBe(true);
    expect(en.language).toBe("en");
    const zh = i18nFor("zh-CN");
    expect(zh).not.toBe(en);
    expect(zh.language).toBe("zh-CN");
    // Every namespace is there without loading: a route's namespace needs no per-request init.
    expect(en.t("billing:csv.billNo")).not.toBe("csv.billNo");
    expect(zh.t("billing:csv.billNo")).not.toBe(en.t("billing:csv.billNo"));
    expect(fixedT("zh-CN", "billing")("csv.billNo")).toBe(zh.t("billing:csv.billNo"));
    // Using an instance leaves its language as it was.
    fixedT("en", "billing")("csv.billNo");
    expect(zh.language).toBe("zh-CN");
  });
});

describe("plain texts remembered (issue 34)", () => {
  const made = () => {
    const instance = createInstance();
    void instance.init({
      lng: "en",
      initImmediate: false,
      resources: {
        en: {
          common: { hello: "Hello", items_one: "{{count}} item", items_other: "{{count}} items", who: "Hi {{name}}" },
          other: { hello: "Hello from other" },
        },
      },
      defaultNS: "common",
      ns: ["common", "other"],
    });
    return instance;
  };

  it("answers as i18next does, for plain calls and calls with values alike", () => {
    const plain = made();
    const remembered = rememberPlainTexts(made(), "en");
    const calls: [string, object?][] = [
      ["hello"],
      ["other:hello"],
      ["hello", { ns: "other" }],
      ["items", { count: 1 }],
      ["items", { count: 2 }],
      ["who", { name: "Ann" }],
      ["who", { name: "Bo" }],
      ["missing.key"],
      ["hello", { defaultValue: "x" }],
      ["missing.key", { defaultValue: "Fallback" }],
      ["missing.key", { defaultValue: "Other fallback" }],
    ];
    for (let round = 0; round < 2; round++)
      for (const [key, options] of calls)
        expect(remembered.t(key, options as never)).toBe(plain.t(key, options as never));
    const t = remembered.getFixedT(null, "other");
    expect(t("hello")).toBe("Hello from other");
    expect(remembered.getFixedT(null, "common")("hello")).toBe("Hello");
  });

  it("asks i18next once per plain text, and every time for a call with values", () => {
    const instance = made();
    let asked = 0;
    const { translator } = instance as unknown as { translator: { translate: (...args: unknown[]) => unknown } };
    const original = translator.translate.bind(translator);
    translator.translate = (...args: unknown[]) => ((asked += 1), original(...args));
    const remembered = rememberPlainTexts(instance, "en");
    const t = remembered.getFixedT(null, "common");
    t("hello");
    t("hello");
    remembered.t("hello");
    expect(asked).toBe(2); // one through the fixed t (namespace given), one without
    t("who", { name: "Ann" });
    t("who", { name: "Bo" });
    expect(asked).toBe(4);
    t("hello", { lng: "zh-CN" });
    expect(asked).toBe(5);
  });
});
