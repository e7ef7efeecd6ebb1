import { mkdtempSync, readFileSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { BackendEnv } from "#backend/env.ts";
import { signFields, signLink, verifyFields, verifyLink } from "#backend/kit/signed-link.ts";

/** The signed-link kit (docs/decisions/050): purpose, expiry, the deployment's secret, constant-time MACs. */

const dirs: string[] = [];
const freshEnv = () => {
  const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-signed-link-"));
  dirs.push(dataDir);
  return { dataDir } as BackendEnv;
};
afterAll(() => dirs.forEach((d) => rmSync(d, { recursive: true, force: true })));

const saved = process.env.SESSION_SECRET;
beforeEach(() => {
  process.env.SESSION_SECRET = "signed-link-secret";
});
afterEach(() => {
  if (saved === undefined) delete process.env.SESSION_SECRET;
  else process.env.SESSION_SECRET = saved;
});

const NOW = new Date("2026-11-29T12:00:00Z");
const LATER = new Date(NOW.getTime() + 60 * 60 * 1000);
const PURPOSE = "participation-apply-ticket";
const env = freshEnv();

/** Replaces the character at `i` (negative: from the end) by another base64url character. */
const flip = (text: string, i: number) => {
  const at = i < 0 ? text.length + i : i;
  return text.slice(0, at) + (text[at] === "A" ? "B" : "A") + text.slice(at + 1);
};
const parts = (token: string) => token.split(".") as [string, string, string, string];
const b64 = (s: string) => Buffer.from(s).toString("base64url");

type Case = {
  name: string;
  /** The token to verify, from a genuine one for PURPOSE, payload "12.34", valid until LATER. */
  token: (genuine: string) => string;
  purpose?: string;
  now?: Date;
  /** Verified under another deployment secret. */
  secret?: string;
  expected: string | null;
};

describe("signLink / verifyLink", () => {
  const cases: Case[] = [
    { name: "round trip", token: (t) => t, expected: "12.34" },
    { name: "round trip at the last second of its expiry", token: (t) => t, now: LATER, expected: "12.34" },
    { name: "wrong purpose", token: (t) => t, purpose: "service-invitation", expected: null },
    { name: "expired", token: (t) => t, now: new Date(LATER.getTime() + 1000), expected: null },
    {
      name: "tampered payload (another user's ticket)",
      token: (t) => {
        const [v, e, , m] = parts(t);
        return [v, e, b64("13.34"), m].join(".");
      },
      expected: null,
    },
    {
      name: "tampered expiry (extended)",
      token: (t) => {
        const [v, e, p, m] = parts(t);
        return [v, String(Number(e) + 86_400), p, m].join(".");
      },
      now: new Date(LATER.getTime() + 1000),
      expected: null,
    },
    { name: "tampered signature (last character)", token: (t) => flip(t, -1), expected: null },
    { name: "tampered signature (first character)", token: (t) => flip(t, t.lastIndexOf(".") + 1), expected: null },
    { name: "signature cut short", token: (t) => t.slice(0, -1), expected: null },
    { name: "another key", token: (t) => t, secret: "another-deployment", expected: null },
    { name: "another version", token: (t) => t.replace(/^v1\./, "v2."), expected: null },
    { name: "no version prefix", token: (t) => t.replace(/^v1\./, ""), expected: null },
    { name: "empty", token: () => "", expected: null },
  ];
  it.each(cases)("$name", ({ token, purpose, now, secret, expected }) => {
    const genuine = signLink(env, PURPOSE, "12.34", LATER);
    if (secret) process.env.SESSION_SECRET = secret;
    expect(verifyLink(env, purpose ?? PURPOSE, token(genuine), now ?? NOW)).toBe(expected);
  });

  it("a token is the version, the expiry, the payload and the MAC, all base64url", () => {
    const token = signLink(env, PURPOSE, "12.34", LATER);
    expect(token).toMatch(/^v1\.\d+\.[\w-]+\.[\w-]{22}$/);
    expect(parts(token)[1]).toBe(String(LATER.getTime() / 1000));
    expect(verifyLink(env, PURPOSE, undefined, NOW)).toBeNull();
  });

  it("signs with the newest secret and verifies with any (rotation)", () => {
    process.env.SESSION_SECRET = "old";
    const old = signLink(env, PURPOSE, "12.34", LATER);
    process.env.SESSION_SECRET = "new, old";
    const fresh = signLink(env, PURPOSE, "12.34", LATER);
    expect(fresh).not.toBe(old);
    expect(verifyLink(env, PURPOSE, old, NOW)).toBe("12.34");
    process.env.SESSION_SECRET = "new";
    expect(verifyLink(env, PURPOSE, old, NOW)).toBeNull();
    expect(verifyLink(env, PURPOSE, fresh, NOW)).toBe("12.34");
  });

  it("refuses a purpose that is not lower-case words", () => {
    expect(() => signLink(env, "Apply:ticket", "x", LATER)).toThrow(/purpose/);
  });
});

describe("signFields / verifyFields (detached, the invitation link's c)", () => {
  const fields = ["42", "APP1A2B", "en"];
  const expiry = LATER.getTime() / 1000;
  type FieldCase = {
    name: string;
    fields?: string[];
    expiry?: number;
    signature?: (genuine: string) => string;
    purpose?: string;
    now?: Date;
    secret?: string;
    expected: boolean;
  };
  const cases: FieldCase[] = [
    { name: "round trip", expected: true },
    { name: "wrong purpose", purpose: PURPOSE, expected: false },
    { name: "expired", now: new Date(LATER.getTime() + 1000), expected: false },
    { name: "tampered field (another service)", fields: ["43", "APP1A2B", "en"], expected: false },
    { name: "fields shifted across the separator", fields: ["42.APP1A2B", "en"], expected: false },
    { name: "tampered expiry (extended)", expiry: expiry + 86_400, expected: false },
    { name: "tampered signature", signature: (s) => flip(s, -1), expected: false },
    { name: "version prefix removed", signature: (s) => s.slice(2), expected: false },
    { name: "another key", secret: "another-deployment", expected: false },
  ];
  it.each(cases)("$name", (c) => {
    const genuine = signFields(env, "service-invitation", fields, expiry);
    if (c.secret) process.env.SESSION_SECRET = c.secret;
    const signature = c.signature ? c.signature(genuine) : genuine;
    expect(
      verifyFields(
        env,
        c.purpose ?? "service-invitation",
        c.fields ?? fields,
        c.expiry ?? expiry,
        signature,
        c.now ?? NOW,
      ),
    ).toBe(c.expected);
  });

  it("is 22 base64url characters, so the invitation link keeps its shape", () => {
    expect(signFields(env, "service-invitation", fields, expiry)).toMatch(/^v1[\w-]{20}$/);
  });
});

describe("the key source without SESSION_SECRET", () => {
  it("is DATA_DIR/session-secret (generated once, mode 600), never a value derived from DATA_DIR's path", () => {
    delete process.env.SESSION_SECRET;
    const mine = freshEnv();
    const token = signLink(mine, PURPOSE, "12.34", LATER);
    const file = path.join(mine.dataDir, "session-secret");
    expect(readFileSync(file, "utf8").trim()).toMatch(/^[0-9a-f]{64}$/);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(verifyLink(mine, PURPOSE, token, NOW)).toBe("12.34");
    // Another embedded deployment has its own secret: the token does not verify there.
    expect(verifyLink(freshEnv(), PURPOSE, token, NOW)).toBeNull();
  });
});
