import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { ConfigurationError, readBackendEnv } from "#backend/env.ts";
import {
  checkWebhookAddress,
  ownOf,
  rangeOf,
  type AddressPolicy,
  type LookupAll,
} from "#backend/domains/alerts/webhook-address.ts";
import { signature } from "#backend/domains/alerts/webhook-send.ts";
import { webhookSchema } from "#contract/alert-webhook.ts";

/**
 * The alert webhook's address guard (docs/decisions/092): the ranges an address falls in, every resolved address
 * checked, the portal's own refused, loopback only with the test allowance (which production refuses).
 */

const names: Record<string, string[]> = {
  "hooks.example.com": ["93.184.216.34"],
  "mixed.example.com": ["93.184.216.34", "10.1.2.3"],
  "inner.example.com": ["192.168.1.20"],
  "v6.example.com": ["2606:4700::6810:85e5"],
  "mapped.example.com": ["::ffff:127.0.0.1"],
  "portal.example.com": ["93.184.216.99"],
  "alias.example.com": ["93.184.216.99"],
  "local.example.com": ["127.0.0.1"],
};
const lookup: LookupAll = async (host) => {
  const found = names[host];
  if (!found) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${host}`), { code: "ENOTFOUND" });
  return found.map((address) => ({ address, family: address.includes(":") ? 6 : 4 }));
};
const production: AddressPolicy = { allowLoopback: false, own: ownOf("https://portal.example.com"), lookup };
const tests: AddressPolicy = { allowLoopback: true, own: ownOf("http://127.0.0.1:4100"), lookup };
const reason = async (url: string, policy = production) => {
  const verdict = await checkWebhookAddress(url, policy);
  return verdict.ok ? `ok ${verdict.address}` : verdict.reason;
};

describe("rangeOf", () => {
  it.each([
    ["127.0.0.1", "loopback"],
    ["127.255.0.9", "loopback"],
    ["::1", "loopback"],
    ["::ffff:127.0.0.1", "loopback"],
    ["::ffff:7f00:1", "loopback"],
    ["10.0.0.1", "private"],
    ["172.16.0.1", "private"],
    ["172.31.255.255", "private"],
    ["192.168.0.1", "private"],
    ["100.64.0.1", "private"],
    ["fd00::1", "private"],
    ["fc00::1", "private"],
    ["169.254.169.254", "linkLocal"],
    ["fe80::1", "linkLocal"],
    ["0.0.0.0", "reserved"],
    ["::", "reserved"],
    ["224.0.0.1", "reserved"],
    ["ff02::1", "reserved"],
    ["255.255.255.255", "reserved"],
    ["not an address", "reserved"],
    ["172.32.0.1", "public"],
    ["100.128.0.1", "public"],
    ["93.184.216.34", "public"],
    ["2606:4700::6810:85e5", "public"],
  ])("%s is %s", (address, range) => {
    expect(rangeOf(address)).toBe(range);
  });
});

describe("checkWebhookAddress", () => {
  it("passes an https address whose every address is public, and answers the address to connect to", async () => {
    expect(await reason("https://hooks.example.com/alerts")).toBe("ok 93.184.216.34");
    expect(await reason("https://v6.example.com:8443/x")).toBe("ok 2606:4700::6810:85e5");
    expect(await reason("https://93.184.216.34/x")).toBe("ok 93.184.216.34");
  });

  it("refuses other schemes, credentials and what does not resolve", async () => {
    expect(await reason("http://hooks.example.com/alerts")).toBe("https");
    expect(await reason("ftp://hooks.example.com/")).toBe("https");
    expect(await reason("https://user:pw@hooks.example.com/")).toBe("format");
    expect(await reason("hooks.example.com")).toBe("format");
    expect(await reason("https://nowhere.example.com/")).toBe("unresolved");
  });

  it("refuses a name with any private address, and private, link-local and reserved literals", async () => {
    expect(await reason("https://mixed.example.com/")).toBe("private");
    expect(await reason("https://inner.example.com/")).toBe("private");
    expect(await reason("https://10.0.0.8/")).toBe("private");
    expect(await reason("https://[fd12::1]/")).toBe("private");
    expect(await reason("https://169.254.169.254/latest/meta-data")).toBe("linkLocal");
    expect(await reason("https://[fe80::1]/")).toBe("linkLocal");
    expect(await reason("https://0.0.0.0/")).toBe("reserved");
    expect(await reason("https://224.0.0.1/")).toBe("reserved");
  });

  it("refuses loopback without the allowance: the same address the tests reach with it", async () => {
    expect(await reason("https://127.0.0.1:4443/hook")).toBe("loopback");
    expect(await reason("https://[::1]:4443/hook")).toBe("loopback");
    expect(await reason("https://local.example.com/hook")).toBe("loopback");
    expect(await reason("https://mapped.example.com/hook")).toBe("loopback");
    expect(await reason("https://127.0.0.1:4443/hook", tests)).toBe("ok 127.0.0.1");
    // The allowance is for loopback only.
    expect(await reason("https://10.0.0.8/", tests)).toBe("private");
  });

  it("refuses the portal's own host and addresses", async () => {
    expect(await reason("https://portal.example.com/vueapi/x")).toBe("own");
    expect(await reason("https://PORTAL.example.com:8443/")).toBe("own");
    expect(await reason("https://alias.example.com/")).toBe("own");
    expect(await reason("https://93.184.216.99:444/")).toBe("own");
    // On loopback (tests): its own port is refused, another port is another server.
    expect(await reason("https://127.0.0.1:4100/vueapi", tests)).toBe("own");
    expect(await reason("https://127.0.0.1:4101/hook", tests)).toBe("ok 127.0.0.1");
  });
});

describe("the form's schema and the signature", () => {
  it("asks for an https address at the field", () => {
    const issues = (url: string) => {
      const parsed = webhookSchema.safeParse({ url });
      return parsed.success ? [] : parsed.error.issues.map((i) => i.message);
    };
    expect(issues("http://hooks.example.com")).toEqual(["validation.webhook.https"]);
    expect(issues("not a url")).toEqual(["validation.webhook.format"]);
    expect(issues("")).toEqual(["validation.required"]);
    expect(issues("https://hooks.example.com/a")).toEqual([]);
  });

  it("signs the timestamp and the body with HMAC-SHA256", () => {
    const at = new Date("2026-12-01T00:00:00Z");
    const header = signature("whsec_test", '{"a":1}', at);
    const t = at.getTime() / 1000;
    expect(header).toBe(`t=${t},v1=${createHmac("sha256", "whsec_test").update(`${t}.{"a":1}`).digest("hex")}`);
  });
});

describe("WEBHOOK_ALLOW_LOOPBACK", () => {
  it("is read in tests and refused in production", () => {
    const base = { DEMO: "1", DATA_DIR: "./data" };
    expect(readBackendEnv({ ...base, NODE_ENV: "test", WEBHOOK_ALLOW_LOOPBACK: "1" }).webhookAllowLoopback).toBe(true);
    expect(readBackendEnv({ ...base, NODE_ENV: "test" }).webhookAllowLoopback).toBe(false);
    expect(() => readBackendEnv({ ...base, NODE_ENV: "production", WEBHOOK_ALLOW_LOOPBACK: "1" })).toThrow(
      ConfigurationError,
    );
    expect(() => readBackendEnv({ ...base, NODE_ENV: "production", WEBHOOK_ALLOW_LOOPBACK: "1" })).toThrow(
      /WEBHOOK_ALLOW_LOOPBACK must not be set when NODE_ENV=production/,
    );
  });
});
