import { readFileSync } from "node:fs";
import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ResponseCode } from "#contract/envelope.ts";
import { Msg } from "#contract/messages.ts";
import { auditLog } from "#backend/db/tables.ts";
import { callVueapi, inProcessVueapi, insertedUser, sessionOf } from "./in-process.ts";
import { uniqueName } from "./client.ts";

/**
 * The legal and contact texts (issue 30 item 16; docs/decisions/089): nothing saved, the public page gets no text
 * (the portal shows its draft) and no address; an operator saves a page in both languages and the addresses, the
 * public page then answers them; a non-operator is refused; bad input is a field error with a translated key.
 */

const service = inProcessVueapi("legal-texts", { DEMO: "0" });
const form = {
  titleEn: "Privacy at Example Network",
  titleZh: "示例网络的隐私政策",
  introEn: "What we keep.",
  introZh: "我们保存什么。",
  bodyEn: "## Data\n\nYour username.\n\n## Rights\n\nAsk support.",
  bodyZh: "## 数据\n\n您的用户名。",
};
const translated = (key: string) => {
  for (const lng of ["en", "zh-CN"]) {
    const [ns, rest] = key.includes(":") ? key.split(":") : ["forms", key];
    const texts = JSON.parse(readFileSync(`locales/${lng}/${ns}.json`, "utf8"));
    const text = rest.split(".").reduce((at: any, k) => at?.[k], texts);
    expect(typeof text, `${key} in ${lng}`).toBe("string");
  }
};

describe("legal and contact texts", () => {
  it("an operator saves a page and the addresses; the public page answers them; others are refused", async () => {
    const operatorId = await insertedUser(service, uniqueName("lops"), "operator");
    const operator = await sessionOf(service, operatorId);
    const user = await sessionOf(service, await insertedUser(service, uniqueName("luser")));

    const before = await callVueapi(service, "/anon/legal/page", { page: "privacy" });
    expect(before.code).toBe(0);
    expect(before.data).toEqual({ text: null, contact: { supportEmail: "", partnersEmail: "" } });
    const list = await callVueapi(service, "/sys/ops/legal/list", {}, operator);
    expect(list.data.pages.map((p: any) => [p.page, p.updatedAt])).toEqual([
      ["privacy", null],
      ["privacyStatement", null],
      ["agreement", null],
      ["contact", null],
    ]);

    for (const [p, body] of [
      ["/sys/ops/legal/list", {}],
      ["/sys/ops/legal/detail", { page: "privacy" }],
      ["/sys/ops/legal/save", { page: "privacy", form }],
      ["/sys/ops/legal/contact", { form: { supportEmail: "x@portal.test" } }],
    ] as const) {
      expect((await callVueapi(service, p, body, user)).code, p).toBe(ResponseCode.NO_PERMISSION);
      expect((await callVueapi(service, p, body)).code, p).not.toBe(0);
    }
    expect((await callVueapi(service, "/anon/legal/page", { page: "privacy" })).data.text).toBeNull();

    expect((await callVueapi(service, "/sys/ops/legal/save", { page: "privacy", form }, operator)).code).toBe(0);
    expect(
      (
        await callVueapi(
          service,
          "/sys/ops/legal/contact",
          { form: { supportEmail: " help@portal.test ", partnersEmail: "" } },
          operator,
        )
      ).data,
    ).toEqual({ supportEmail: "help@portal.test", partnersEmail: "" });

    const after = await callVueapi(service, "/anon/legal/page", { page: "privacy" });
    expect(after.data.text).toMatchObject({ page: "privacy", ...form });
    expect(after.data.contact).toEqual({ supportEmail: "help@portal.test", partnersEmail: "" });
    expect((await callVueapi(service, "/anon/legal/page", { page: "agreement" })).data.text).toBeNull();
    const listed = await callVueapi(service, "/sys/ops/legal/list", {}, operator);
    expect(listed.data.pages.find((p: any) => p.page === "privacy").updatedAt).toEqual(expect.any(String));
    expect(listed.data.contact).toMatchObject({ supportEmail: "help@portal.test", updatedAt: expect.any(String) });

    // A second save replaces the first.
    await callVueapi(service, "/sys/ops/legal/save", { page: "privacy", form: { ...form, titleEn: "New" } }, operator);
    expect((await callVueapi(service, "/sys/ops/legal/detail", { page: "privacy" }, operator)).data.titleEn).toBe(
      "New",
    );

    const audited = await service.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "legal.change"), eq(auditLog.actorId, operatorId)));
    expect(audited.map((a) => [a.targetType, a.targetId])).toEqual([
      ["legalText", "privacy"],
      ["contactAddresses", null],
      ["legalText", "privacy"],
    ]);
  });

  it("bad input is a 4xx field error whose key both languages translate", async () => {
    const operator = await sessionOf(service, await insertedUser(service, uniqueName("lbad"), "operator"));
    const empty = await callVueapi(
      service,
      "/sys/ops/legal/save",
      { page: "privacy", form: { ...form, titleZh: "  ", bodyEn: "x".repeat(30_001) } },
      operator,
    );
    expect(empty.message).toBe(Msg.INVALID_PARAMS);
    expect(empty.data.fieldErrors["form.titleZh"]).toEqual(["validation.required"]);
    expect(empty.data.fieldErrors["form.bodyEn"]).toEqual(["validation.tooLong"]);
    const mail = await callVueapi(
      service,
      "/sys/ops/legal/contact",
      { form: { supportEmail: "not an address" } },
      operator,
    );
    expect(mail.message).toBe(Msg.INVALID_PARAMS);
    expect(mail.data.fieldErrors["form.supportEmail"]).toEqual(["validation.email.format"]);
    for (const key of ["validation.required", "validation.tooLong", "validation.email.format"]) translated(key);
    const unknown = await callVueapi(service, "/anon/legal/page", { page: "cookies" });
    expect(unknown.message).toBe(Msg.INVALID_PARAMS);
  });
});
