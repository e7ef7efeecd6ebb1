import { randomBytes, scrypt, timingSafeEqual } from "node:crypto";
import pLimit from "p-limit";

/**
 * Passwords kept as scrypt hashes, "scrypt$<salt>$<hash>" (base64; N 16384, r 8, p 1, 32 bytes): the dedicated
 * gateways' authorized users (docs/decisions/046) and the DDC QR-code passwords (045). Each run costs tens of
 * milliseconds of a libuv thread, which file and DNS work share: at most two run at once in this process, the
 * others wait their turn, so a flood of guesses at a door slows only the guesses (docs/decisions/062).
 */
const KEY_BYTES = 32;
const SCRYPT = { N: 16384, r: 8, p: 1 };
const running = pLimit(2);

/** `nfkc`: the password is compared after NFKC normalisation (what the DDC passwords were hashed with). */
export type HashOptions = { nfkc?: boolean };

function derive(password: string, salt: Buffer, length: number, options: HashOptions): Promise<Buffer> {
  const text = options.nfkc ? password.normalize("NFKC") : password;
  return running(
    () =>
      new Promise<Buffer>((resolve, reject) =>
        scrypt(text, salt, length, SCRYPT, (error, key) => (error ? reject(error) : resolve(key))),
      ),
  );
}

export async function hashPassword(password: string, options: HashOptions = {}): Promise<string> {
  const salt = randomBytes(16);
  return `scrypt$${salt.toString("base64")}$${(await derive(password, salt, KEY_BYTES, options)).toString("base64")}`;
}

export async function passwordMatches(password: string, stored: string, options: HashOptions = {}): Promise<boolean> {
  const [kind, salt, hash] = stored.split("$");
  if (kind !== "scrypt" || !salt || !hash) return false;
  const expected = Buffer.from(hash, "base64");
  if (expected.length === 0) return false;
  const actual = await derive(password, Buffer.from(salt, "base64"), expected.length, options);
  return timingSafeEqual(actual, expected);
}
