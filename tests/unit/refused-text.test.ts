import "./setup-env.ts";
import { describe, expect, it, vi } from "vitest";

// The request layer is tested against fake transports; the embedded backend is not loaded.
vi.mock("#backend/index.ts", () => ({ handleVueapi: vi.fn(), startBackend: vi.fn() }));
const { isStorableText, refusedTextErrors, refusedTextFields, REFUSED_TEXT_KEY } = await import("#contract/text.ts");
const { vueapi } = await import("#app/lib/vueapi.server.ts");

describe("text the database refuses (contract/text.ts)", () => {
  it("is a NUL character or a lone surrogate; pairs, emoji and Chinese are fine", () => {
    for (const ok of ["", "plain", "中文", "😀 pair", "tab\tand\nnewline", "\u0001\u007f", "\uFFFD"])
      expect(isStorableText(ok), JSON.stringify(ok)).toBe(true);
    for (const bad of ["\u0000", "a\u0000b", "\ud800", "x\ud83dy", "\ude00", "a\ude00\ud83d", "😀\ud800"])
      expect(isStorableText(bad), JSON.stringify(bad)).toBe(false);
  });

  it("names every field holding it, in document order, keys included, as the router names Zod issues", () => {
    const value = {
      name: "ok",
      payload: { userName: "a\u0000", tags: ["x", "\ud800"] },
      ["bad\u0000key"]: { deeper: "\u0000" },
      n: 1,
      empty: null,
    };
    expect(refusedTextFields(value)).toEqual(["payload.userName", "payload.tags.1", "bad\u0000key"]);
    expect(refusedTextFields({ fine: ["a", { b: "c" }], n: 3 })).toEqual([]);
    expect(refusedTextFields("\u0000")).toEqual(["_form"]);
    expect(refusedTextErrors(["a.b"])).toEqual({ "a.b": [REFUSED_TEXT_KEY] });
  });

  it("walks a deeply nested body without overflowing the stack, and names at most 20 fields", () => {
    let deep: unknown = "\u0000";
    for (let i = 0; i < 100_000; i++) deep = [deep];
    expect(refusedTextFields(deep)).toHaveLength(1);
    expect(refusedTextFields(Array.from({ length: 500 }, () => "\u0000"))).toHaveLength(20);
  });
});

describe("the portal's request layer refuses it before sending", () => {
  const ctx = (transport: (r: Request) => Promise<Response>) => ({
    request: new Request("http://portal.test/g/main/Login/Logins"),
    language: "en" as const,
    transport,
  });

  it("answers the field errors the backend would, without calling it", async () => {
    const transport = vi.fn(async () => new Response("{}"));
    const result = await vueapi(
      "/main/user/login",
      { username: "demo\u0000", password: "Demo12!@pass", captchaKey: "k", captcha: "abcd" },
      ctx(transport),
    );
    expect(result).toEqual({
      ok: false,
      messageKey: "errors:MSG_10001",
      code: 1,
      status: 400,
      silent: false,
      fieldErrors: { username: [REFUSED_TEXT_KEY] },
    });
    expect(transport).not.toHaveBeenCalled();
  });
});
