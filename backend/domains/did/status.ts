import { and, desc, eq, isNotNull, lt } from "drizzle-orm";
import { createVerifiableCredentialJwt } from "did-jwt-vc";
import { gunzipSync, gzipSync } from "fflate";
import { STATUS_LIST_BITS, STATUS_LIST_PREFIX } from "#contract/did-codes.ts";
import type { DidKeyType } from "#contract/did-codes.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import type { BackendEnv } from "#backend/env.ts";
import { signerOf } from "./keys.ts";
import { didCredentials, didIdentifiers, didStatusLists } from "./tables.ts";

/**
 * Revocation by status list (W3C StatusList2021; docs/decisions/043): each issuing DID has lists of 131,072
 * bits; a credential gets the next free index of its issuer's newest list, and revoking sets its bit. The list
 * is published as a credential signed by the issuer at /did-status/<list id>: the bitstring gzipped (fflate)
 * and base64url-encoded in `encodedList`, bit 0 the most significant bit of the first byte.
 */

export const statusListUrlOf = (env: BackendEnv, listId: number) => `${env.publicUrl}${STATUS_LIST_PREFIX}${listId}`;

/** The next free index of the issuer's newest list (a new list when it is full), taken under the list's row lock. */
export async function allocateIndex(
  tx: Tx,
  issuerDidId: number,
  now: Date,
): Promise<{ listId: number; index: number }> {
  const [list] = await tx
    .select()
    .from(didStatusLists)
    .where(and(eq(didStatusLists.issuerDidId, issuerDidId), lt(didStatusLists.nextIndex, didStatusLists.size)))
    .orderBy(desc(didStatusLists.id))
    .limit(1)
    .for("update");
  const row =
    list ??
    (
      await tx
        .insert(didStatusLists)
        .values({ issuerDidId, size: STATUS_LIST_BITS, nextIndex: 0, createdAt: now })
        .returning()
    )[0];
  await tx
    .update(didStatusLists)
    .set({ nextIndex: row.nextIndex + 1 })
    .where(eq(didStatusLists.id, row.id));
  return { listId: row.id, index: row.nextIndex };
}

/** The list's bitstring, gzipped and base64url-encoded: the revoked credentials' bits set. */
export async function encodedListOf(db: Db | Tx, listId: number, size: number): Promise<string> {
  const bits = new Uint8Array(size / 8);
  const revoked = await db
    .select({ index: didCredentials.statusIndex })
    .from(didCredentials)
    .where(and(eq(didCredentials.statusListId, listId), isNotNull(didCredentials.revokedAt)));
  for (const { index } of revoked) bits[index >> 3] |= 0x80 >> (index & 7);
  return Buffer.from(gzipSync(bits)).toString("base64url");
}

/** Whether bit `index` is set in an encoded list; null when the list cannot be read or is too short. */
export function bitOf(encodedList: string, index: number): boolean | null {
  try {
    const bits = gunzipSync(Buffer.from(encodedList, "base64url"));
    if (index < 0 || index >> 3 >= bits.length) return null;
    return (bits[index >> 3] & (0x80 >> (index & 7))) !== 0;
  } catch {
    return null;
  }
}

/** The status list credential of a list, as a JWT signed by its issuer now; null when there is no such list. */
export async function statusListJwt(db: Db | Tx, env: BackendEnv, listId: number, now: Date): Promise<string | null> {
  const [found] = await db
    .select({ list: didStatusLists, issuer: didIdentifiers })
    .from(didStatusLists)
    .innerJoin(didIdentifiers, eq(didIdentifiers.id, didStatusLists.issuerDidId))
    .where(eq(didStatusLists.id, listId));
  if (!found?.issuer.privateKeySealed) return null;
  const url = statusListUrlOf(env, listId);
  const { signer, alg } = signerOf(env, found.issuer.keyType as DidKeyType, found.issuer.privateKeySealed);
  return createVerifiableCredentialJwt(
    {
      nbf: Math.floor(now.getTime() / 1000) - 1,
      vc: {
        "@context": ["https://www.w3.org/2018/credentials/v1", "https://w3id.org/vc/status-list/2021/v1"],
        id: url,
        type: ["VerifiableCredential", "StatusList2021Credential"],
        credentialSubject: {
          id: `${url}#list`,
          type: "StatusList2021",
          statusPurpose: "revocation",
          encodedList: await encodedListOf(db, listId, found.list.size),
        },
      },
    },
    { did: found.issuer.did, signer, alg },
  );
}
