import { createHash, randomBytes } from "node:crypto";
import type { BackendEnv } from "#backend/env.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";

/**
 * Project keys and custody keys (docs/decisions/026). A project key is 32 random bytes (base64url, 43
 * characters): a request's key is looked up by its SHA-256, and the key is also kept sealed with the server
 * secret so that its owner can show and copy it again, as cloud consoles do. Custody private keys are sealed
 * with their own purpose, so one never opens as the other.
 */
const PROJECT_KEYS: SealPurpose = { label: "bsn-public-chain-project-key", fallbackFile: "public-chain-secret" };
const CUSTODY_KEYS: SealPurpose = { label: "bsn-public-chain-custody-key", fallbackFile: "public-chain-secret" };

export const hashKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

/** A new project key with what is stored of it. */
export function newProjectKey(env: BackendEnv) {
  const key = randomBytes(32).toString("base64url");
  return { key, keyHash: hashKey(key), keySealed: sealWith(env, PROJECT_KEYS, key), keyHint: key.slice(-4) };
}

export const openProjectKey = (env: BackendEnv, sealed: string) => openWith(env, PROJECT_KEYS, sealed);

/** A key as a URL path segment or header may carry it: base64url of 32 bytes. */
export const KEY_SHAPE = /^[A-Za-z0-9_-]{43}$/;

export const sealCustodyKey = (env: BackendEnv, privateKeyHex: string) => sealWith(env, CUSTODY_KEYS, privateKeyHex);
export const openCustodyKey = (env: BackendEnv, sealed: string) => openWith(env, CUSTODY_KEYS, sealed);
