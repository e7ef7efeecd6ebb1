import { describe, expect, inject, it } from "vitest";
import { tinyPng } from "../fixtures/files.ts";
import { activeUser, mailsTo, PASSWORD, registration, uniqueName, type Envelope } from "./client.ts";

/**
 * Hardening 10, 11 and 16a over HTTP, with the real limits (docs/decisions/021). The test server believes
 * X-Forwarded-For from loopback (TRUST_PROXY=loopback) and leaves its own address 127.0.0.1 alone
 * (RATE_LIMIT_EXEMPT), so each test here speaks from addresses of its own (TEST-NET ranges) and the other
 * test files are not limited.
 */

let next = 0;
/** A fresh address of the TEST-NET ranges, unused by any other test of this run. */
function address(): string {
  next += 1;
  return `198.51.${100 + Math.floor(next / 250)}.${next % 250}`;
}

type Answer<T = any> = { status: number; retryAfter: string | null; body: Envelope<T> };

/** POSTs a /vueapi path as a client at `from` (X-Forwarded-For) would. */
async function post<T = any>(from: string | null, p: string, body: object = {}, token?: string): Promise<Answer<T>> {
  const headers: Record<string, string> = { "Content-Type": "application/json" };
  if (from) headers["X-Forwarded-For"] = from;
  if (token) headers.Authorization = `Bearer ${token}`;
  const res = await fetch(`${inject("baseUrl")}/vueapi${p}`, {
    method: "POST",
    headers,
    body: JSON.stringify({ userLanguage: "en", ...body }),
  });
  return { status: res.status, retryAfter: res.headers.get("retry-after"), body: (await res.json()) as Envelope<T> };
}

/** A captcha key, asked for by the exempt test address so that it counts against no one. */
async function key(): Promise<string> {
  return (await post<{ captchaKey: string }>(null, "/anon/captcha/create")).body.data.captchaKey;
}

async function loginFrom(from: string, username: string, password: string) {
  return post(from, "/main/user/login", {
    username,
    password,
    captchaKey: await key(),
    captcha: inject("testCaptcha"),
  });
}

function expectRefused(answer: Answer, message: string) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(429);
  expect(answer.body).toMatchObject({ code: 1, message, data: { retryAfterSeconds: expect.any(Number) } });
  expect(Number(answer.retryAfter)).toBeGreaterThan(0);
  expect(Number(answer.retryAfter)).toBe(answer.body.data.retryAfterSeconds);
}

describe("captchas: 30 a minute per address", () => {
  it("refuses the 31st captcha in a minute with 429 and the JSON envelope; other addresses are not affected", async () => {
    const from = address();
    const answers = await Promise.all(Array.from({ length: 30 }, () => post(from, "/anon/captcha/create")));
    expect(answers.map((a) => a.status)).toEqual(new Array(30).fill(200));
    expectRefused(await post(from, "/anon/captcha/create"), "MSG_10429");
    expect((await post(address(), "/anon/captcha/create")).status).toBe(200);
    // The exempt address of the tests (RATE_LIMIT_EXEMPT) is never counted.
    const exempt = await Promise.all(Array.from({ length: 35 }, () => post(null, "/anon/captcha/create")));
    expect(exempt.every((a) => a.status === 200)).toBe(true);
  });

  it("believes no client-address header sent over HTTP: only the address the server saw counts", async () => {
    const spoofed = address();
    const send = () =>
      fetch(`${inject("baseUrl")}/vueapi/anon/captcha/create`, {
        method: "POST",
        headers: { "Content-Type": "application/json", "X-Portal-Client-Address": spoofed },
        body: "{}",
      });
    const statuses = await Promise.all(Array.from({ length: 32 }, async () => (await send()).status));
    expect(statuses.every((s) => s === 200)).toBe(true);
    // Those calls were counted for the test's own (exempt) address, not for the one in the header.
    expect((await post(spoofed, "/anon/captcha/create")).status).toBe(200);
  });

  it("passes the address of a page's visitor to the backend in-process: the login page says so instead of the captcha", async () => {
    const from = address();
    for (let i = 0; i < 30; i++) expect((await post(from, "/anon/captcha/create")).status).toBe(200);
    const page = await fetch(`${inject("baseUrl")}/g/main/Login/Logins`, { headers: { "X-Forwarded-For": from } });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('data-testid="captcha-unavailable"');
    expect(html).toContain("Too many attempts from your address");
    // Another visitor gets a captcha.
    const other = await (
      await fetch(`${inject("baseUrl")}/g/main/Login/Logins`, { headers: { "X-Forwarded-For": address() } })
    ).text();
    expect(other).toContain("data:image/png;base64,");
  });
});

