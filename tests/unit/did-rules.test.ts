import { gzipSync } from "fflate";
import { describe, expect, it } from "vitest";
import { handleOfPath, isCertifiedEnterprise, listIdOfPath } from "#backend/domains/did/rules.ts";
import { bitOf } from "#backend/domains/did/status.ts";
import { reasonOf } from "#backend/domains/did/verify.ts";

// The DID service's pure rules (docs/decisions/043), by table.

const at = new Date("2026-01-01T00:00:00Z");
describe("a certified enterprise", () => {
  it.each([
    [{ userType: 2, activatedAt: at, companyName: "Co", creditCode: "911", certState: 10 }, true],
    [{ userType: 1, activatedAt: at, companyName: "Co", creditCode: "911", certState: 10 }, false],
    [{ userType: 2, activatedAt: null, companyName: "Co", creditCode: "911", certState: 10 }, false],
    [{ userType: 2, activatedAt: at, companyName: " ", creditCode: "911", certState: 10 }, false],
    [{ userType: 2, activatedAt: at, companyName: "Co", creditCode: null, certState: 10 }, false],
    // Docs/decisions/071: pending review, rejected and not submitted are not certified.
    [{ userType: 2, activatedAt: at, companyName: "Co", creditCode: "911", certState: 1 }, false],
    [{ userType: 2, activatedAt: at, companyName: "Co", creditCode: "911", certState: 5 }, false],
    [{ userType: 2, activatedAt: at, companyName: "Co", creditCode: "911", certState: 0 }, false],
  ])("%j → %s", (user, expected) => expect(isCertifiedEnterprise(user)).toBe(expected));
});

describe("the paths of the public documents", () => {
  it.each([
    ["0123456789abcdef0123/did.json", "0123456789abcdef0123"],
    ["0123456789ABCDEF0123/did.json", null],
    ["0123456789abcdef012/did.json", null],
    ["0123456789abcdef0123/did.json/x", null],
    ["../did.json", null],
  ])("handle of %s → %s", (rest, expected) => expect(handleOfPath(rest)).toBe(expected));
  it.each([
    ["1", 1],
    ["2147483647", 2147483647],
    ["2147483648", null],
    ["0", null],
    ["01", null],
    ["1x", null],
    ["", null],
  ])("list id of %s → %s", (rest, expected) => expect(listIdOfPath(rest)).toBe(expected));
});

describe("a status list's bits (bit 0 is the first byte's most significant bit)", () => {
  const bits = new Uint8Array(16);
  bits[0] = 0b1000_0001;
  bits[15] = 0b0000_0001;
  const encoded = Buffer.from(gzipSync(bits)).toString("base64url");
  it.each([
    [0, true],
    [1, false],
    [7, true],
    [8, false],
    [127, true],
    [128, null],
    [-1, null],
  ])("bit %i → %s", (index, expected) => expect(bitOf(encoded, index)).toBe(expected));
  it("an unreadable list is null", () => expect(bitOf("not-gzip", 0)).toBeNull());
});

describe("why a verification failed, from the libraries' error codes", () => {
  it.each([
    ["invalid_jwt: JWT has expired: exp: 1 < now: 2", "expired"],
    ["invalid_jwt: JWT not valid before nbf: 5", "notYetValid"],
    ["invalid_signature: no matching public key found", "badSignature"],
    ["no_suitable_keys: DID document has no key", "badSignature"],
    ["resolver_error: Unable to resolve DID document for did:web:x: notFound", "unknownDid"],
    ["invalid_argument: Incorrect format JWT", "malformed"],
    ["something else", "malformed"],
  ])("%s → %s", (message, reason) => expect(reasonOf(new Error(message))).toBe(reason));
});
