import { describe, expect, it } from "vitest";
import {
  changePasswordSchema,
  licenceProblem,
  loginSchema,
  registerFieldsSchema,
  registerPayloadSchema,
  resetPasswordSchema,
} from "#contract/accounts.ts";
import { isDefaultPassword, isKeyboardSequence, passwordProblem } from "#contract/rules.ts";

function issues(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join("."), i.message]));
}

const individual = {
  userType: "1",
  userName: "alice2026",
  password: "Ab12!@cd",
  confirmPassword: "Ab12!@cd",
  realName: "张三",
  email: "alice@example.com",
  mobile: "+8613800000000",
  captchaKey: "k",
  captcha: "abcd",
  agreeTerms: "on",
  agreePrivacy: "on",
};
const enterprise = {
  ...individual,
  userType: "2",
  companyName: "Example Ltd",
  companyAddress: "1 Road, Beijing",
  contactName: "Zhang San",
  country: "China",
  creditCode: "91110000MA01ABCDEX",
};

describe("SPEC §5 Registration", () => {
  it("accepts a good individual and a good enterprise", () => {
    expect(registerFieldsSchema.safeParse(individual).success).toBe(true);
    expect(registerFieldsSchema.safeParse(enterprise).success).toBe(true);
    expect(registerFieldsSchema.safeParse({ ...individual, mobile: undefined }).success).toBe(true);
  });

  it.each([
    ["abc12", "too short"],
    ["1alice2026", "starts with a digit"],
    ["alice_2026", "underscore"],
    ["a".repeat(26), "26 characters"],
    ["alice 2026", "space"],
  ])("refuses the username %s (%s)", (userName) => {
    expect(issues(registerFieldsSchema.safeParse({ ...individual, userName }))).toMatchObject({
      userName: "validation.username.format",
    });
  });

  it("accepts usernames of 6 and 25 characters", () => {
    expect(registerFieldsSchema.safeParse({ ...individual, userName: "abcde1" }).success).toBe(true);
    expect(registerFieldsSchema.safeParse({ ...individual, userName: "a" + "b".repeat(24) }).success).toBe(true);
  });

  it.each([
    ["Ab1!@", "validation.password.length"],
    ["Ab12!@cd" + "x".repeat(13), "validation.password.length"],
    ["Ab12!@cd ", "validation.password.chars"],
    ["Ab12!@cd(", "validation.password.chars"],
    ["Abcdef1!@", "validation.password.classes"],
    ["Abcdef12!", "validation.password.classes"],
    ["A1234567!@", "validation.password.classes"],
  ])("refuses the password %s", (password, key) => {
    expect(passwordProblem(password)).toBe(key);
    expect(
      issues(registerFieldsSchema.safeParse({ ...individual, password, confirmPassword: password })),
    ).toMatchObject({ password: key });
  });

  it("needs the confirmation to match", () => {
    expect(issues(registerFieldsSchema.safeParse({ ...individual, confirmPassword: "Ab12!@ce" }))).toMatchObject({
      confirmPassword: "validation.confirmMismatch",
    });
  });

  it.each([
    ["", "validation.required"],
    ["张三四五六七八", "validation.realName.format"],
    ["张 三", "validation.realName.format"],
    ["张3", "validation.realName.format"],
    // Han and Latin in one name, another script, digits, symbols, a leading separator.
    ["张Wei", "validation.realName.format"],
    ["Иван Петров", "validation.realName.format"],
    ["Ελένη", "validation.realName.format"],
    ["R2D2", "validation.realName.format"],
    ["Bob <b>", "validation.realName.format"],
    ["-Anna", "validation.realName.format"],
    // Latin: 2 to 50 characters.
    ["A", "validation.realName.latinLength"],
    ["A".repeat(51), "validation.realName.latinLength"],
  ])("refuses the real name %j with %s", (realName, key) => {
    expect(issues(registerFieldsSchema.safeParse({ ...individual, realName })).realName).toBe(key);
  });

  it("accepts a real name of 1 to 6 Chinese characters", () => {
    expect(registerFieldsSchema.safeParse({ ...individual, realName: "王" }).success).toBe(true);
    expect(registerFieldsSchema.safeParse({ ...individual, realName: "欧阳娜娜娜娜" }).success).toBe(true);
  });

  it.each(["Alice", "José O'Neill-Smith", "Zoë Åberg", "J. R. R. Tolkien", "Nguyễn Thị Minh Khai", "D’Arcy", "Al"])(
    "accepts the Latin-script real name %j (docs/decisions/056)",
    (realName) => {
      expect(registerFieldsSchema.safeParse({ ...individual, realName }).success).toBe(true);
    },
  );

  it("counts a Latin name's characters after NFC: a decomposed accent is one character", () => {
    const decomposed = "Jose\u0301"; // J o s e + combining acute = José
    expect(registerFieldsSchema.safeParse({ ...individual, realName: decomposed }).success).toBe(true);
    expect(registerFieldsSchema.safeParse({ ...individual, realName: `${"e\u0301".repeat(50)}` }).success).toBe(true);
  });

  it("needs a valid email and a valid mobile when given", () => {
    expect(issues(registerFieldsSchema.safeParse({ ...individual, email: "not-an-email" }))).toMatchObject({
      email: "validation.email.format",
    });
    expect(issues(registerFieldsSchema.safeParse({ ...individual, email: undefined }))).toMatchObject({
      email: "validation.required",
    });
    expect(issues(registerFieldsSchema.safeParse({ ...individual, mobile: "12ab" }))).toMatchObject({
      mobile: "validation.mobile.format",
    });
  });

  it("needs the captcha and both ticks", () => {
    expect(issues(registerFieldsSchema.safeParse({ ...individual, captcha: undefined }))).toMatchObject({
      captcha: "errors:MSG_20002",
    });
    expect(issues(registerFieldsSchema.safeParse({ ...individual, agreeTerms: undefined }))).toMatchObject({
      agreeTerms: "validation.agreeTerms",
    });
    expect(issues(registerFieldsSchema.safeParse({ ...individual, agreePrivacy: "off" }))).toMatchObject({
      agreePrivacy: "validation.agreePrivacy",
    });
  });

  it("needs the enterprise fields, with a credit code of at least 8", () => {
    const got = issues(
      registerFieldsSchema.safeParse({
        ...enterprise,
        companyName: undefined,
        companyAddress: "",
        contactName: undefined,
        country: undefined,
        creditCode: "1234567",
      }),
    );
    expect(got).toMatchObject({
      companyName: "validation.required",
      companyAddress: "validation.required",
      contactName: "validation.required",
      country: "validation.required",
      creditCode: "validation.creditCode.format",
    });
    expect(
      registerFieldsSchema.safeParse({ ...enterprise, country: "Singapore", creditCode: "12345678" }).success,
    ).toBe(true);
  });

  it("needs the licence for an enterprise payload, not for an individual", () => {
    expect(registerPayloadSchema.safeParse({ payload: individual }).success).toBe(true);
    expect(issues(registerPayloadSchema.safeParse({ payload: enterprise }))).toMatchObject({
      licence: "validation.licence.required",
    });
  });

  it("checks the licence: at most 8 MB, pdf/png/jpg, name at most 50", () => {
    expect(licenceProblem({ name: "licence.pdf", size: 1000, type: "application/pdf" })).toBeNull();
    expect(licenceProblem({ name: "licence.jpeg", size: 8 * 1024 * 1024, type: "image/jpeg" })).toBeNull();
    expect(licenceProblem({ name: "licence.pdf", size: 8 * 1024 * 1024 + 1, type: "application/pdf" })).toBe(
      "validation.licence.tooLarge",
    );
    expect(licenceProblem({ name: "licence.exe", size: 10, type: "application/octet-stream" })).toBe(
      "validation.licence.type",
    );
    expect(licenceProblem({ name: "licence.pdf", size: 0, type: "application/pdf" })).toBe(
      "validation.licence.required",
    );
    expect(licenceProblem({ name: "x".repeat(47) + ".pdf", size: 10, type: "application/pdf" })).toBe(
      "validation.fileNameTooLong",
    );
  });
});

