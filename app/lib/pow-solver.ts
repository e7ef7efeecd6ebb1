import { sha256 } from "@noble/hashes/sha2.js";

/**
 * The browser's proof-of-work solver (docs/decisions/061): the number n ≤ maxnumber with
 * SHA-256(salt + n) = challenge, as altcha-lib defines it. A synchronous SHA-256 (@noble/hashes, which viem
 * already ships), since altcha-lib's solveChallenge awaits WebCrypto once per try (about 25 µs) and the page must
 * finish in under a second at a 4× slowdown; WebCrypto also exists only in a secure context. Runs in a Web Worker.
 */
const encoder = new TextEncoder();

/** The number n in [0, maxnumber] with SHA-256(salt + n) = challenge (hex), or null. */
export function solvePow(challenge: string, salt: string, maxnumber: number): number | null {
  if (!/^[0-9a-f]{64}$/.test(challenge) || /[^\x20-\x7e]/.test(salt)) return null;
  const target = Uint8Array.from({ length: 32 }, (_, i) => parseInt(challenge.slice(i * 2, i * 2 + 2), 16));
  for (let n = 0; n <= maxnumber; n++) {
    const h = sha256(encoder.encode(salt + n));
    let same = true;
    for (let i = 0; i < 32 && same; i++) same = h[i] === target[i];
    if (same) return n;
  }
  return null;
}
