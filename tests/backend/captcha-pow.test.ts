import { createChallenge } from "altcha-lib";
import { describe, expect, inject, it } from "vitest";
import { powPayload, solvePow, type Challenge } from "../support/pow.ts";
import { call } from "./client.ts";
import { DEMO_PASSWORD, inProcessVueapi, type Reply } from "./in-process.ts";

/**
 * The proof-of-work captcha (issue 29 item 3, docs/decisions/061): a solution of a challenge the server signed
 * is accepted once, before it expires; a replay, a forged or a wrong solution and an expired one are refused
 * with the captcha's messages (a /vueapi refusal is an envelope with code 1, as the image captcha's; the login
 * page answers it with 400 and the translated text). On PGlite, or on the suite's PostgreSQL with DATABASE_URL.
 */
let clock = new Date("2026-08-01T00:00:00Z");
const service = inProcessVueapi(
  "pow",
  {
    TEST_CAPTCHA: "POW1",
    DEMO: "1",
    DATABASE_URL: process.env.DATABASE_URL,
    PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
  },
  () => clock,
);

async function post<T = any>(p: string, body: object = {}): Promise<{ status: number; body: Reply<T> }> {
  const res = await service.handle(
    new Request(`http://test.invalid/vueapi${p}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ userLanguage: "en", ...body }),
    }),
    { clientAddress: "203.0.113.29" },
  );
  return { status: res.status, body: (await res.json()) as Reply<T> };
}

const challenge = async () => (await post<{ pow: Challenge }>("/anon/captcha/create")).body.data.pow;
const logIn = (captcha: string, captchaKey = "pow") =>
  post("/main/user/login", { username: "demoperson", password: DEMO_PASSWORD, captchaKey, captcha });

function expectRefused(reply: { status: number; body: Reply }, message: string) {
  expect(reply.status).toBeLessThan(500);
  expect(reply.body).toMatchObject({ code: 1, message, data: { fieldErrors: { captcha: [`errors:${message}`] } } });
}

describe("the proof-of-work captcha", () => {
  it("comes with every captcha, signed, with its expiry in the salt", async () => {
    const pow = await challenge();
    expect(pow).toMatchObject({ algorithm: "SHA-256", maxnumber: expect.any(Number) });
    expect(pow.salt).toMatch(new RegExp(`expires=${Math.floor(clock.getTime() / 1000) + 300}&$`));
  });

  it("accepts a solution once: a replay is refused", async () => {
    const solution = solvePow(await challenge());
    expect((await logIn(solution)).body.code).toBe(0);
    expectRefused(await logIn(solution), "MSG_20005");
  });

  it("refuses a wrong number, a challenge signed with another key and a payload that is not one", async () => {
    const pow = await challenge();
    const right = JSON.parse(Buffer.from(solvePow(pow), "base64").toString()) as { number: number };
    expectRefused(await logIn(powPayload(pow, right.number + 1)), "MSG_20005");
    const forged = await createChallenge({ hmacKey: "not-the-server", maxnumber: 50, expires: new Date(2100, 0) });
    expectRefused(await logIn(solvePow(forged as Challenge)), "MSG_20005");
    expectRefused(await logIn("not base64 json"), "MSG_20005");
    // The right solution still passes after those refusals.
    expect((await logIn(solvePow(pow))).body.code).toBe(0);
  });

  it("refuses a solution after its challenge has expired", async () => {
    const solution = solvePow(await challenge());
    clock = new Date(clock.getTime() + 301_000);
    expectRefused(await logIn(solution), "MSG_20003");
  });

  it("leaves the image captcha and its test answer as they were", async () => {
    const { captchaKey } = (await post<{ captchaKey: string }>("/anon/captcha/create")).body.data;
    expect((await logIn("POW1", captchaKey)).body.code).toBe(0);
  });

  it("the login page (no JavaScript needed to post it) signs in once with a solution; the replay is a 400 with the translated text", async () => {
    const pow = (await call<{ pow: Challenge }>("/anon/captcha/create")).data.pow;
    const form = { username: "demoperson", password: DEMO_PASSWORD, captchaKey: "pow", captcha: solvePow(pow) };
    const post = () =>
      fetch(`${inject("baseUrl")}/g/main/Login/Logins`, {
        method: "POST",
        redirect: "manual",
        headers: { "Content-Type": "application/x-www-form-urlencoded", "Accept-Language": "en" },
        body: new URLSearchParams(form),
      });
    expect((await post()).status).toBe(302);
    const replay = await post();
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain("The captcha is invalid. Please enter the new one.");
  });
});
