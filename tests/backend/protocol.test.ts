import { describe, expect, inject, it } from "vitest";
import { activeUser, call, captcha, raw } from "./client.ts";

describe("the /vueapi envelope (SPEC §7, §8)", () => {
  it("answers {code, message, data} with code 0 on success", async () => {
    const res = await call("/anon/platform/cityNodes");
    expect(res).toMatchObject({ code: 0, message: "success" });
    expect(Array.isArray(res.data)).toBe(true);
  });

  it("answers 404 with MSG_10002 for an unknown path", async () => {
    const res = await raw("/no/such/path");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 1, message: "MSG_10002" });
  });

  it("accepts only POST", async () => {
    const res = await fetch(`${inject("baseUrl")}/vueapi/anon/platform/cityNodes`);
    expect(res.status).toBe(405);
    expect(res.headers.get("allow")).toBe("POST");
  });

  it("answers 400 for a body that is not a JSON object", async () => {
    expect((await raw("/anon/platform/cityNodes", "{not json")).status).toBe(400);
    expect((await raw("/anon/platform/cityNodes", "[1,2]")).status).toBe(400);
  });

  it("answers MSG_10001 with field errors for an invalid payload", async () => {
    const res = await call("/main/user/login", { username: "", captchaKey: await captcha() });
    expect(res.code).toBe(1);
    expect(res.message).toBe("MSG_10001");
    expect(res.data.fieldErrors).toMatchObject({
      username: ["validation.required"],
      password: ["validation.required"],
      captcha: ["errors:MSG_20002"],
    });
  });
});

describe("tokens (SPEC §8 session invalid)", () => {
  it("answers code 3 MSG_10004 without a token or with an unknown one", async () => {
    expect(await call("/main/getClientInfo")).toMatchObject({ code: 3, message: "MSG_10004" });
    expect(await call("/main/getClientInfo", {}, "not-a-token")).toMatchObject({ code: 3, message: "MSG_10004" });
  });

  it("knows the caller by the token, and answers MSG_10009 after logout", async () => {
    const user = await activeUser("tok");
    const info = await call("/main/getClientInfo", {}, user.token);
    expect(info).toMatchObject({ code: 0, data: { userName: user.userName, userType: 1, role: "user" } });
    expect((await call("/main/user/logout", {}, user.token)).code).toBe(0);
    expect(await call("/main/getClientInfo", {}, user.token)).toMatchObject({ code: 3, message: "MSG_10009" });
  });

  it("lets the portal's userLanguage and portalCode travel in the body", async () => {
    const res = await call("/anon/platform/cityNodes", { userLanguage: "zh-CN", portalCode: 1 });
    expect(res.code).toBe(0);
  });
});

describe("platform data", () => {
  it("has the seeded city nodes with operator, cloud, address, TPS, capacity, peers and prices", async () => {
    const res = await call("/anon/platform/cityNodes");
    expect(res.data.length).toBeGreaterThanOrEqual(8);
    for (const node of res.data) {
      expect(node.operator).toBeTruthy();
      expect(node.cloudProvider).toBeTruthy();
      expect(node.address).toBeTruthy();
      expect(node.availableTps).toBeGreaterThan(0);
      expect(node.capacityGb).toBeGreaterThan(0);
      expect(node.peers).toBeGreaterThan(0);
      expect(Number.isInteger(node.trafficPricePerGbCents)).toBe(true);
    }
  });
});
