import { createHash } from "node:crypto";

export type Challenge = { algorithm: string; challenge: string; maxnumber: number; salt: string; signature: string };

/**
 * A quick solver for tests: Node's synchronous SHA-256 (much faster per try than altcha-lib's solveChallenge,
 * which awaits WebCrypto for each number). Answers the solution as the page submits it (base64 JSON).
 */
export function solvePow(pow: Challenge): string {
  for (let number = 0; number <= pow.maxnumber; number++)
    if (createHash("sha256").update(`${pow.salt}${number}`).digest("hex") === pow.challenge)
      return powPayload(pow, number);
  throw new Error("no solution");
}

export function powPayload(pow: Challenge, number: number): string {
  const { algorithm, challenge, salt, signature } = pow;
  return Buffer.from(JSON.stringify({ algorithm, challenge, number, salt, signature })).toString("base64");
}
