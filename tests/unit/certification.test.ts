import { describe, expect, it } from "vitest";
import {
  certificationMachine,
  creditCodeProblem,
  isChina,
  isValidUscc,
  usccCheckChar,
} from "#contract/certification.ts";
import { registerFieldsSchema } from "#contract/accounts.ts";
import { commentsRequiredFor } from "#contract/state-machine.ts";

/**
 * Enterprise certification (docs/decisions/071): the machine against transitions written out by hand, and the
 * GB 32100-2015 check digit of the unified social credit code against codes computed by hand.
 * MSG_49002 not available in this state, MSG_30014 comments required, MSG_10403 no permission.
 */
type Row = [from: number, event: string, actor: string, comments: string | null, expected: number | string];

describe("enterprise certification machine", () => {
  const rows: Row[] = [
    [0, "submit", "user", null, 1],
    [5, "submit", "user", null, 1],
    [1, "submit", "user", null, "MSG_49002"],
    [10, "submit", "user", null, "MSG_49002"],
    [1, "approve", "operator", null, 10],
    [1, "reject", "operator", "licence unreadable", 5],
    [1, "reject", "operator", null, "MSG_30014"],
    [1, "reject", "operator", "  ", "MSG_30014"],
    [0, "approve", "operator", null, "MSG_49002"],
    [5, "approve", "operator", null, "MSG_49002"],
    [10, "approve", "operator", null, "MSG_49002"],
    [10, "reject", "operator", "late", "MSG_49002"],
    [1, "approve", "user", null, "MSG_10403"],
    [0, "submit", "operator", null, "MSG_10403"],
  ];
  for (const [from, event, actor, comments, expected] of rows) {
    it(`${from} —${event} by ${actor}${comments === null ? "" : " with comments"}→ ${expected}`, () => {
      expect(certificationMachine.transition(from, event as "submit", actor as "user", { comments })).toEqual(
        typeof expected === "number" ? { ok: true, to: expected } : { ok: false, messageKey: expected },
      );
    });
  }
  it("needs comments to reject only", () => {
    expect(commentsRequiredFor(certificationMachine, "reject", "operator")).toBe(true);
    expect(commentsRequiredFor(certificationMachine, "approve", "operator")).toBe(false);
  });
});

describe("GB 32100 check digit", () => {
  it("computes the check character: 31 - (Σ value × 3^i mod 31) mod 31, 31 → 0", () => {
    // 9·1+1·3+1·9+1·27+0+0+0+0+M(21)·20+A(10)·29+0+1·13+A(10)·8+B(11)·24+C(12)·10+D(13)·30+E(14)·28 = 1837;
    // 1837 mod 31 = 8; 31 - 8 = 23 = X.
    expect(usccCheckChar("91110000MA01ABCDE")).toBe("X");
    expect(isValidUscc("91110000MA01ABCDEX")).toBe(true);
    expect(isValidUscc("91110108MA01DEM1XQ")).toBe(true);
    expect(isValidUscc("91110108MA01D1DT0D")).toBe(true);
  });
  it("accepts published codes and lower case", () => {
    expect(isValidUscc("91350100M000100Y43")).toBe(true);
    expect(isValidUscc("911100007109288314")).toBe(true);
    expect(isValidUscc("91110000ma01abcdex")).toBe(true);
  });
  it("refuses a wrong check character, a wrong length and letters outside the alphabet", () => {
    expect(isValidUscc("91110000MA01ABCDEY")).toBe(false);
    expect(isValidUscc("91110000MA01ABCDE")).toBe(false);
    expect(isValidUscc("91110000MA01ABCDEXX")).toBe(false);
    for (const bad of ["I", "O", "Z", "S", "V"]) expect(usccCheckChar(`9111000${bad}MA01ABCDE`)).toBeNull();
  });
});

describe("the credit code rule by country", () => {
  it("China: exactly 18 characters with the check digit", () => {
    expect(isChina(" china ")).toBe(true);
    expect(isChina("中国")).toBe(true);
    expect(isChina("Singapore")).toBe(false);
    expect(creditCodeProblem("China", "91110000MA01ABCD")).toBe("validation.creditCode.china");
    expect(creditCodeProblem("China", "91110000MA01ABCDEY")).toBe("validation.creditCode.checkDigit");
    expect(creditCodeProblem("China", "91110000MA01ABCDEX")).toBeNull();
  });
  it("other countries: at least 8 letters and digits (SPEC §5)", () => {
    expect(creditCodeProblem("Singapore", "12345678")).toBeNull();
    expect(creditCodeProblem("Singapore", "1234567")).toBe("validation.creditCode.format");
  });
  it("registration applies it and says which rule refused the code", () => {
    const enterprise = {
      userType: "2",
      userName: "ent1234",
      password: "Ab12!@cd",
      confirmPassword: "Ab12!@cd",
      realName: "张三",
      email: "e@example.com",
      captchaKey: "k",
      captcha: "abcd",
      agreeTerms: "on",
      agreePrivacy: "on",
      companyName: "Example Ltd",
      companyAddress: "1 Road",
      contactName: "Zhang San",
      country: "China",
      creditCode: "91110000MA01ABCDEY",
    };
    const refused = registerFieldsSchema.safeParse(enterprise);
    expect(refused.success).toBe(false);
    expect(refused.error?.issues.map((i) => [i.path.join("."), i.message])).toEqual([
      ["creditCode", "validation.creditCode.checkDigit"],
    ]);
    expect(registerFieldsSchema.safeParse({ ...enterprise, creditCode: "91110000MA01ABCDEX" }).success).toBe(true);
    expect(registerFieldsSchema.safeParse({ ...enterprise, country: "Japan", creditCode: "12345678" }).success).toBe(
      true,
    );
  });
});
