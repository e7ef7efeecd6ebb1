import { createCipheriv, createDecipheriv, createHash, randomBytes } from "node:crypto";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import type { BackendEnv } from "#backend/env.ts";

/**
 * Values kept encrypted with a server secret (AES-256-GCM): the participation CA keys, the operators' TOTP
 * secrets. Each user of this kit names its own `purpose` (the key is derived from the secret and the
 * purpose, so one sealed value never opens as another kind) and its own fallback file.
 *
 * The server secrets, newest first: encrypt with the first, decrypt with any. SESSION_SECRET (comma-separated,
 * newest first, required with DATABASE_URL so every process shares it), else one generated once into
 * DATA_DIR/<fallbackFile> for the embedded default (independent of when the portal makes its own).
 */
export type SealPurpose = { readonly label: string; readonly fallbackFile: string };

/**
 * The deployment's secrets, newest first: SESSION_SECRET's (comma-separated), then the one kept in
 * DATA_DIR/<fallbackFile>, which is generated there (mode 600, created exclusively: two processes starting at
 * once keep the first one's) when SESSION_SECRET is unset and the file does not exist yet. Also the key source of
 * the signed links (./signed-link.ts, fallback file "session-secret", the portal's own).
 */
export function serverSecrets(env: BackendEnv, fallbackFile: string): string[] {
  const configured = (process.env.SESSION_SECRET ?? "")
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
  const file = path.join(env.dataDir, fallbackFile);
  let generated = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
  if (!configured.length && !generated) {
    mkdirSync(env.dataDir, { recursive: true });
    generated = randomBytes(32).toString("hex");
    try {
      writeFileSync(file, `${generated}\n`, { mode: 0o600, flag: existsSync(file) ? "w" : "wx" });
      chmodSync(file, 0o600);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      generated = readFileSync(file, "utf8").trim();
      if (!generated) throw error;
    }
  }
  return [...configured, ...(generated ? [generated] : [])];
}

const keyOf = (purpose: SealPurpose, secret: string) =>
  createHash("sha256").update(`${purpose.label}:${secret}`).digest();

/** `plain` encrypted with the newest server secret: "v1:" + base64(iv, tag, ciphertext). */
export function sealWith(env: BackendEnv, purpose: SealPurpose, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", keyOf(purpose, serverSecrets(env, purpose.fallbackFile)[0]), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return `v1:${Buffer.concat([iv, cipher.getAuthTag(), body]).toString("base64")}`;
}

/** A sealed value opened with whichever server secret sealed it; throws when none does. */
export function openWith(env: BackendEnv, purpose: SealPurpose, sealed: string): string {
  const raw = Buffer.from(sealed.replace(/^v1:/, ""), "base64");
  for (const secret of serverSecrets(env, purpose.fallbackFile)) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", keyOf(purpose, secret), raw.subarray(0, 12));
      decipher.setAuthTag(raw.subarray(12, 28));
      return Buffer.concat([decipher.update(raw.subarray(28)), decipher.final()]).toString("utf8");
    } catch {
      // try the next secret
    }
  }
  throw new Error("sealed value does not open with any server secret");
}
