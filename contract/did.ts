import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { required } from "./rules.ts";
import { uploadIdSchema } from "./uploads.ts";
import {
  CREDENTIAL_KINDS,
  DID_CUSTODIES,
  DID_KEY_TYPES,
  DID_LABEL_MAX,
  DID_METHODS,
  PUBLIC_KEY_MAX,
  VALID_DAYS_DEFAULT,
  VALID_DAYS_MAX,
  VC_JWT_MAX,
  VERIFY_REASONS,
} from "./did-codes.ts";
export * from "./did-codes.ts";

/*
 * The DID service (SPEC §1, §2 DID; issue 18; docs/decisions/043): a user's decentralised identifiers
 * (did:key, did:web served by this portal), the verifiable credentials the platform and service publishers
 * issue as JWTs, their revocation through published status lists, and the verification of any credential.
 */

const id = () => z.number().int().positive();

export const didSchema = z.object({
  didId: z.number().int(),
  did: z.string(),
  label: z.string(),
  method: z.enum(DID_METHODS),
  keyType: z.enum(DID_KEY_TYPES),
  custody: z.enum(DID_CUSTODIES),
  /** The public key, multibase (base58btc with its multicodec): the did:key suffix. */
  publicKeyMultibase: z.string(),
  /** Where a did:web document is served (https URL); null for did:key. */
  documentUrl: z.string().nullable(),
  createdAt: z.string(),
});
export type DidRecord = z.infer<typeof didSchema>;

/** The form of a new DID: a portal-held key is generated; a user-held one is pasted (a public JWK or multibase). */
export const didCreateSchema = z
  .object({
    label: required().pipe(z.string().max(DID_LABEL_MAX, "validation.tooLong")),
    method: z.enum(DID_METHODS, "validation.required"),
    custody: z.enum(DID_CUSTODIES, "validation.required"),
    keyType: z.enum(DID_KEY_TYPES, "validation.required"),
    publicKey: z.string().trim().max(PUBLIC_KEY_MAX, "validation.tooLong").optional(),
  })
  .superRefine((v, ctx) => {
    if (v.custody === "user" && !v.publicKey)
      ctx.addIssue({ code: "custom", path: ["publicKey"], message: "did:form.publicKeyRequired" });
  });

export const credentialSchema = z.object({
  credentialId: z.number().int(),
  kind: z.enum(CREDENTIAL_KINDS),
  issuerDid: z.string(),
  /** The issuing user's account name; null when the platform issued it. */
  issuerName: z.string().nullable(),
  subjectDid: z.string(),
  /** What the credential says about its subject. */
  claims: z.record(z.string(), z.unknown()),
  issuedAt: z.string(),
  expiresAt: z.string(),
  revokedAt: z.string().nullable(),
  statusListUrl: z.string(),
  statusIndex: z.number().int(),
  /** The caller issued it (and so may revoke it). */
  mine: z.boolean(),
  /** The JWT itself: in the detail only. */
  jwt: z.string().nullable(),
});
export type CredentialRecord = z.infer<typeof credentialSchema>;

/** The platform's "enterprise certified" credential, to one of the caller's DIDs (a certified enterprise). */
export const enterpriseRequestSchema = z.object({
  subjectDidId: z.coerce.number({ error: "validation.required" }).int().positive("validation.required"),
});

const DID_RE = /^did:[a-z0-9]+:[A-Za-z0-9._:%-]+$/;
/** A publisher's role credential to a participant of one of their services, signed by one of their portal-held DIDs. */
export const roleIssueSchema = z.object({
  issuerDidId: z.coerce.number({ error: "validation.required" }).int().positive("validation.required"),
  appJoinAuditId: z.coerce.number({ error: "validation.required" }).int().positive("validation.required"),
  subjectDid: required().pipe(z.string().max(500, "validation.tooLong").regex(DID_RE, "did:form.subjectDidFormat")),
  validDays: z.coerce
    .number({ error: "validation.invalid" })
    .int("validation.invalid")
    .min(1, "validation.invalid")
    .max(VALID_DAYS_MAX, "validation.invalid")
    .default(VALID_DAYS_DEFAULT),
});

/** A credential to verify: pasted (jwt) or uploaded beforehand (uploadId). */
export const verifySchema = z.object({
  jwt: z.string().trim().max(VC_JWT_MAX, "validation.tooLong").optional(),
  uploadId: uploadIdSchema.optional(),
});

