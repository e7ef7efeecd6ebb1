import { readFileSync } from "node:fs";
import path from "node:path";
import { beforeAll, describe, expect, inject, it } from "vitest";
import { paths, type PathSpec } from "#contract/paths.ts";
import { activeUser, login, raw } from "./client.ts";
import { oneFieldVariants, pathsOf, sampleOf } from "./payload-sample.ts";

/**
 * Text the database refuses (a NUL character; a lone UTF-16 surrogate, which has no UTF-8 form) is a
 * 400 with field errors on every /vueapi path, before any handler runs: generated from contract/paths.ts,
 * so a path added tomorrow is covered too.
 */
const TEXTS = [
  // [what, the text, also one field at a time (slower: several payloads a path)]
  ["a NUL character", "x\u0000y", true],
  ["a lone high surrogate", "x\ud800y", false],
  ["a lone low surrogate", "\udc00", false],
] as const;

let userToken = "";
let operatorToken = "";
beforeAll(async () => {
  userToken = (await activeUser("nul")).token;
  const operator = await login("demooperator", "Demo12!@pass");
  expect(operator.code).toBe(0);
  operatorToken = operator.data.token;
});

const asObject = (v: unknown) =>
  v && typeof v === "object" && !Array.isArray(v) ? (v as Record<string, unknown>) : {};

/**
 * The path's payloads holding `text`: in every string field at once (or in one extra field when it has
 * none), and in one string field at a time with plausible values in the others, to get past the rules
 * of the other fields.
 */
function payloadsFor(spec: PathSpec, text: string, oneByOne: boolean): Record<string, unknown>[] {
  const all = asObject(sampleOf(spec.payload, text));
  return [
    pathsOf(all, text).length > 0 ? all : { ...all, note: text },
    ...(oneByOne ? oneFieldVariants(spec.payload, text).map(asObject) : []),
  ];
}

describe("text the database refuses, on every /vueapi path", () => {
  for (const [label, text, oneByOne] of TEXTS) {
    it(`answers 400 MSG_10001 naming each field that holds ${label}`, { timeout: 120_000 }, async () => {
      const wrong: string[] = [];
      const check = async (path: string, spec: PathSpec, payload: Record<string, unknown>) => {
        const token = spec.auth === "anon" ? undefined : spec.auth === "operator" ? operatorToken : userToken;
        const res = await raw(path, payload, token);
        const body = (await res.json()) as {
          code: number;
          message: string;
          data: { fieldErrors?: Record<string, string[]> } | null;
        };
        const named = Object.keys(body.data?.fieldErrors ?? {}).sort();
        const expected = [...new Set(pathsOf(payload, text))].sort();
        const right =
          res.status === 400 &&
          body.code === 1 &&
          body.message === "MSG_10001" &&
          JSON.stringify(named) === JSON.stringify(expected) &&
          named.every((field) => body.data!.fieldErrors![field]!.includes("validation.text.unstorable"));
        if (!right) wrong.push(`${path}: HTTP ${res.status} ${JSON.stringify(body).slice(0, 160)}`);
      };
      // One path at a time, its payloads together.
      for (const [path, spec] of Object.entries(paths) as [string, PathSpec][]) {
        await Promise.all(payloadsFor(spec, text, oneByOne).map((payload) => check(path, spec, payload)));
      }
      expect(wrong).toEqual([]);
    });
  }

  it("finds refused text in keys, arrays and nested objects, and leaves other text alone", async () => {
    const res = await raw("/anon/platform/cityNodes", {
      deep: { list: ["fine", { ["k\u0000"]: "v" }] },
      emoji: "ok 😀 中文",
    });
    expect(res.status).toBe(400);
    const body = await res.json();
    expect(body.data.fieldErrors).toEqual({ "deep.list.1.k\u0000": ["validation.text.unstorable"] });
    const fine = await raw("/anon/platform/cityNodes", { emoji: "ok 😀 中文" });
    expect(fine.status).toBe(200);
  });
});

const refusedMessage = JSON.parse(readFileSync(path.resolve(__dirname, "../../locales/en/forms.json"), "utf8"))
  .validation.text.unstorable as string;

/** Posts a portal page's form (with a fresh captcha from the page) and answers the status and HTML. */
async function postForm(page: string, fields: Record<string, string>) {
  const html = await (await fetch(inject("baseUrl") + page)).text();
  const captchaKey = html.match(/name="captchaKey" value="([^"]+)"/)![1];
  const res = await fetch(inject("baseUrl") + page, {
    method: "POST",
    redirect: "manual",
    headers: { "Content-Type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ ...fields, captchaKey, captcha: inject("testCaptcha") }),
  });
  return { status: res.status, html: await res.text() };
}

describe("portal forms with refused text", () => {
  it("login shows the field error at the field and keeps the rest", async () => {
    const { status, html } = await postForm("/g/main/Login/Logins", {
      username: "demo\u0000person",
      password: "Demo12!@pass",
    });
    expect(status).toBe(400);
    expect(html).toMatch(
      new RegExp(`id="[^"]*username-error"[^>]*><ul><li>${refusedMessage.replace(/[.()]/g, "\\$&")}</li>`),
    );
  });

  it("password reset shows the field error", async () => {
    const { status, html } = await postForm("/g/main/Login/Forget", {
      phone: "a\u0000@example.com",
      retrieveWay: "email",
    });
    expect(status).toBe(400);
    expect(html).toContain(refusedMessage);
  });
});
