import { and, eq, isNull } from "drizzle-orm";
import { DID_WEB_PLATFORM_PATH, DID_WEB_USERS_PREFIX, STATUS_LIST_PREFIX } from "#contract/did-codes.ts";
import type { Deps } from "#backend/deps.ts";
import type { Endpoint } from "#backend/kit/domain.ts";
import type { UploadRule } from "#backend/kit/uploads.ts";
import { platformDidOf, webDocumentOf } from "./documents.ts";
import { handleOfPath, listIdOfPath } from "./rules.ts";
import { statusListJwt } from "./status.ts";
import { didIdentifiers } from "./tables.ts";

/**
 * The public documents of the DID service (docs/decisions/043), outside /vueapi: the did:web documents at their
 * standard paths, and the status lists. Anyone may read them (that is what they are for); they hold public keys
 * and revocation bits only.
 */

const notFound = () =>
  new Response("Not found", { status: 404, headers: { "Content-Type": "text/plain; charset=utf-8" } });
const didJson = (body: unknown) =>
  new Response(JSON.stringify(body), {
    status: 200,
    headers: {
      "Content-Type": "application/did+ld+json",
      "Cache-Control": "public, max-age=60",
      "Access-Control-Allow-Origin": "*",
    },
  });

async function documentOf(deps: Deps, handle: string | null) {
  const where =
    handle === null
      ? and(eq(didIdentifiers.did, platformDidOf(deps.env)), isNull(didIdentifiers.userId))
      : and(eq(didIdentifiers.webHandle, handle), eq(didIdentifiers.method, "web"));
  const [row] = await deps.db.select().from(didIdentifiers).where(where);
  return row ? webDocumentOf(row) : null;
}

/** did:web:<host>:users:<handle> → GET /users/<handle>/did.json */
export const userDocuments: Endpoint = {
  methods: ["GET", "HEAD"],
  path: DID_WEB_USERS_PREFIX,
  auth: "public",
  bodyLimitBytes: 1024,
  ratePerMinute: 600,
  async handle(request, deps) {
    const handle = handleOfPath(new URL(request.url).pathname.slice(DID_WEB_USERS_PREFIX.length));
    const doc = handle ? await documentOf(deps, handle) : null;
    return doc ? didJson(doc) : notFound();
  },
};

/** did:web:<host> (the platform) → GET /.well-known/did.json */
export const platformDocument: Endpoint = {
  methods: ["GET", "HEAD"],
  path: DID_WEB_PLATFORM_PATH,
  auth: "public",
  bodyLimitBytes: 1024,
  ratePerMinute: 600,
  async handle(request, deps) {
    if (new URL(request.url).pathname !== DID_WEB_PLATFORM_PATH) return notFound();
    const doc = await documentOf(deps, null);
    return doc ? didJson(doc) : notFound();
  },
};

/** GET /did-status/<id>: the status list credential, a JWT signed by its issuer. */
export const statusLists: Endpoint = {
  methods: ["GET", "HEAD"],
  path: STATUS_LIST_PREFIX,
  auth: "public",
  bodyLimitBytes: 1024,
  ratePerMinute: 600,
  async handle(request, deps) {
    const id = listIdOfPath(new URL(request.url).pathname.slice(STATUS_LIST_PREFIX.length));
    const jwt = id ? await statusListJwt(deps.db, deps.env, id, deps.now()) : null;
    if (!jwt) return notFound();
    return new Response(jwt, {
      status: 200,
      headers: {
        "Content-Type": "application/vc+jwt",
        "Cache-Control": "no-store",
        "Access-Control-Allow-Origin": "*",
      },
    });
  },
};

/** A credential file to verify: a JWT as text, .jwt or .txt (contract/uploads.ts `credential`). */
export const credentialUpload: UploadRule = {
  nameProblem: (name) => (/\.(jwt|txt)$/i.test(name) ? null : "did:verify.fileType"),
  messages: {
    required: "did:verify.fileRequired",
    tooLarge: "did:verify.fileTooLarge",
    extension: "did:verify.fileType",
    wrongType: "did:verify.fileType",
  },
};