describe("SPEC §5 Login and Password reset", () => {
  it("needs username, password and captcha", () => {
    expect(issues(loginSchema.safeParse({ captchaKey: "k" }))).toMatchObject({
      username: "validation.required",
      password: "validation.required",
      captcha: "errors:MSG_20002",
    });
    expect(
      loginSchema.safeParse({ username: "alice2026", password: "x", captchaKey: "k", captcha: "abcd" }).success,
    ).toBe(true);
  });

  it("applies the password rule and the confirmation to a reset", () => {
    const base = { phone: "alice2026", retrieveWay: "email", captcha: "123456" };
    expect(resetPasswordSchema.safeParse({ ...base, password: "Ab12!@cd", confirmPassword: "Ab12!@cd" }).success).toBe(
      true,
    );
    expect(
      issues(resetPasswordSchema.safeParse({ ...base, password: "short", confirmPassword: "short" })),
    ).toMatchObject({ password: "validation.password.length" });
    expect(
      issues(resetPasswordSchema.safeParse({ ...base, password: "Ab12!@cd", confirmPassword: "Ab12!@cx" })),
    ).toMatchObject({ confirmPassword: "validation.confirmMismatch" });
    expect(
      issues(
        resetPasswordSchema.safeParse({ ...base, captcha: "12345", password: "Ab12!@cd", confirmPassword: "Ab12!@cd" }),
      ),
    ).toMatchObject({ captcha: "validation.resetCode.format" });
  });
});

