import { createHash, randomBytes } from "node:crypto";
import type { BackendEnv } from "#backend/env.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";

/**
 * Upload and download keys (SPEC §4 IPFS key; docs/decisions/039): 32 random bytes (base64url, 43 characters)
 * behind an `ipfs_` prefix, looked up by SHA-256 and kept sealed so that their owner can show them again.
 */
const IPFS_KEYS: SealPurpose = { label: "bsn-ipfs-key", fallbackFile: "ipfs-secret" };

export const hashKey = (key: string) => createHash("sha256").update(key, "utf8").digest("hex");

export function newKey(env: BackendEnv, kind: "upload" | "download") {
  const key = `ipfs_${kind === "upload" ? "up" : "dl"}_${randomBytes(32).toString("base64url")}`;
  return { key, keyHash: hashKey(key), keySealed: sealWith(env, IPFS_KEYS, key), keyHint: key.slice(-4) };
}

export const openKey = (env: BackendEnv, sealed: string) => openWith(env, IPFS_KEYS, sealed);

/** A key as a header may carry it. */
export const KEY_SHAPE = /^ipfs_(up|dl)_[A-Za-z0-9_-]{43}$/;
