import { sql } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { createRouter, type Handlers } from "#backend/http/router.ts";
import { callVueapi, inProcessVueapi, registeredUser } from "./in-process.ts";

/**
 * The router's error log on a real database (docs/decisions/024): a failing query is logged by its class
 * and SQLSTATE, never with the values the request sent (Drizzle's error message holds the parameters).
 */
const service = inProcessVueapi("error-log", { TEST_CAPTCHA: "LOG1" });
const SECRET = "98765432101";

async function tokenOf(prefix: string) {
  const { userName, password } = await registeredUser(service, prefix);
  const captchaKey = (await callVueapi(service, "/anon/captcha/create")).data.captchaKey;
  const login = await callVueapi(service, "/main/user/login", {
    username: userName,
    password,
    captchaKey,
    captcha: "LOG1",
  });
  expect(login.code, JSON.stringify(login)).toBe(0);
  return login.data.token as string;
}

describe("the router's error log on a real database", () => {
  it("an id out of the database's range is a 400, and the warning does not quote it", async () => {
    const token = await tokenOf("logr");
    const warned = vi.spyOn(console, "warn").mockImplementation(() => undefined);
    const res = await service.handle(
      new Request("http://test.invalid/vueapi/sys/chainAppInfo/certificateFile", {
        method: "POST",
        headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
        body: JSON.stringify({ certificateId: Number(SECRET), kind: "certificate" }),
      }),
    );
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ code: 1, message: "MSG_10001" });
    const log = warned.mock.calls.flat().map(String).join("\n");
    expect(log).toMatch(/database error 22003/);
    expect(log).not.toContain(SECRET);
  });

  it("a query that fails is a 500 logged without its parameters", async () => {
    const failing = {
      "/anon/platform/cityNodes": async () =>
        service.services.db.execute(sql`select * from no_such_table where name = ${SECRET}`),
    } as unknown as Handlers;
    const logged = vi.spyOn(console, "error").mockImplementation(() => undefined);
    const res = await createRouter(
      service.services,
      failing,
    )(new Request("http://test.invalid/vueapi/anon/platform/cityNodes", { method: "POST", body: "{}" }));
    expect(res.status).toBe(500);
    const log = logged.mock.calls.flat().map(String).join("\n");
    logged.mockReset();
    expect(log).toContain(
      'vueapi /anon/platform/cityNodes failed: DrizzleQueryError: database error 42P01: relation "no_such_table" does not exist',
    );
    expect(log).not.toContain(SECRET);
  });
});
