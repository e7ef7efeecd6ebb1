import { and, eq } from "drizzle-orm";
import { beforeAll, describe, expect, it } from "vitest";
import { auditLog, users } from "#backend/db/tables.ts";
import { CertState } from "#contract/certification.ts";
import {
  callVueapi,
  downloadedBytes,
  downloadVueapi,
  inProcessVueapi,
  loginToken,
  registeredUser,
  uploadVueapi,
} from "./in-process.ts";
import { PASSWORD, registration, uniqueName } from "./client.ts";
import { okVia } from "../support/envelope.ts";

// Enterprise certification reviewed by operations (issue 31 item 3; docs/decisions/071), in-process on a PGlite of
// its own (the service is opened without a database URL; docs/decisions/105): registration submits it, an operator rejects
// with a reason, the user sees it and submits again, an operator approves; company products and the DID
// "enterprise certified" credential wait for 10; the China credit code rule (GB 32100) at registration and
// resubmission.
const service = inProcessVueapi("certification", {
  TEST_CAPTCHA: "CERT1",
  DEMO: "1",
  JOBS_INTERVAL_MS: "0",
});
const post = (p: string, body: object = {}, token?: string) => callVueapi(service, p, body, token);
const ok = okVia((p: string, body: object, token: string) => post(p, body, token));
const PNG = Buffer.from(
  "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==",
  "base64",
);
const VALID = "91110000MA01ABCDEX";
const WRONG_CHECK = "91110000MA01ABCDEY";

async function licence() {
  const res = await uploadVueapi(service, "licence", "licence.png", PNG);
  expect(res.code, JSON.stringify(res)).toBe(0);
  return { uploadId: res.data.uploadId as string };
}

async function registerEnterprise(userName: string, extra: Record<string, unknown> = {}) {
  const captchaKey = (await post("/anon/captcha/create")).data.captchaKey;
  return post("/anon/user/register", {
    payload: {
      ...registration(userName, {
        userType: "2",
        captcha: service.services.env.testCaptcha,
        companyName: `Cert ${userName} Ltd`,
        companyAddress: "1 Road, Beijing",
        contactName: "Zhang San",
        country: "China",
        creditCode: VALID,
        ...extra,
      }),
      captchaKey,
    },
    licence: await licence(),
  });
}

/** A registered, activated enterprise (its certification pending, as registration leaves it) and its token. */
async function enterprise() {
  const userName = uniqueName("cert");
  const reg = await registerEnterprise(userName);
  expect(reg.code, JSON.stringify(reg)).toBe(0);
  await service.services.db
    .update(users)
    .set({ activatedAt: service.services.now() })
    .where(eq(users.userName, userName));
  const [row] = await service.services.db.select().from(users).where(eq(users.userName, userName));
  return { userId: row.id, token: await loginToken(service, userName, PASSWORD) };
}

const companyProduct = () => ({
  product: {
    name: `Company ${uniqueName("p")}`,
    productType: "1",
    brief: "A short brief of the product.",
    description: "The whole description of what the product does.",
    suggestedPrice: "120.50",
    payMode: "1",
    company: "on",
  },
});

async function messages(token: string) {
  return (await ok("/sys/system/message/list", { page: { pageSize: 50 } }, token)).page.rows as {
    textKey: string;
    params: Record<string, string>;
  }[];
}

let operator: string;
beforeAll(async () => {
  operator = await loginToken(service, "demooperator");
});

describe("the credit code at registration (GB 32100 for China)", () => {
  it("refuses a Chinese code with a wrong length or check digit, saying which rule; elsewhere at least 8", async () => {
    const short = await registerEnterprise(uniqueName("cc"), { creditCode: "91110000MA01ABCD" });
    expect(short.data.fieldErrors).toEqual({ "payload.creditCode": ["validation.creditCode.china"] });
    const wrong = await registerEnterprise(uniqueName("cc"), { creditCode: WRONG_CHECK });
    expect(wrong.data.fieldErrors).toEqual({ "payload.creditCode": ["validation.creditCode.checkDigit"] });
    const abroad = await registerEnterprise(uniqueName("cc"), { country: "Singapore", creditCode: "20120345K" });
    expect(abroad.code, JSON.stringify(abroad)).toBe(0);
  });
});

