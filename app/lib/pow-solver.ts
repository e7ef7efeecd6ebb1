/**
 * The browser's proof-of-work solver (docs/decisions/061): the number n ≤ maxnumber with
 * SHA-256(salt + n) = challenge, as altcha-lib defines it. A synchronous SHA-256 of our own on ASCII text, since
 * altcha-lib's solveChallenge awaits WebCrypto once per try (about 25 µs) and the page must finish in under a
 * second at a 4× slowdown; WebCrypto also exists only in a secure context. Runs in a Web Worker.
 */
const K = new Uint32Array([
  0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5, 0xd807aa98,
  0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786,
  0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8,
  0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13,
  0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819,
  0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a,
  0x5b9cca4f, 0x682e6ff3, 0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
  0xc67178f2,
]);
const INITIAL = [0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19];

const rotr = (x: number, n: number) => (x >>> n) | (x << (32 - n));

/** SHA-256 of ASCII `text`, as eight 32-bit words. */
export function sha256Words(text: string, w = new Uint32Array(64)): Uint32Array {
  const length = text.length;
  const blocks = Math.ceil((length + 9) / 64);
  const bytes = new Uint8Array(blocks * 64);
  for (let i = 0; i < length; i++) bytes[i] = text.charCodeAt(i);
  bytes[length] = 0x80;
  const bits = length * 8;
  bytes[bytes.length - 4] = bits >>> 24;
  bytes[bytes.length - 3] = bits >>> 16;
  bytes[bytes.length - 2] = bits >>> 8;
  bytes[bytes.length - 1] = bits;
  const h = new Uint32Array(INITIAL);
  for (let block = 0; block < blocks; block++) {
    for (let t = 0; t < 16; t++) {
      const o = block * 64 + t * 4;
      w[t] = (bytes[o]! << 24) | (bytes[o + 1]! << 16) | (bytes[o + 2]! << 8) | bytes[o + 3]!;
    }
    for (let t = 16; t < 64; t++) {
      const a = w[t - 15]!;
      const b = w[t - 2]!;
      const s0 = rotr(a, 7) ^ rotr(a, 18) ^ (a >>> 3);
      const s1 = rotr(b, 17) ^ rotr(b, 19) ^ (b >>> 10);
      w[t] = (w[t - 16]! + s0 + w[t - 7]! + s1) | 0;
    }
    let [a, b, c, d, e, f, g, hh] = h as unknown as number[];
    for (let t = 0; t < 64; t++) {
      const t1 = (hh! + (rotr(e!, 6) ^ rotr(e!, 11) ^ rotr(e!, 25)) + ((e! & f!) ^ (~e! & g!)) + K[t]! + w[t]!) | 0;
      const t2 = ((rotr(a!, 2) ^ rotr(a!, 13) ^ rotr(a!, 22)) + ((a! & b!) ^ (a! & c!) ^ (b! & c!))) | 0;
      hh = g;
      g = f;
      f = e;
      e = (d! + t1) | 0;
      d = c;
      c = b;
      b = a;
      a = (t1 + t2) | 0;
    }
    h[0] = h[0]! + a!;
    h[1] = h[1]! + b!;
    h[2] = h[2]! + c!;
    h[3] = h[3]! + d!;
    h[4] = h[4]! + e!;
    h[5] = h[5]! + f!;
    h[6] = h[6]! + g!;
    h[7] = h[7]! + hh!;
  }
  return h;
}

/** The number n in [0, maxnumber] with SHA-256(salt + n) = challenge (hex), or null. */
export function solvePow(challenge: string, salt: string, maxnumber: number): number | null {
  if (!/^[0-9a-f]{64}$/.test(challenge) || /[^\x20-\x7e]/.test(salt)) return null;
  const target = Array.from({ length: 8 }, (_, i) => parseInt(challenge.slice(i * 8, i * 8 + 8), 16) >>> 0);
  const w = new Uint32Array(64);
  for (let n = 0; n <= maxnumber; n++) {
    const h = sha256Words(salt + n, w);
    let same = true;
    for (let i = 0; i < 8 && same; i++) same = h[i] === target[i];
    if (same) return n;
  }
  return null;
}
