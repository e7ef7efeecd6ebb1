import { createServer, type Server } from "node:http";
import express from "express";
import { afterEach, describe, expect, it } from "vitest";
import { CLIENT_ADDRESS_HEADER as CONTRACT_HEADER } from "#contract/envelope.ts";
import { readBackendEnv } from "#backend/env.ts";
import { addressKey, DEFAULT_RULES, readRateLimitConfig } from "#backend/kit/rate-limit-rules.ts";
import { overHttp } from "#app/lib/transport.server.ts";
import { buildHeaders } from "#app/lib/vueapi.server.ts";
import { CLIENT_ADDRESS_HEADER, parseTrustProxy } from "../../server/client-address.js";
import { toFetchRequest } from "../../server/remix.js";

/** The settings and the address plumbing of the rate limits (docs/decisions/021), without a database. */

describe("RATE_LIMITS and RATE_LIMIT_EXEMPT", () => {
  it("defaults to the documented limits", () => {
    const config = readRateLimitConfig(undefined, undefined);
    expect(config.enabled).toBe(true);
    expect(config.rules["captcha.ip"]).toMatchObject({ limit: 30, windowMs: 60_000 });
    expect(config.rules["login.ip"]).toMatchObject({ limit: 10, windowMs: 60_000 });
    expect(config.rules["login.lock"]).toMatchObject({
      limit: 5,
      windowMs: 15 * 60_000,
      blockMs: 15 * 60_000,
      alwaysOn: true,
    });
    expect(config.rules["mail.address"]).toMatchObject({ limit: 3, windowMs: 15 * 60_000 });
    expect(config.rules["register.ip"]).toMatchObject({ limit: 5, windowMs: 60 * 60_000 });
    expect(config.rules["resetCode.resend"]).toMatchObject({ limit: 1, windowMs: 60_000 });
    expect(config.exempt.size).toBe(0);
  });

  it("takes overrides name=limit/window[/block] and exempt addresses, normalised", () => {
    const config = readRateLimitConfig(
      "captcha.ip=60/2m, login.lock=3/10m/1h",
      "127.0.0.1, ::ffff:10.0.0.1, 2001:db8::1",
    );
    expect(config.rules["captcha.ip"]).toEqual({ ...DEFAULT_RULES["captcha.ip"], limit: 60, windowMs: 120_000 });
    expect(config.rules["login.lock"]).toMatchObject({ limit: 3, windowMs: 600_000, blockMs: 3_600_000 });
    expect(config.rules["login.ip"]).toEqual(DEFAULT_RULES["login.ip"]);
    expect([...config.exempt]).toEqual(["127.0.0.1", "10.0.0.1", "2001:db8:0:0::/64"]);
  });

  it("off leaves only the always-on locks", () => {
    expect(readRateLimitConfig("off", undefined).enabled).toBe(false);
  });

  it("refuses what it cannot read, so the server does not start with limits it did not mean", () => {
    expect(() => readRateLimitConfig("captcha.ip=30", undefined)).toThrow(/name=limit\/window/);
    expect(() => readRateLimitConfig("captcha.everything=30/1m", undefined)).toThrow(/unknown limit/);
    expect(() => readRateLimitConfig("captcha.ip=0/1m", undefined)).toThrow(/at least 1/);
    expect(() => readRateLimitConfig("captcha.ip=30/1m/5m", undefined)).toThrow(/not a lock/);
    expect(() => readRateLimitConfig(undefined, "localhost")).toThrow(/RATE_LIMIT_EXEMPT/);
    expect(() => readBackendEnv({ NODE_ENV: "production", RATE_LIMITS: "off" })).toThrow(/RATE_LIMITS=off/);
    expect(() => readBackendEnv({ RATE_LIMITS: "login.ip=ten/1m" })).toThrow(
      /Invalid backend environment: RATE_LIMITS/,
    );
    expect(readBackendEnv({ NODE_ENV: "test", RATE_LIMITS: "off" }).rateLimits.enabled).toBe(false);
  });
});

