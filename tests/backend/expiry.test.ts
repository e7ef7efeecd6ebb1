import { describe, expect, it } from "vitest";
import { readBackendEnv } from "#backend/env.ts";
import { callVueapi, inProcessVueapi } from "./in-process.ts";

// Time-bound rules need a clock the test can move: the same service, in-process, with its own database.
let clock = new Date("2026-06-01T00:00:00Z");
const service = inProcessVueapi("expiry", { TEST_CAPTCHA: "CLOCK1", DEMO: "1" }, () => clock);
const post = (p: string, body: object = {}, token?: string) => callVueapi(service, p, body, token);

async function captchaKey() {
  return (await post("/anon/captcha/create")).data.captchaKey as string;
}

describe("rules that depend on time", () => {
  const later = (ms: number) => {
    clock = new Date(clock.getTime() + ms);
  };

  it("a login token expires after 12 hours: MSG_10005", async () => {
    const login = await post("/main/user/login", {
      username: "demoperson",
      password: "Demo12!@pass",
      captchaKey: await captchaKey(),
      captcha: "CLOCK1",
    });
    expect(login.code).toBe(0);
    later(11 * 60 * 60 * 1000);
    expect((await post("/main/getClientInfo", {}, login.data.token)).code).toBe(0);
    later(60 * 60 * 1000 + 1);
    expect(await post("/main/getClientInfo", {}, login.data.token)).toMatchObject({ code: 3, message: "MSG_10005" });
  });

  it("a captcha expires after 5 minutes: MSG_20003", async () => {
    const key = await captchaKey();
    later(5 * 60 * 1000 + 1);
    expect(
      (
        await post("/main/user/login", {
          username: "demoperson",
          password: "Demo12!@pass",
          captchaKey: key,
          captcha: "CLOCK1",
        })
      ).message,
    ).toBe("MSG_20003");
  });

  it("a lock ends after 15 minutes", async () => {
    for (let i = 0; i < 5; i++) {
      await post("/main/user/login", {
        username: "democompany",
        password: "Wrong12!@x",
        captchaKey: await captchaKey(),
        captcha: "CLOCK1",
      });
    }
    expect(
      (
        await post("/main/user/login", {
          username: "democompany",
          password: "Demo12!@pass",
          captchaKey: await captchaKey(),
          captcha: "CLOCK1",
        })
      ).message,
    ).toBe("MSG_20007");
    later(15 * 60 * 1000 + 1);
    expect(
      (
        await post("/main/user/login", {
          username: "democompany",
          password: "Demo12!@pass",
          captchaKey: await captchaKey(),
          captcha: "CLOCK1",
        })
      ).code,
    ).toBe(0);
  });

  it("refuses TEST_CAPTCHA in production, even for the demo; demo accounts only with DEMO=1", () => {
    expect(() => readBackendEnv({ NODE_ENV: "production", TEST_CAPTCHA: "x", DEMO: "1" })).toThrow(/TEST_CAPTCHA/);
    // No database gets the demo accounts unless the demo is asked for, embedded or not (docs/decisions/020).
    expect(readBackendEnv({ NODE_ENV: "production", DEMO: "1" }).seedDemo).toBe(true);
    expect(readBackendEnv({ NODE_ENV: "development" }).seedDemo).toBe(false);
    expect(
      readBackendEnv({
        NODE_ENV: "production",
        PAYMENT_PROVIDER: "stripe",
        STRIPE_SECRET_KEY: "sk_live_x1",
        STRIPE_WEBHOOK_SECRET: "whsec_x1",
        PUBLIC_URL: "https://bsn.example",
      }).seedDemo,
    ).toBe(false);
    expect(readBackendEnv({ DATABASE_URL: "postgres://u@127.0.0.1/db", DEMO: "1" }).seedDemo).toBe(true);
    expect(readBackendEnv({ DATABASE_URL: "postgres://u@127.0.0.1/db", SEED_DEMO: "1" }).seedDemo).toBe(true);
  });
});
