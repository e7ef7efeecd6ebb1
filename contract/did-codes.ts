/**
 * Codes of the DID service (SPEC §1 "a DID service", issue 18; docs/decisions/043), without Zod, so that
 * browser code can use them without loading the schemas. contract/did.ts re-exports them.
 */

/** The DID methods a user creates: `did:key` (the key is the identifier) and `did:web` (a document this portal serves). */
export const DID_METHODS = ["key", "web"] as const;
export type DidMethod = (typeof DID_METHODS)[number];

/** The key types of a DID's key. */
export const DID_KEY_TYPES = ["Ed25519", "secp256k1"] as const;
export type DidKeyType = (typeof DID_KEY_TYPES)[number];

/** Who holds the private key: the portal (sealed at rest, signs from the page) or the user (only the public key is here). */
export const DID_CUSTODIES = ["portal", "user"] as const;
export type DidCustody = (typeof DID_CUSTODIES)[number];

/** The kinds of credential the portal issues: the platform's "enterprise certified" and a publisher's service role. */
export const CREDENTIAL_KINDS = ["enterprise", "role"] as const;
export type CredentialKind = (typeof CREDENTIAL_KINDS)[number];

/** The VC types of those kinds (after "VerifiableCredential"). */
export const CREDENTIAL_TYPE_OF: Record<CredentialKind, string> = {
  enterprise: "EnterpriseCertifiedCredential",
  role: "ServiceRoleCredential",
};

/** Why a credential did not verify (translated as did:verify.reason.<reason>). */
export const VERIFY_REASONS = [
  "malformed",
  "badSignature",
  "expired",
  "notYetValid",
  "unknownDid",
  "revoked",
  "statusUnavailable",
] as const;
export type VerifyReason = (typeof VERIFY_REASONS)[number];

/** Where this portal serves the did:web documents of its users: /users/<handle>/did.json (did:web:<host>:users:<handle>). */
export const DID_WEB_USERS_PREFIX = "/users/";
/** The platform's own did:web:<host> document. */
export const DID_WEB_PLATFORM_PATH = "/.well-known/did.json";
/** Where the status lists are published: /did-status/<list id> (a StatusList2021 credential, as a JWT). */
export const STATUS_LIST_PREFIX = "/did-status/";
/** Bits per status list: 16 KB, the smallest list StatusList2021 allows (so a list says little about its holders). */
export const STATUS_LIST_BITS = 131_072;

/** A label of a DID: 1-50 characters. */
export const DID_LABEL_MAX = 50;
/** The largest credential JWT read (pasted or uploaded). */
export const VC_JWT_MAX = 64 * 1024;
/** A public key pasted (a JWK or a multibase string). */
export const PUBLIC_KEY_MAX = 2_000;
/** How long an issued credential is valid, in days. */
export const VALID_DAYS_DEFAULT = 365;
export const VALID_DAYS_MAX = 3_650;