describe("login: 10 attempts a minute per address", () => {
  it("refuses the 11th attempt from one address, whatever the accounts, with MSG_10429", async () => {
    const from = address();
    for (let i = 0; i < 10; i++)
      expect((await loginFrom(from, uniqueName("nobody"), "Wrong12!@x")).body.message).toBe("MSG_20006");
    expectRefused(await loginFrom(from, "demoperson", "Demo12!@pass"), "MSG_10429");
    expect((await loginFrom(address(), "demoperson", "Demo12!@pass")).body.code).toBe(0);
  });
});

describe("lockout per (address, account): cannot be used against the owner (Hardening 11)", () => {
  it("five failures from address A lock A out of the account; the owner at address B still logs in", async () => {
    const victim = await activeUser("vic");
    const attacker = address();
    const owner = address();
    for (let i = 0; i < 4; i++)
      expect((await loginFrom(attacker, victim.userName, "Wrong12!@x")).body.message).toBe("MSG_20006");
    expectRefused(await loginFrom(attacker, victim.userName, "Wrong12!@x"), "MSG_20007");
    // Locked at A, even with the right password, by username or email.
    expectRefused(await loginFrom(attacker, victim.userName, PASSWORD), "MSG_20007");
    expectRefused(await loginFrom(attacker, victim.email, PASSWORD), "MSG_20007");
    const atB = await loginFrom(owner, victim.userName, PASSWORD);
    expect(atB.status).toBe(200);
    expect(atB.body.code).toBe(0);
  });

  it("an unknown name is counted and locked the same way, so the lock tells nothing about which names exist", async () => {
    const from = address();
    const name = uniqueName("ghost");
    for (let i = 0; i < 4; i++) expect((await loginFrom(from, name, "Wrong12!@x")).body.message).toBe("MSG_20006");
    expectRefused(await loginFrom(from, name, "Wrong12!@x"), "MSG_20007");
  });

  it("a successful login forgets the address's earlier failures", async () => {
    const user = await activeUser("fgv");
    const from = address();
    for (let i = 0; i < 4; i++) await loginFrom(from, user.userName, "Wrong12!@x");
    expect((await loginFrom(from, user.userName, PASSWORD)).body.code).toBe(0);
    for (let i = 0; i < 4; i++)
      expect((await loginFrom(from, user.userName, "Wrong12!@x")).body.message).toBe("MSG_20006");
  });

  it("ten failures from many addresses put the account under attack: failed addresses get no more tries, a clean one logs in after a delay", async () => {
    const victim = await activeUser("atk");
    const bots = Array.from({ length: 10 }, () => address());
    for (const bot of bots)
      expect((await loginFrom(bot, victim.userName, "Wrong12!@x")).body.message).toBe("MSG_20006");
    // A bot that has failed once is refused at once now, even with the right password.
    expectRefused(await loginFrom(bots[0], victim.userName, PASSWORD), "MSG_20007");
    // The owner from a clean address logs in, slowed down by the attack.
    const started = Date.now();
    const owner = await loginFrom(address(), victim.userName, PASSWORD);
    expect(owner.body.code).toBe(0);
    expect(Date.now() - started).toBeGreaterThanOrEqual(1000);
    // A new bot address still gets its one try, answered slowly and wrongly.
    expect((await loginFrom(address(), victim.userName, "Wrong12!@x")).body.message).toBe("MSG_20006");
  });
});

describe("registration: 5 accounts an hour per address", () => {
  it("refuses the 6th registration from one address; failed attempts do not count", async () => {
    const from = address();
    const register = async (userName: string, extra: Record<string, unknown> = {}) =>
      post(from, "/anon/user/register", { payload: { ...registration(userName, extra), captchaKey: await key() } });
    const taken = await activeUser("tkn");
    // A refused registration (name taken) is not an account: it does not count.
    expect((await register(taken.userName, { email: `${uniqueName("e")}@example.com` })).body.message).toBe(
      "MSG_20009",
    );
    for (let i = 0; i < 5; i++) expect((await register(uniqueName("reg"))).body.code).toBe(0);
    const sixth = uniqueName("reg");
    expectRefused(await register(sixth), "MSG_10429");
    expect(mailsTo(`${sixth}@example.com`)).toEqual([]);
    expect(
      (await post(address(), "/anon/user/register", { payload: { ...registration(sixth), captchaKey: await key() } }))
        .body.code,
    ).toBe(0);
  });
});

