import { Resolver, type DIDResolutionResult, type DIDResolver } from "did-resolver";
import { getResolver as keyResolver } from "key-did-resolver";
import { getResolver as webResolver } from "web-did-resolver";
import { eq } from "drizzle-orm";
import type { verifyCredential } from "did-jwt-vc";
import { DID_WEB_PLATFORM_PATH, DID_WEB_USERS_PREFIX } from "#contract/did-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { BackendEnv } from "#backend/env.ts";
import { didIdentifiers } from "./tables.ts";

/**
 * DIDs and their documents (docs/decisions/043). The portal's did:web host is PUBLIC_URL's host (with its port
 * percent-encoded, as did:web writes it): did:web:<host> is the platform, did:web:<host>:users:<handle> a user's
 * DID, served at https://<host>/users/<handle>/did.json. Resolution: did:key by key-did-resolver; the portal's
 * own did:web from the database (no network round trip); any other did:web by web-did-resolver over HTTPS.
 */

type Row = typeof didIdentifiers.$inferSelect;
/** What did-jwt-vc resolves with (its own copy of did-resolver's Resolvable). */
export type Resolvable = Parameters<typeof verifyCredential>[1];

/** The did:web host of this portal: PUBLIC_URL's host, ':' written %3A. */
export const webHostOf = (env: BackendEnv) => new URL(env.publicUrl).host.replace(":", "%3A");
export const platformDidOf = (env: BackendEnv) => `did:web:${webHostOf(env)}`;
export const userWebDidOf = (env: BackendEnv, handle: string) => `did:web:${webHostOf(env)}:users:${handle}`;
/** Where a user's did:web document is served on this portal. */
export const documentUrlOf = (env: BackendEnv, row: Pick<Row, "webHandle" | "userId" | "method">) =>
  row.method !== "web"
    ? null
    : row.userId === null
      ? `${env.publicUrl}${DID_WEB_PLATFORM_PATH}`
      : `${env.publicUrl}${DID_WEB_USERS_PREFIX}${row.webHandle}/did.json`;

/** The DID document of a did:web this portal serves: one Multikey verification method for authentication and assertion. */
export function webDocumentOf(row: Pick<Row, "did" | "publicKeyMultibase">) {
  const key = `${row.did}#key-1`;
  return {
    "@context": ["https://www.w3.org/ns/did/v1", "https://w3id.org/security/multikey/v1"],
    id: row.did,
    verificationMethod: [
      { id: key, type: "Multikey", controller: row.did, publicKeyMultibase: row.publicKeyMultibase },
    ],
    authentication: [key],
    assertionMethod: [key],
  };
}

const notFound = (): DIDResolutionResult => ({
  didResolutionMetadata: { error: "notFound" },
  didDocument: null,
  didDocumentMetadata: {},
});

/** A resolver of did:key and did:web where this portal's own did:web DIDs are read from the database. */
export function resolverFor(db: Db | Tx, env: BackendEnv): Resolvable {
  const remote = webResolver().web;
  const ownPrefix = platformDidOf(env);
  const web: DIDResolver = async (did, parsed, resolver, options) => {
    if (did === ownPrefix || did.startsWith(`${ownPrefix}:users:`)) {
      const [row] = await db.select().from(didIdentifiers).where(eq(didIdentifiers.did, did));
      if (!row || row.method !== "web") return notFound();
      return {
        didResolutionMetadata: { contentType: "application/did+ld+json" },
        didDocument: webDocumentOf(row),
        didDocumentMetadata: {},
      };
    }
    // web-did-resolver and did-jwt-vc bring their own copies of did-resolver's types (the same shapes).
    return (await remote(did, parsed, resolver as never, options)) as DIDResolutionResult;
  };
  return new Resolver({ ...keyResolver(), web }) as unknown as Resolvable;
}