describe("addressKey", () => {
  it("keeps IPv4, unwraps IPv4-mapped IPv6, counts IPv6 by its /64 and everything else as unknown", () => {
    expect(addressKey("203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("::ffff:203.0.113.7")).toBe("203.0.113.7");
    expect(addressKey("2001:db8:1:2:3:4:5:6")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:DB8:1:2::9")).toBe("2001:db8:1:2::/64");
    expect(addressKey("2001:db8::1")).toBe("2001:db8:0:0::/64");
    expect(addressKey("::1")).toBe("0:0:0:0::/64");
    expect(addressKey("fe80::1%eth0")).toBe("fe80:0:0:0::/64");
    expect(addressKey("64:ff9b::198.51.100.1")).toBe("64:ff9b:0:0::/64");
    for (const junk of [null, undefined, "", "not an address", "999.1.1.1", "1.2.3.4, 5.6.7.8"])
      expect(addressKey(junk)).toBe("unknown");
  });
});

describe("TRUST_PROXY", () => {
  it("is off by default, a hop count, or a list; never 'trust anyone'", () => {
    expect(parseTrustProxy(undefined)).toBe(false);
    expect(parseTrustProxy("0")).toBe(false);
    expect(parseTrustProxy("false")).toBe(false);
    expect(parseTrustProxy("2")).toBe(2);
    expect(parseTrustProxy("loopback, 10.0.0.0/8")).toEqual(["loopback", "10.0.0.0/8"]);
    expect(() => parseTrustProxy("true")).toThrow(/choose its address/);
    // Express checks a list when it is set: a wrong entry stops the server at start.
    expect(() => express().set("trust proxy", parseTrustProxy("10.0.0.300"))).toThrow();
  });
});

let server: Server | undefined;
afterEach(async () => {
  server?.closeAllConnections();
  await new Promise((r) => (server ? server.close(r) : r(undefined)));
  server = undefined;
});

/** What address header the server entry hands Remix for one request, with `trust` as TRUST_PROXY. */
async function seenAddress(trust: false | number | string[], headers: Record<string, string>): Promise<string | null> {
  const app = express();
  app.set("trust proxy", trust);
  app.get("/", (req, res) => void res.send(toFetchRequest(req, res).headers.get(CONTRACT_HEADER) ?? "none"));
  server = createServer(app);
  await new Promise<void>((resolve) => server!.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as { port: number }).port;
  const text = await (await fetch(`http://127.0.0.1:${port}/`, { headers })).text();
  return text === "none" ? null : text;
}

describe("the client address header", () => {
  it("has one name in the server entry and the contract", () => {
    expect(CLIENT_ADDRESS_HEADER).toBe(CONTRACT_HEADER.toLowerCase());
  });

  it("is overwritten by the server entry with the socket's address: a browser cannot choose it", async () => {
    const spoof = { [CONTRACT_HEADER]: "198.51.100.66", "X-Forwarded-For": "198.51.100.77" };
    expect(await seenAddress(false, spoof)).toBe("127.0.0.1");
    // X-Forwarded-For counts only from a peer TRUST_PROXY names.
    expect(await seenAddress(["loopback"], spoof)).toBe("198.51.100.77");
    expect(await seenAddress(["10.0.0.1"], spoof)).toBe("127.0.0.1");
  });

  it("is passed on by the request layer, and becomes X-Forwarded-For when the backend is another server", () => {
    const incoming = new Request("http://portal.test/g/main/Login/Logins", {
      headers: { [CONTRACT_HEADER]: "203.0.113.9" },
    });
    const headers = buildHeaders("/main/user/login", { request: incoming, language: "en" });
    expect(headers.get(CONTRACT_HEADER)).toBe("203.0.113.9");
    const outgoing = overHttp(
      new Request("http://backend.test/vueapi/main/user/login", { method: "POST", headers, body: "{}" }),
    );
    expect(outgoing.headers.get(CONTRACT_HEADER)).toBeNull();
    expect(outgoing.headers.get("X-Forwarded-For")).toBe("203.0.113.9");
    expect(
      buildHeaders("/main/user/login", { request: new Request("http://portal.test/"), language: "en" }).get(
        CONTRACT_HEADER,
      ),
    ).toBeNull();
  });
});
