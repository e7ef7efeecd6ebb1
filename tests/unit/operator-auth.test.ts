import { describe, expect, it } from "vitest";
import { enrolConfirmSchema, normaliseSecondFactorCode, secondFactorSchema } from "#contract/operator-auth.ts";
import { AUDIT_RULES } from "#contract/audit-rules.ts";
import { codeAt, matchingSteps, newRecoveryCodes, stepOf } from "#backend/domains/accounts/mfa.ts";
import { entryFromRule } from "#backend/kit/audit.ts";
import { detailsText } from "#app/lib/audit.ts";
import { auditFilterFromQuery, auditQuery } from "#app/lib/audit.server.ts";

// docs/decisions/022: the pure parts of the operators' second factor and of the audit log.

describe("TOTP codes (RFC 6238 with otpauth)", () => {
  // RFC 6238 appendix B, SHA-1 key "12345678901234567890" (base32 below), the last 6 of its 8 digits.
  const RFC_KEY = "GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ";
  it.each([
    [59, "287082"],
    [1111111109, "081804"],
    [1111111111, "050471"],
    [1234567890, "005924"],
    [2000000000, "279037"],
  ])("at %i s the code is %s", (seconds, code) => {
    expect(codeAt(RFC_KEY, stepOf(new Date(seconds * 1000)))).toBe(code);
  });

  it("accepts the step before, the current and the next one, nothing further, in that order", () => {
    const now = new Date("2026-08-03T02:00:10Z");
    const step = stepOf(now);
    for (const offset of [-1, 0, 1])
      expect(matchingSteps(RFC_KEY, codeAt(RFC_KEY, step + offset), now)).toEqual([step + offset]);
    for (const offset of [-3, -2, 2, 3])
      expect(matchingSteps(RFC_KEY, codeAt(RFC_KEY, step + offset), now)).toEqual([]);
    expect(matchingSteps(RFC_KEY, "12345", now)).toEqual([]);
  });

  it("makes ten different recovery codes of 50 random bits each", () => {
    const codes = newRecoveryCodes();
    expect(codes).toHaveLength(10);
    expect(new Set(codes).size).toBe(10);
    for (const code of codes) expect(code).toMatch(/^[a-z2-7]{5}-[a-z2-7]{5}$/);
    expect(newRecoveryCodes()).not.toEqual(codes);
  });

  it("reads codes as typed: spaces, dashes and case do not matter; anything else is refused with a key", () => {
    expect(normaliseSecondFactorCode(" ABCDE - fgh23 ")).toBe("abcdefgh23");
    expect(secondFactorSchema.safeParse({ code: "123 456" }).success).toBe(true);
    expect(secondFactorSchema.safeParse({ code: "ABCDE-FGH23" }).success).toBe(true);
    const wrong = secondFactorSchema.safeParse({ code: "abcde-fgh18" });
    expect(wrong.success ? [] : wrong.error.issues.map((i) => i.message)).toEqual(["auth:twoFactor.validation.format"]);
    const empty = enrolConfirmSchema.safeParse({ code: " " });
    expect(empty.success ? [] : empty.error.issues.map((i) => i.message)).toEqual(["validation.required"]);
    const recoveryAtEnrolment = enrolConfirmSchema.safeParse({ code: "abcde-fgh23" });
    expect(recoveryAtEnrolment.success ? [] : recoveryAtEnrolment.error.issues.map((i) => i.message)).toEqual([
      "auth:twoFactor.validation.digits",
    ]);
  });
});

describe("audit entries from the rules", () => {
  it("takes the target id, the decision and the comments from the payload, the rest and the outcome as details", () => {
    const rule = AUDIT_RULES["/sys/ops/serviceReviews/decide"];
    expect(
      entryFromRule(rule, { appVerId: 42, decision: "reject", comments: "No licence." }, { verState: 11 }),
    ).toEqual({
      action: "service.review",
      targetType: "serviceVersion",
      targetId: "42",
      decision: "reject",
      comments: "No licence.",
      details: { outcome: { verState: 11 } },
    });
  });

  it("uses the rule's own decision for one-decision paths and keeps the other fields", () => {
    const rule = AUDIT_RULES["/sys/operations/invoices/deliver"];
    expect(entryFromRule(rule, { invoiceId: "7", courierName: "SF", courierNo: "SF123456" }, null)).toEqual({
      action: "invoice.delivery",
      targetType: "invoice",
      targetId: "7",
      decision: "deliver",
      comments: null,
      details: { courierName: "SF", courierNo: "SF123456" },
    });
  });

  it("keeps no outcome unless the rule asks, and no target id for the log's own export", () => {
    const rule = AUDIT_RULES["/sys/ops/audit/export"];
    expect(entryFromRule(rule, { action: "mfa.verify" }, { rows: [1, 2], total: 2 })).toMatchObject({
      targetId: null,
      decision: null,
      details: { action: "mfa.verify" },
    });
  });
});

describe("the audit log's details and filters", () => {
  it("shows details as name: value pairs", () => {
    expect(detailsText({ courierName: "SF", outcome: { verState: 40 }, left: 9 })).toBe(
      'courierName: SF; outcome: {"verState":40}; left: 9',
    );
    expect(detailsText({})).toBe("");
  });

  it("keeps the valid filters of a query and drops the others", () => {
    const params = new URLSearchParams({
      actor: " demooperator ",
      action: "service.review",
      targetType: "nope",
      targetId: "",
      dateFrom: "2026-02-30",
      dateTo: "2026-08-03",
    });
    const filter = auditFilterFromQuery(params);
    expect(filter).toEqual({ actor: "demooperator", action: "service.review", dateTo: "2026-08-03" });
    expect(auditQuery(filter)).toBe("?actor=demooperator&action=service.review&dateTo=2026-08-03");
    expect(auditQuery({})).toBe("");
  });
});
