import "./setup-env.ts";
import { describe, expect, it, vi } from "vitest";
import { thrownResponse as thrown } from "../support/responses.ts";

vi.mock("#backend/index.ts", () => ({ handleVueapi: vi.fn(), startBackend: vi.fn() }));

const { requireAnonymous, requireUser } = await import("#app/lib/api.server.ts");
const { commitSession, getSession } = await import("#app/lib/session.server.ts");

async function signedInCookie() {
  const session = await getSession(new Request("http://portal.test/"));
  session.set("token", "tok");
  session.set("user", { userId: 7, userName: "alice2026", realName: "爱丽丝", userType: 1, role: "user" });
  return (await commitSession(session)).split(";")[0];
}

describe("SPEC §2 guards", () => {
  it("sends a visitor on a /home page to login and stores the address, without Remix's data parameters", async () => {
    const res = await thrown(
      requireUser(new Request("http://portal.test/g/home/userCenter/MessageCenter?status=unread&_data=routes%2Fx")),
    );
    expect(res.status).toBe(302);
    expect(res.headers.get("Location")).toBe("/g/main/Login/Logins");
    const cookie = res.headers.get("Set-Cookie")!.split(";")[0];
    const session = await getSession(new Request("http://portal.test/", { headers: { Cookie: cookie } }));
    expect(session.get("returnTo")).toBe("/g/home/userCenter/MessageCenter?status=unread");
  });

  it("lets a logged-in user through with the session's token and user", async () => {
    const viewer = await requireUser(
      new Request("http://portal.test/g/home/index", { headers: { Cookie: await signedInCookie() } }),
    );
    expect(viewer.token).toBe("tok");
    expect(viewer.user.userName).toBe("alice2026");
    expect(viewer.language).toBe("en");
  });

  it("sends a logged-in user away from login to /g/home/index", async () => {
    const res = await thrown(
      requireAnonymous(
        new Request("http://portal.test/g/main/Login/Logins", { headers: { Cookie: await signedInCookie() } }),
      ),
    );
    expect(res.headers.get("Location")).toBe("/g/home/index");
    const viewer = await requireAnonymous(new Request("http://portal.test/g/main/Login/Logins"));
    expect(viewer.user).toBeNull();
  });

  it("refuses a tampered session cookie", async () => {
    const cookie = await signedInCookie();
    const tampered = cookie.slice(0, -3) + "abc";
    await thrown(requireUser(new Request("http://portal.test/g/home/index", { headers: { Cookie: tampered } })));
  });

  it("keeps the cookie far below 4 KB", async () => {
    expect((await signedInCookie()).length).toBeLessThan(1024);
  });
});
