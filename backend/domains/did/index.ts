import { handlersOf } from "#backend/http/router.ts";
import { defineDomain } from "#backend/kit/domain.ts";
import type { Deps } from "#backend/deps.ts";
import { platformDidOf } from "./documents.ts";
import { credentialUpload, platformDocument, statusLists, userDocuments } from "./endpoints.ts";
import { createDid, didDetail, listDids, verify } from "./handlers/user.ts";
import {
  credentialDetail,
  credentialOptions,
  issuedCredentials,
  issueRole,
  receivedCredentials,
  requestEnterprise,
  revokeCredential,
} from "./handlers/user-credentials.ts";
import { platformCredentials, revokePlatformCredential } from "./handlers/operator.ts";
import { newKeyPair } from "./keys.ts";
import { didIdentifiers } from "./tables.ts";

/** The platform's did:web:<host> (PUBLIC_URL's host), made once with an Ed25519 key the portal holds. */
async function ensurePlatformDid(deps: Deps) {
  const key = newKeyPair(deps.env, "Ed25519");
  await deps.db
    .insert(didIdentifiers)
    .values({
      userId: null,
      did: platformDidOf(deps.env),
      label: "Platform",
      method: "web",
      keyType: key.keyType,
      custody: "portal",
      publicKeyMultibase: key.publicKeyMultibase,
      privateKeySealed: key.privateKeySealed,
      webHandle: null,
      createdAt: deps.now(),
    })
    .onConflictDoNothing();
}

/**
 * The DID service (SPEC §1, §2 DID; issue 18; contract/did.ts; docs/decisions/043): users' did:key and did:web
 * identifiers with keys the portal holds (sealed) or the user holds, verifiable credentials as JWTs issued by
 * the platform (enterprise certified) and by publishers (service roles), their revocation through published
 * StatusList2021 lists, and the verification of any credential.
 */
export default defineDomain({
  name: "did",
  handlers: handlersOf({
    "/sys/did/identifiers/list": listDids,
    "/sys/did/identifiers/create": createDid,
    "/sys/did/identifiers/detail": didDetail,
    "/sys/did/credentials/issued": issuedCredentials,
    "/sys/did/credentials/received": receivedCredentials,
    "/sys/did/credentials/detail": credentialDetail,
    "/sys/did/credentials/options": credentialOptions,
    "/sys/did/credentials/requestEnterprise": requestEnterprise,
    "/sys/did/credentials/issueRole": issueRole,
    "/sys/did/credentials/revoke": revokeCredential,
    "/sys/did/verify": verify,
    "/sys/ops/did/credentials": platformCredentials,
    "/sys/ops/did/revoke": revokePlatformCredential,
  }),
  start: ensurePlatformDid,
  endpoints: [userDocuments, platformDocument, statusLists],
  uploads: { credential: credentialUpload },
});
