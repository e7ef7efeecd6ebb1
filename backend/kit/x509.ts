import { randomBytes, webcrypto, type KeyObject } from "node:crypto";
import * as x509 from "@peculiar/x509";

/**
 * What every certificate authority of the product shares (participation's service CAs, docs/decisions/013; a
 * dedicated network's CA, 046; the Fabric gateway's TLS CA and endorsing identities, 065): @peculiar/x509 on
 * Node's WebCrypto, ECDSA P-256 with SHA-256 (what Hyperledger Fabric uses), Node keys handed to it as WebCrypto
 * keys, and random positive serial numbers.
 */
const crypto = webcrypto as unknown as Crypto;
x509.cryptoProvider.set(crypto);

export { x509 };

/** The signing algorithm of every certificate the product issues. */
export const ECDSA_P256_SHA256 = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" } as const;

const P256 = { name: "ECDSA", namedCurve: "P-256" };

/** A Node private key as a WebCrypto signing key. */
export const toWebPrivate = (key: KeyObject) =>
  crypto.subtle.importKey("pkcs8", key.export({ type: "pkcs8", format: "der" }), P256, true, ["sign"]);

/** A Node public key as a WebCrypto verifying key. */
export const toWebPublic = (key: KeyObject) =>
  crypto.subtle.importKey("spki", key.export({ type: "spki", format: "der" }), P256, true, ["verify"]);

/** A certificate serial number: 16 random bytes, hex, as a positive INTEGER. */
export function certificateSerial(): string {
  const bytes = randomBytes(16);
  bytes[0]! &= 0x7f;
  return bytes.toString("hex");
}

/** A private key as unencrypted PKCS#8 PEM. */
export const pkcs8Pem = (key: KeyObject) => key.export({ type: "pkcs8", format: "pem" }) as string;
