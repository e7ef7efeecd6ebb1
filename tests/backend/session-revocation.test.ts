import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authTokens } from "../../backend/db/tables";
import { sha256 } from "../../backend/http/auth";
import { AuthScope } from "../../backend/http/session-cache";
import { callVueapi, inProcessVueapi, loginToken, registeredUser } from "./in-process";

/**
 * The token check is kept per page request and per process (docs/decisions/030); a revocation in this
 * process is seen by the very next call, even right after the token's row was kept.
 */
const service = inProcessVueapi("sessions", { TEST_CAPTCHA: "SESS1" });
const me = (token: string) => callVueapi(service, "/main/getClientInfo", {}, token);

describe("revoking a session", () => {
  it("logout: the token stops working at once, though it was just checked and kept", async () => {
    const user = await registeredUser(service, "sess-out");
    const token = await loginToken(service, user.userName, user.password);
    expect((await me(token)).code).toBe(0);
    expect(service.services.sessions.get(sha256(token))).toBeDefined();
    expect((await callVueapi(service, "/main/user/logout", {}, token)).code).toBe(0);
    expect(await me(token)).toMatchObject({ code: 3, message: "MSG_10009" });
  });

  it("password change: the other sessions stop at once, this one goes on", async () => {
    const user = await registeredUser(service, "sess-pw");
    const [a, b] = [await loginToken(service, user.userName, user.password), await loginToken(service, user.userName, user.password)];
    expect((await me(a)).code).toBe(0);
    expect((await me(b)).code).toBe(0);
    const changed = await callVueapi(service, "/main/updatePassword", { oldPassword: user.password, password: "Newer12!@pass", confirmPassword: "Newer12!@pass" }, a);
    expect(changed.code, JSON.stringify(changed)).toBe(0);
    expect(await me(b)).toMatchObject({ code: 3, message: "MSG_10009" });
    expect((await me(a)).code).toBe(0);
  });

  it("log out everywhere: every session of the account stops at once", async () => {
    const user = await registeredUser(service, "sess-all");
    const [a, b] = [await loginToken(service, user.userName, user.password), await loginToken(service, user.userName, user.password)];
    expect((await me(b)).code).toBe(0);
    expect((await callVueapi(service, "/main/user/logoutEverywhere", {}, a)).data.sessions).toBe(2);
    expect(await me(a)).toMatchObject({ code: 3, message: "MSG_10009" });
    expect(await me(b)).toMatchObject({ code: 3, message: "MSG_10009" });
  });

  it("a page request's calls check the token once: one read, then the scope answers", async () => {
    const user = await registeredUser(service, "sess-scope");
    const token = await loginToken(service, user.userName, user.password);
    service.services.sessions.forgetToken(sha256(token));
    const scope = new AuthScope();
    const call = () =>
      service.handle(
        new Request("http://test.invalid/vueapi/main/getClientInfo", { method: "POST", headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` }, body: "{}" }),
        { authScope: scope },
      );
    const answers = await Promise.all([call(), call(), call()]);
    for (const a of answers) expect((await a.json()).code).toBe(0);
    expect(scope.reuse(sha256(token), service.services.sessions.generation)).toBeDefined();
    // Another process revoked it (no forget here): the kept answers go on until the TTL, which is the bound.
    await service.services.db.update(authTokens).set({ revokedAt: new Date() }).where(eq(authTokens.tokenHash, sha256(token)));
    expect((await (await call()).json()).code).toBe(0);
    // Once this process forgets it (its TTL ended, or a revocation here), the next call reads and refuses.
    service.services.sessions.forgetToken(sha256(token));
    expect(await me(token)).toMatchObject({ code: 3, message: "MSG_10009" });
  });
});
