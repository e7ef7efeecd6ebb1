import { createHash } from "node:crypto";
import { createChallenge } from "altcha-lib";
import { sha256Words, solvePow } from "#app/lib/pow-solver.ts";

/** The page's proof-of-work solver (docs/decisions/061) agrees with SHA-256 and solves altcha-lib's challenges. */
describe("the page's proof-of-work solver", () => {
  it("hashes as SHA-256 does, across block boundaries", () => {
    for (const text of [
      "",
      "abc",
      "x".repeat(55),
      "y".repeat(56),
      "z".repeat(64),
      "salt?expires=1&".repeat(9) + "42",
    ]) {
      const hex = [...sha256Words(text)].map((word) => word.toString(16).padStart(8, "0")).join("");
      expect(hex).toBe(createHash("sha256").update(text).digest("hex"));
    }
  });

  it("finds the number of an altcha-lib challenge, and none beyond maxnumber", async () => {
    const c = await createChallenge({ hmacKey: "k", number: 1234, maxnumber: 5000, expires: new Date(2100, 0) });
    expect(solvePow(c.challenge, c.salt, 5000)).toBe(1234);
    expect(solvePow(c.challenge, c.salt, 1000)).toBeNull();
  });
});