describe("SPEC §5 Change password", () => {
  const schema = changePasswordSchema("alice2026");
  const good = { oldPassword: "Old12!@pw", password: "Nw93!@pq", confirmPassword: "Nw93!@pq" };

  it("accepts a good change", () => {
    expect(schema.safeParse(good).success).toBe(true);
  });
  it("needs all three", () => {
    expect(issues(schema.safeParse({}))).toMatchObject({
      oldPassword: "validation.required",
      password: "validation.required",
      confirmPassword: "validation.required",
    });
  });
  it("needs new = confirm and new ≠ old", () => {
    expect(issues(schema.safeParse({ ...good, confirmPassword: "Nw93!@pz" }))).toMatchObject({
      confirmPassword: "validation.confirmMismatch",
    });
    expect(issues(schema.safeParse({ ...good, oldPassword: good.password }))).toMatchObject({
      password: "validation.password.sameAsOld",
    });
  });
  it("refuses a password holding the username, in any case", () => {
    expect(
      issues(
        changePasswordSchema("Bob123").safeParse({ ...good, password: "xBOB123!@", confirmPassword: "xBOB123!@" }),
      ),
    ).toMatchObject({ password: "validation.password.containsUsername" });
  });
  it("refuses default and keyboard-sequence passwords", () => {
    expect(issues(schema.safeParse({ ...good, password: "P@ssw0rd", confirmPassword: "P@ssw0rd" }))).toMatchObject({
      password: expect.stringMatching(/^validation\.password\.(default|classes)$/),
    });
    expect(
      issues(schema.safeParse({ ...good, password: "Demo12!@pass", confirmPassword: "Demo12!@pass" })),
    ).toMatchObject({ password: "validation.password.default" });
    expect(issues(schema.safeParse({ ...good, password: "qwer12!@Zx", confirmPassword: "qwer12!@Zx" }))).toMatchObject({
      password: "validation.password.sequence",
    });
    expect(issues(schema.safeParse({ ...good, password: "Zx1234!@", confirmPassword: "Zx1234!@" }))).toMatchObject({
      password: "validation.password.sequence",
    });
  });
  it("finds sequences either way and ignores short runs", () => {
    expect(isKeyboardSequence("xx4321yy")).toBe(true);
    expect(isKeyboardSequence("POIU")).toBe(true);
    expect(isKeyboardSequence("Nw93!@pq")).toBe(false);
    expect(isDefaultPassword("ADMIN123")).toBe(true);
    expect(isDefaultPassword("Nw93!@pq")).toBe(false);
  });
});
