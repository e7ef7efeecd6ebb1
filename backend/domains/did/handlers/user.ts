import { randomBytes } from "node:crypto";
import { count, desc, eq } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { fieldError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { resolverFor, userWebDidOf, webDocumentOf } from "#backend/domains/did/documents.ts";
import { newKeyPair, parsePublicKey } from "#backend/domains/did/keys.ts";
import { didIdentifiers } from "#backend/domains/did/tables.ts";
import { verifyJwt } from "#backend/domains/did/verify.ts";
import { didOut, ownDid, type Ctx } from "./shared.ts";

/* ------------------------------------------------ identifiers ------------------------------------------------ */

export async function listDids(input: Payload<"/sys/did/identifiers/list">, ctx: Ctx) {
  const db = ctx.deps.db;
  const where = eq(didIdentifiers.userId, ctx.user.id);
  const [{ total }] = await db.select({ total: count() }).from(didIdentifiers).where(where);
  const rows = await db
    .select()
    .from(didIdentifiers)
    .where(where)
    .orderBy(desc(didIdentifiers.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return {
    page: {
      rows: rows.map((r) => didOut(ctx.deps.env, r)),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

/**
 * A new DID: a portal-held key is generated (its private part sealed, never answered); a user-held one is the
 * public key pasted, whose type it tells. did:key is the key itself; did:web gets a random handle under /users/.
 */
export async function createDid(input: Payload<"/sys/did/identifiers/create">, ctx: Ctx) {
  const env = ctx.deps.env;
  const key =
    input.custody === "portal"
      ? newKeyPair(env, input.keyType)
      : { ...parsePublicKey(input.publicKey ?? ""), privateKeySealed: null };
  const webHandle = input.method === "web" ? randomBytes(10).toString("hex") : null;
  const did = webHandle ? userWebDidOf(env, webHandle) : `did:key:${key.publicKeyMultibase}`;
  const [row] = await ctx.deps.db
    .insert(didIdentifiers)
    .values({
      userId: ctx.user.id,
      did,
      label: input.label,
      method: input.method,
      keyType: key.keyType,
      custody: input.custody,
      publicKeyMultibase: key.publicKeyMultibase,
      privateKeySealed: key.privateKeySealed,
      webHandle,
      createdAt: ctx.deps.now(),
    })
    .onConflictDoNothing()
    .returning();
  if (!row) throw fieldError("publicKey", Msg.DID_EXISTS, Msg.DID_EXISTS);
  return didOut(env, row);
}

/** One of the caller's DIDs with its document as a resolver gives it (key-did-resolver for did:key; this portal's for did:web). */
export async function didDetail(input: Payload<"/sys/did/identifiers/detail">, ctx: Ctx) {
  const row = await ownDid(ctx.deps.db, ctx.user.id, input.didId);
  const document =
    row.method === "web"
      ? webDocumentOf(row)
      : ((await resolverFor(ctx.deps.db, ctx.deps.env).resolve(row.did)).didDocument ?? {});
  return { ...didOut(ctx.deps.env, row), document: document as Record<string, unknown> };
}

/** Verifies a pasted credential or an uploaded one (the upload claimed here: it is used once). */
export async function verify(input: Payload<"/sys/did/verify">, ctx: Ctx) {
  const { db, files, env } = ctx.deps;
  const now = ctx.deps.now();
  let jwt = input.jwt ?? "";
  if (!jwt && input.uploadId) {
    const stored = await files.claim(db, input.uploadId, { kind: "credential", ownerId: ctx.user.id, at: now });
    if (!stored) throw fieldError("uploadId", "validation.upload.unknown");
    const file = await files.read(db, stored.id);
    jwt = file ? new TextDecoder().decode(file.bytes).trim() : "";
  }
  if (!jwt) throw fieldError("jwt", Msg.DID_NOTHING_TO_VERIFY, Msg.DID_NOTHING_TO_VERIFY);
  return verifyJwt(db, env, jwt, now);
}
