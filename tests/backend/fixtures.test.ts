import { describe, expect, it } from "vitest";
import { activeUser, call, raw } from "./client.ts";

describe("/test/fixtures (tests only)", () => {
  it("creates bills for the caller, paying the paid ones through the ledger", async () => {
    const { token } = await activeUser("fix");
    const res = await call(
      "/test/fixtures",
      { grantCents: 5000, bills: [{ totalCents: 1200, payState: 15 }, { totalCents: 300 }] },
      token,
    );
    expect(res.code, JSON.stringify(res)).toBe(0);
    expect(res.data.billIds).toHaveLength(2);
    const overdraw = await call("/test/fixtures", { bills: [{ totalCents: 999_999, payState: 15 }] }, token);
    expect(overdraw.message).toBe("MSG_30001");
  });

  it("needs a login", async () => {
    expect((await call("/test/fixtures", {})).code).toBe(3);
  });

  it("a second service fixture of the same name is the caller's conflict (409), never a server error", async () => {
    const { token } = await activeUser("fixdup");
    const name = `Dup ${Date.now().toString(36)}`;
    const first = await call("/test/services", { name, verState: 5 }, token);
    expect(first.code, JSON.stringify(first)).toBe(0);
    const again = await raw("/test/services", { name, verState: 5 }, token);
    expect(again.status).toBe(409);
    expect((await again.json()).message).toBe("MSG_10409");
  });
});
