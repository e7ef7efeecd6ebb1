import { createPublicKey, ECDH, generateKeyPairSync } from "node:crypto";
import { bytesToMultibase, EdDSASigner, ES256KSigner, multibaseToBytes, type Signer } from "did-jwt";
import type { DidKeyType } from "#contract/did-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { BackendEnv } from "#backend/env.ts";
import { fieldError } from "#backend/http/errors.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";

/**
 * The keys of DIDs (docs/decisions/043): Ed25519 and secp256k1 pairs made with node:crypto, their public keys
 * as multibase (base58btc with the multicodec: the did:key suffix, and the `publicKeyMultibase` of a Multikey
 * verification method), their private keys sealed at rest, and the public keys users paste (a JWK or multibase).
 */

const SEAL: SealPurpose = { label: "did-private-key", fallbackFile: "did-keys.secret" };
const CODEC = { Ed25519: "ed25519-pub", secp256k1: "secp256k1-pub" } as const;
const b64 = (s: string) => Buffer.from(s, "base64url");

export type KeyPair = { keyType: DidKeyType; publicKeyMultibase: string; privateKeySealed: string };

const compress = (x: Buffer, y: Buffer) =>
  ECDH.convertKey(Buffer.concat([Buffer.from([4]), x, y]), "secp256k1", undefined, undefined, "compressed") as Buffer;

/** A new key pair; its private key (the JWK's `d`) sealed with the server secret. */
export function newKeyPair(env: BackendEnv, keyType: DidKeyType): KeyPair {
  const pair =
    keyType === "Ed25519" ? generateKeyPairSync("ed25519") : generateKeyPairSync("ec", { namedCurve: "secp256k1" });
  const jwk = pair.privateKey.export({ format: "jwk" });
  const pub = keyType === "Ed25519" ? b64(jwk.x!) : compress(b64(jwk.x!), b64(jwk.y!));
  return {
    keyType,
    publicKeyMultibase: bytesToMultibase(pub, "base58btc", CODEC[keyType]),
    privateKeySealed: sealWith(env, SEAL, jwk.d!),
  };
}

/** The JWT signer and algorithm of a sealed private key. */
export function signerOf(
  env: BackendEnv,
  keyType: DidKeyType,
  privateKeySealed: string,
): { signer: Signer; alg: "EdDSA" | "ES256K" } {
  const d = b64(openWith(env, SEAL, privateKeySealed));
  return keyType === "Ed25519" ? { signer: EdDSASigner(d), alg: "EdDSA" } : { signer: ES256KSigner(d), alg: "ES256K" };
}

const invalid = () => fieldError("publicKey", Msg.DID_KEY_INVALID, Msg.DID_KEY_INVALID);

function checkedEd25519(x: Buffer): Buffer {
  if (x.length !== 32) throw invalid();
  try {
    createPublicKey({ key: { kty: "OKP", crv: "Ed25519", x: x.toString("base64url") }, format: "jwk" });
  } catch {
    throw invalid();
  }
  return x;
}
function checkedSecp256k1(point: Buffer): Buffer {
  try {
    return ECDH.convertKey(point, "secp256k1", undefined, undefined, "compressed") as Buffer;
  } catch {
    throw invalid();
  }
}

/**
 * A public key a user pasted: a JWK (OKP Ed25519 or EC secp256k1) or multibase with its multicodec
 * (ed25519-pub, secp256k1-pub). A JWK with a private part (`d`) is refused: the private key stays with its user.
 */
export function parsePublicKey(text: string): { keyType: DidKeyType; publicKeyMultibase: string } {
  const raw = text.trim();
  if (raw.startsWith("{")) {
    let jwk: Record<string, unknown>;
    try {
      jwk = JSON.parse(raw) as Record<string, unknown>;
    } catch {
      throw invalid();
    }
    if (typeof jwk !== "object" || jwk === null) throw invalid();
    if ("d" in jwk) throw fieldError("publicKey", Msg.DID_PRIVATE_KEY_GIVEN, Msg.DID_PRIVATE_KEY_GIVEN);
    if (jwk.kty === "OKP" && jwk.crv === "Ed25519" && typeof jwk.x === "string") {
      return {
        keyType: "Ed25519",
        publicKeyMultibase: bytesToMultibase(checkedEd25519(b64(jwk.x)), "base58btc", CODEC.Ed25519),
      };
    }
    if (jwk.kty === "EC" && jwk.crv === "secp256k1" && typeof jwk.x === "string" && typeof jwk.y === "string") {
      const point = checkedSecp256k1(Buffer.concat([Buffer.from([4]), b64(jwk.x), b64(jwk.y)]));
      return { keyType: "secp256k1", publicKeyMultibase: bytesToMultibase(point, "base58btc", CODEC.secp256k1) };
    }
    throw invalid();
  }
  let decoded: { keyBytes: Uint8Array; keyType: string };
  try {
    decoded = multibaseToBytes(raw) as { keyBytes: Uint8Array; keyType: string };
  } catch {
    throw invalid();
  }
  if (decoded.keyType === "Ed25519")
    return {
      keyType: "Ed25519",
      publicKeyMultibase: bytesToMultibase(checkedEd25519(Buffer.from(decoded.keyBytes)), "base58btc", CODEC.Ed25519),
    };
  if (decoded.keyType === "Secp256k1")
    return {
      keyType: "secp256k1",
      publicKeyMultibase: bytesToMultibase(
        checkedSecp256k1(Buffer.from(decoded.keyBytes)),
        "base58btc",
        CODEC.secp256k1,
      ),
    };
  throw invalid();
}