describe("enterprise certification reviewed (docs/decisions/071)", () => {
  it("submit → reject with a reason → resubmit → approve; company features wait for 10", async () => {
    const company = await enterprise();
    expect(await ok("/sys/system/clientInfo/certification", {}, company.token)).toMatchObject({
      state: CertState.PENDING,
      reason: null,
      creditCode: VALID,
      licenceName: "licence.png",
    });
    // Pending: no company product, no enterprise credential, and the DID page is told why.
    expect((await post("/sys/product/save", companyProduct(), company.token)).message).toBe("MSG_49001");
    expect(await ok("/sys/did/credentials/options", {}, company.token)).toMatchObject({
      certifiedEnterprise: false,
      certState: CertState.PENDING,
    });
    const did = await ok(
      "/sys/did/identifiers/create",
      { label: "Company", method: "key", custody: "portal", keyType: "Ed25519" },
      company.token,
    );
    expect(
      (await post("/sys/did/credentials/requestEnterprise", { subjectDidId: did.didId }, company.token)).message,
    ).toBe("MSG_47004");

    // The operators' queue lists it with its credit code (check digit passes) and licence.
    const open = await ok("/sys/ops/certifications/list", { pageSize: 50 }, operator);
    const row = open.page.rows.find((r: { userId: number }) => r.userId === company.userId);
    expect(row).toMatchObject({ state: 1, creditCode: VALID, checkDigitOk: true, licenceName: "licence.png" });
    expect(await downloadedBytes(service, "ops-certification-licence", { userId: company.userId }, operator)).toEqual(
      PNG,
    );
    // Anyone else is refused with the envelope's code 4 (no permission).
    const notOperator = await downloadVueapi(
      service,
      "ops-certification-licence",
      { userId: company.userId },
      company.token,
    );
    expect(((await notOperator.json()) as { code: number }).code).toBe(4);

    // Rejecting needs a reason; the user sees it, in the inbox and on the page.
    const bare = await post("/sys/ops/certifications/review", { userId: company.userId, decision: "reject" }, operator);
    expect(bare.code).not.toBe(0);
    const reason = "The licence is unreadable.";
    expect(
      await ok(
        "/sys/ops/certifications/review",
        { userId: company.userId, decision: "reject", comments: reason },
        operator,
      ),
    ).toEqual({ userId: company.userId, state: CertState.REJECTED });
    expect(await ok("/sys/system/clientInfo/certification", {}, company.token)).toMatchObject({
      state: CertState.REJECTED,
      reason,
    });
    expect(
      (await messages(company.token)).find((m) => m.textKey === "messages.certification.rejected")?.params,
    ).toEqual({ comments: reason });
    const [entry] = await service.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "certification.review"), eq(auditLog.targetId, String(company.userId))));
    expect(entry).toMatchObject({ targetType: "enterpriseAccount", decision: "reject", comments: reason });
    // A decided certification is not decided again.
    expect(
      (await post("/sys/ops/certifications/review", { userId: company.userId, decision: "approve" }, operator)).message,
    ).toBe("MSG_49002");
    expect((await post("/sys/product/save", companyProduct(), company.token)).message).toBe("MSG_49001");

    // The user answers: a wrong check digit is refused at its field (state kept), then a good code and licence.
    const refused = await post(
      "/sys/system/clientInfo/resubmitCertification",
      { creditCode: WRONG_CHECK, licence: await licence() },
      company.token,
    );
    expect(refused.data.fieldErrors).toEqual({ creditCode: ["validation.creditCode.checkDigit"] });
    expect((await ok("/sys/system/clientInfo/certification", {}, company.token)).state).toBe(CertState.REJECTED);
    expect(
      await ok(
        "/sys/system/clientInfo/resubmitCertification",
        { creditCode: "91110108MA01D1DT0D", licence: await licence() },
        company.token,
      ),
    ).toEqual({ state: CertState.PENDING });
    expect(await ok("/sys/system/clientInfo/certification", {}, company.token)).toMatchObject({
      state: CertState.PENDING,
      reason: null,
      creditCode: "91110108MA01D1DT0D",
    });
    // Pending again: nothing to resubmit.
    expect(
      (
        await post(
          "/sys/system/clientInfo/resubmitCertification",
          { creditCode: VALID, licence: await licence() },
          company.token,
        )
      ).message,
    ).toBe("MSG_49002");

    expect(
      await ok("/sys/ops/certifications/review", { userId: company.userId, decision: "approve" }, operator),
    ).toEqual({
      userId: company.userId,
      state: CertState.APPROVED,
    });
    expect((await messages(company.token)).some((m) => m.textKey === "messages.certification.approved")).toBe(true);
    expect((await ok("/sys/did/credentials/options", {}, company.token)).certifiedEnterprise).toBe(true);
    const vc = await ok("/sys/did/credentials/requestEnterprise", { subjectDidId: did.didId }, company.token);
    expect(vc.jwt).toBeTruthy();
    const saved = await ok("/sys/product/save", companyProduct(), company.token);
    expect(saved.productId).toBeGreaterThan(0);
  });

  it("is for enterprises only; individuals keep MSG_40001 for company products", async () => {
    const { userName, password } = await registeredUser(service, "certi");
    const person = await loginToken(service, userName, password);
    expect(
      (
        await post(
          "/sys/system/clientInfo/resubmitCertification",
          { creditCode: VALID, licence: await licence() },
          person,
        )
      ).message,
    ).toBe("MSG_49003");
    expect((await post("/sys/product/save", companyProduct(), person)).message).toBe("MSG_40001");
    expect((await ok("/sys/system/clientInfo/certification", {}, person)).state).toBe(CertState.NONE);
  });

  it("the demo enterprise is certified (10) with a valid code; operators only may list or decide", async () => {
    const demo = await loginToken(service, "democompany");
    expect(await ok("/sys/system/clientInfo/certification", {}, demo)).toMatchObject({
      state: CertState.APPROVED,
      creditCode: "91110108MA01DEM1XQ",
    });
    expect((await post("/sys/ops/certifications/list", {}, demo)).code).toBe(4);
  });
});
