import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { authTokens } from "#backend/db/tables.ts";
import { sha256 } from "#backend/http/auth.ts";
import { callVueapi, inProcessVueapi, loginToken, registeredUser } from "./in-process.ts";

/**
 * The token check is kept per process, and concurrent checks of one token share a read (docs/decisions/030); a revocation in this
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
    const [a, b] = [
      await loginToken(service, user.userName, user.password),
      await loginToken(service, user.userName, user.password),
    ];
    expect((await me(a)).code).toBe(0);
    expect((await me(b)).code).toBe(0);
    const changed = await callVueapi(
      service,
      "/main/updatePassword",
      { oldPassword: user.password, password: "Newer12!@pass", confirmPassword: "Newer12!@pass" },
      a,
    );
    expect(changed.code, JSON.stringify(changed)).toBe(0);
    expect(await me(b)).toMatchObject({ code: 3, message: "MSG_10009" });
    expect((await me(a)).code).toBe(0);
  });

  it("log out everywhere: every session of the account stops at once", async () => {
    const user = await registeredUser(service, "sess-all");
    const [a, b] = [
      await loginToken(service, user.userName, user.password),
      await loginToken(service, user.userName, user.password),
    ];
    expect((await me(b)).code).toBe(0);
    expect((await callVueapi(service, "/main/user/logoutEverywhere", {}, a)).data.sessions).toBe(2);
    expect(await me(a)).toMatchObject({ code: 3, message: "MSG_10009" });
    expect(await me(b)).toMatchObject({ code: 3, message: "MSG_10009" });
  });

  it("a page's parallel calls check the token once: one read, the others wait for it, then the row is kept", async () => {
    const user = await registeredUser(service, "sess-scope");
    const token = await loginToken(service, user.userName, user.password);
    service.services.sessions.forgetToken(sha256(token));
    const call = () =>
      service.handle(
        new Request("http://test.invalid/vueapi/main/getClientInfo", {
          method: "POST",
          headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
          body: "{}",
        }),
      );
    const sessions = service.services.sessions;
    const share = sessions.share.bind(sessions);
    let reads = 0;
    sessions.share = (...args) => {
      reads += 1;
      share(...args);
    };
    try {
      const answers = await Promise.all([call(), call(), call()]);
      for (const a of answers) expect((await a.json()).code).toBe(0);
    } finally {
      sessions.share = share;
    }
    expect(reads).toBe(1);
    expect(sessions.get(sha256(token))).toBeDefined();
    // Another process revoked it (no forget here): the kept answers go on until the TTL, which is the bound.
    await service.services.db
      .update(authTokens)
      .set({ revokedAt: new Date() })
      .where(eq(authTokens.tokenHash, sha256(token)));
    expect((await (await call()).json()).code).toBe(0);
    // Once this process forgets it (its TTL ended, or a revocation here), the next call reads and refuses.
    service.services.sessions.forgetToken(sha256(token));
    expect(await me(token)).toMatchObject({ code: 3, message: "MSG_10009" });
  });
});