export const verificationSchema = z.object({
  verified: z.boolean(),
  reason: z.enum(VERIFY_REASONS).nullable(),
  /** What the JWT says, read even when it did not verify (null when it cannot be read at all). */
  issuer: z.string().nullable(),
  subject: z.string().nullable(),
  types: z.array(z.string()),
  claims: z.record(z.string(), z.unknown()),
  issuedAt: z.string().nullable(),
  validFrom: z.string().nullable(),
  validUntil: z.string().nullable(),
  /** The credential's status entry: its list, index and whether the list marks it revoked (null: not read). */
  status: z.object({ listUrl: z.string(), index: z.number().int(), revoked: z.boolean().nullable() }).nullable(),
});
export type Verification = z.infer<typeof verificationSchema>;

/** A participant of one of the caller's services, to whom a role credential may be issued. */
export const participantSchema = z.object({
  appJoinAuditId: z.number().int(),
  appName: z.string(),
  appCode: z.string(),
  roleName: z.string(),
  userName: z.string(),
});

const listPayload = z.object({ ...pagingFields });

export const didPaths = {
  "/sys/did/identifiers/list": { auth: "user", permission: "read", payload: listPayload, data: pageOf(didSchema) },
  /** A new DID of the caller: did:key or did:web, its key generated and sealed here or pasted (public part only). */
  "/sys/did/identifiers/create": { auth: "user", permission: "services", payload: didCreateSchema, data: didSchema },
  /** One of the caller's DIDs with its resolved document. */
  "/sys/did/identifiers/detail": {
    auth: "user",
    permission: "read",
    payload: z.object({ didId: id() }),
    data: didSchema.extend({ document: z.record(z.string(), z.unknown()) }),
  },
  "/sys/did/credentials/issued": {
    auth: "user",
    permission: "read",
    payload: listPayload,
    data: pageOf(credentialSchema),
  },
  "/sys/did/credentials/received": {
    auth: "user",
    permission: "read",
    payload: listPayload,
    data: pageOf(credentialSchema),
  },
  /** A credential the caller issued or holds (by the subject DID being theirs). */
  "/sys/did/credentials/detail": {
    auth: "user",
    permission: "read",
    payload: z.object({ credentialId: id() }),
    data: credentialSchema,
  },
  /** What the caller may issue with: their portal-held DIDs, their services' participants, their own DIDs and whether they are a certified enterprise. */
  "/sys/did/credentials/options": {
    auth: "user",
    permission: "read",
    payload: z.object({}),
    data: z.object({
      issuerDids: z.array(didSchema),
      participants: z.array(participantSchema),
      ownDids: z.array(didSchema),
      certifiedEnterprise: z.boolean(),
      /** The account's enterprise certification state (docs/decisions/071), to say why it is not certified yet. */
      certState: z.number().int(),
      userType: z.number().int(),
    }),
  },
  "/sys/did/credentials/requestEnterprise": {
    auth: "user",
    permission: "services",
    payload: enterpriseRequestSchema,
    data: credentialSchema,
  },
  "/sys/did/credentials/issueRole": {
    auth: "user",
    permission: "services",
    payload: roleIssueSchema,
    data: credentialSchema,
  },
  /** The issuer revokes: the credential's bit in its status list is set. */
  "/sys/did/credentials/revoke": {
    auth: "user",
    permission: "services",
    payload: z.object({ credentialId: id() }),
    data: credentialSchema,
  },
  "/sys/did/verify": { auth: "user", permission: "read", payload: verifySchema, data: verificationSchema },
  /** Operators: the credentials the platform's did:web issued (enterprise certified), the latest first. */
  "/sys/ops/did/credentials": { auth: "operator", payload: listPayload, data: pageOf(credentialSchema) },
  /** Operators revoke a platform-issued credential (its bit in the platform's status list); another is not found. */
  "/sys/ops/did/revoke": { auth: "operator", payload: z.object({ credentialId: id() }), data: credentialSchema },
} satisfies Record<string, PathSpec>;

/** The Verify page's form: a pasted JWT (the file field is checked by the upload path). */
export const verifyFormSchema = z.object({ jwt: z.string().trim().max(VC_JWT_MAX, "validation.tooLong").optional() });
