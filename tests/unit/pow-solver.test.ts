import { createChallenge } from "altcha-lib";
import { solvePow } from "#app/lib/pow-solver.ts";

/** The page's proof-of-work solver (docs/decisions/061) solves altcha-lib's challenges. */
describe("the page's proof-of-work solver", () => {
  it("finds the number of an altcha-lib challenge, and none beyond maxnumber", async () => {
    const c = await createChallenge({ hmacKey: "k", number: 1234, maxnumber: 5000, expires: new Date(2100, 0) });
    expect(solvePow(c.challenge, c.salt, 5000)).toBe(1234);
    expect(solvePow(c.challenge, c.salt, 1000)).toBeNull();
  });
});
