import { describe, expect, it } from "vitest";
import {
  basicCredentials,
  basicHeader,
  credentialsProblem,
  hashPassword,
  passwordMatches,
  sameText,
} from "#backend/domains/chain/dedicated/credentials.ts";
import { RequestCounter } from "#backend/domains/chain/dedicated/network.ts";

// docs/decisions/046: the gateway's Basic credentials, the scrypt hash of its password, the per-node request counter.
describe("dedicated network credentials", () => {
  it("parses Basic headers, passwords with colons included, and refuses other schemes", () => {
    expect(basicCredentials(basicHeader({ user: "alice", password: "a:b:c" }))).toEqual({
      user: "alice",
      password: "a:b:c",
    });
    expect(basicCredentials(`basic ${Buffer.from("bob:").toString("base64")}`)).toEqual({ user: "bob", password: "" });
    expect(basicCredentials(`Bearer ${Buffer.from("alice:x").toString("base64")}`)).toBeNull();
    expect(basicCredentials(`Basic ${Buffer.from("no-colon").toString("base64")}`)).toBeNull();
    expect(basicCredentials(null)).toBeNull();
    expect(basicCredentials("Basic !!!")).toBeNull();
  });

  it("hashes with scrypt and salt, and matches only the same password", async () => {
    const a = await hashPassword("secret123");
    const b = await hashPassword("secret123");
    expect(a).toMatch(/^scrypt\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    expect(a).not.toBe(b);
    expect(await passwordMatches("secret123", a)).toBe(true);
    expect(await passwordMatches("secret124", a)).toBe(false);
    expect(await passwordMatches("secret123", "plain")).toBe(false);
    expect(sameText("alice", "alice")).toBe(true);
    expect(sameText("alice", "alicf")).toBe(false);
  });

  it("checks the user name and password shapes", () => {
    expect(credentialsProblem({ user: "alice", password: "x" })).toBeNull();
    expect(credentialsProblem({ user: "al:ice", password: "x" })).toMatch(/colon/);
    expect(credentialsProblem({ user: "", password: "x" })).toMatch(/user/);
    expect(credentialsProblem({ user: "alice", password: "" })).toMatch(/password/);
    expect(credentialsProblem({ user: "alice", password: "x".repeat(129) })).toMatch(/password/);
  });

  it("counts the requests of the last 60 seconds", () => {
    const counter = new RequestCounter();
    const t = 1_700_000_000_000;
    counter.hit(t);
    counter.hit(t + 30_000);
    counter.hit(t + 59_000);
    expect(counter.perMinute(t + 59_500)).toBe(3);
    expect(counter.perMinute(t + 61_000)).toBe(2);
    expect(counter.perMinute(t + 200_000)).toBe(0);
  });
});