describe("uploads without a session: 20 an hour per address", () => {
  it("refuses the 21st licence from one address with 429 before reading it; another address still uploads", async () => {
    const upload = (from: string) =>
      fetch(`${inject("baseUrl")}/vueapi/upload/licence`, {
        method: "POST",
        headers: { "Content-Type": "image/png", "X-File-Name": "licence.png", "X-Forwarded-For": from },
        body: new Uint8Array(tinyPng()),
      });
    const from = address();
    for (let i = 0; i < 20; i += 1) expect((await (await upload(from)).json()).code).toBe(0);
    const refused = await upload(from);
    expect(refused.status).toBe(429);
    expect(refused.headers.get("retry-after")).not.toBeNull();
    expect(await refused.json()).toMatchObject({ code: 1, message: "MSG_10429" });
    expect((await (await upload(address())).json()).code).toBe(0);
  });
});

describe("password-reset codes", () => {
  it("waits 60 seconds between two codes for one account (SPEC §9 resend wait): MSG_20017, no second mail", async () => {
    const user = await activeUser("rsd");
    const ask = async (from: string) =>
      post(from, "/anon/password/sendResetCode", {
        phone: user.userName,
        retrieveWay: "email",
        captchaKey: await key(),
        captcha: inject("testCaptcha"),
      });
    expect((await ask(address())).body.code).toBe(0);
    const again = await ask(address());
    expectRefused(again, "MSG_20017");
    expect(again.body.data.retryAfterSeconds).toBeLessThanOrEqual(60);
    expect(mailsTo(user.email).filter((m) => /\b\d{6}\b/.test(m.text))).toHaveLength(1);
  });

  it("limits code checks per address", async () => {
    const from = address();
    for (let i = 0; i < 30; i++) {
      expect(
        (
          await post(from, "/anon/password/checkResetCode", {
            phone: uniqueName("n"),
            retrieveWay: "email",
            captcha: "123456",
          })
        ).body.message,
      ).toBe("MSG_20013");
    }
    expectRefused(
      await post(from, "/anon/password/checkResetCode", {
        phone: "demoperson",
        retrieveWay: "email",
        captcha: "123456",
      }),
      "MSG_10429",
    );
  });

  it("a password reset lifts the locks on the account", async () => {
    const user = await activeUser("rlk");
    const from = address();
    for (let i = 0; i < 5; i++) await loginFrom(from, user.userName, "Wrong12!@x");
    expectRefused(await loginFrom(from, user.userName, PASSWORD), "MSG_20007");
    expect(
      (
        await post(from, "/anon/password/sendResetCode", {
          phone: user.userName,
          retrieveWay: "email",
          captchaKey: await key(),
          captcha: inject("testCaptcha"),
        })
      ).body.code,
    ).toBe(0);
    const code = mailsTo(user.email)
      .at(-1)!
      .text.match(/\b(\d{6})\b/)![1];
    const reset = await post(from, "/main/updateEmailPassword", {
      phone: user.userName,
      retrieveWay: "email",
      captcha: code,
      password: "Nw93!@pq",
      confirmPassword: "Nw93!@pq",
    });
    expect(reset.body.code).toBe(0);
    expect((await loginFrom(from, user.userName, "Nw93!@pq")).body.code).toBe(0);
  });
});

describe("log out everywhere (Hardening 16a)", () => {
  it("revokes every live token of the account, the caller's too, and no one else's", async () => {
    const user = await activeUser("lge");
    const second = (await loginFrom(address(), user.userName, PASSWORD)).body.data.token as string;
    const other = await activeUser("lgo");
    const ended = await post(null, "/main/user/logoutEverywhere", {}, second);
    expect(ended.body).toEqual({ code: 0, message: "success", data: { sessions: 2 } });
    for (const token of [user.token, second])
      expect((await post(null, "/main/getClientInfo", {}, token)).body).toMatchObject({
        code: 3,
        message: "MSG_10009",
      });
    expect((await post(null, "/main/getClientInfo", {}, other.token)).body.code).toBe(0);
    // Logging in again works; the path needs a token.
    expect((await loginFrom(address(), user.userName, PASSWORD)).body.code).toBe(0);
    expect((await post(null, "/main/user/logoutEverywhere")).body).toMatchObject({ code: 3, message: "MSG_10004" });
  });
});
