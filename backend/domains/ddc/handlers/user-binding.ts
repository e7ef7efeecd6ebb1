import { randomBytes } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import { getAddress, verifyMessage, type Hex } from "viem";
import { createSiweMessage, parseSiweMessage, validateSiweMessage } from "viem/siwe";
import { ACCOUNT_BINDING_PATH, BINDING_CHALLENGE_MINUTES } from "#contract/ddc-codes.ts";
import { Msg } from "#contract/messages.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import chain from "#backend/domains/chain/index.ts";
import { addressBindings, siweChallenges } from "#backend/domains/ddc/tables.ts";

/**
 * Account binding (SPEC §2 account-binding; docs/decisions/045): an address is bound to the signed-in account
 * by signing a one-time EIP-4361 (Sign-In with Ethereum) challenge. The server writes the message (this site's
 * host as domain, the account-binding page as URI, the open-alliance chain id, a random nonce, a 10-minute
 * expiry) and keeps its exact text with the nonce. A binding is accepted only for that very text, signed by the
 * address it names (EIP-191 personal_sign, recovered with viem), before it expires, once.
 */

type Ctx = SignedInContext;

const bindingOut = (r: typeof addressBindings.$inferSelect) => ({
  bindingId: r.id,
  address: r.address,
  chainId: r.chainId,
  createdAt: r.createdAt.toISOString(),
});

export async function challenge(input: Payload<"/sys/binding/challenge">, ctx: Ctx) {
  const deps = ctx.deps;
  const now = deps.now();
  const site = new URL(deps.env.publicUrl);
  const address = getAddress(input.address);
  const nonce = randomBytes(16).toString("hex");
  const expiresAt = new Date(now.getTime() + BINDING_CHALLENGE_MINUTES * 60_000);
  const message = createSiweMessage({
    domain: site.host,
    address,
    statement: `Bind this address to the portal account ${ctx.user.userName}.`,
    uri: `${site.origin}${ACCOUNT_BINDING_PATH}`,
    version: "1",
    chainId: chain.api.chain(deps, chain.api.OPEN_ALLIANCE).chainId,
    nonce,
    issuedAt: now,
    expirationTime: expiresAt,
  });
  await deps.db
    .insert(siweChallenges)
    .values({ nonce, userId: ctx.user.id, address, message, createdAt: now, expiresAt });
  return { nonce, address, message, expiresAt: expiresAt.toISOString() };
}

export async function bind(input: Payload<"/sys/binding/bind">, ctx: Ctx) {
  const deps = ctx.deps;
  const now = deps.now();
  // Line endings as a browser's textarea sends them (CRLF) are the message's own (LF).
  const message = input.message.replace(/\r\n/g, "\n").trim();
  const parsed = parseSiweMessage(message);
  if (!parsed.nonce || !parsed.address)
    throw fieldError("message", Msg.BINDING_MESSAGE_ALTERED, Msg.BINDING_MESSAGE_ALTERED);
  const [issued] = await deps.db
    .select()
    .from(siweChallenges)
    .where(and(eq(siweChallenges.nonce, parsed.nonce), eq(siweChallenges.userId, ctx.user.id)));
  if (!issued) throw fieldError("message", Msg.BINDING_CHALLENGE_USED, Msg.BINDING_CHALLENGE_USED);
  if (issued.message !== message) throw fieldError("message", Msg.BINDING_MESSAGE_ALTERED, Msg.BINDING_MESSAGE_ALTERED);
  if (issued.usedAt || issued.expiresAt <= now)
    throw fieldError("message", Msg.BINDING_CHALLENGE_USED, Msg.BINDING_CHALLENGE_USED);
  const site = new URL(deps.env.publicUrl);
  if (
    !validateSiweMessage({
      message: parsed,
      address: issued.address as Hex,
      domain: site.host,
      nonce: issued.nonce,
      time: now,
    })
  ) {
    throw fieldError("message", Msg.BINDING_CHALLENGE_USED, Msg.BINDING_CHALLENGE_USED);
  }
  const valid = await verifyMessage({
    address: issued.address as Hex,
    message,
    signature: input.signature as Hex,
  }).catch(() => false);
  if (!valid) throw fieldError("signature", Msg.BINDING_BAD_SIGNATURE, Msg.BINDING_BAD_SIGNATURE);
  return deps.db.transaction(async (tx) => {
    // Used once: the first of two racing requests takes it.
    const taken = await tx
      .update(siweChallenges)
      .set({ usedAt: now })
      .where(and(eq(siweChallenges.nonce, issued.nonce), sql`${siweChallenges.usedAt} is null`))
      .returning();
    if (!taken.length) throw fieldError("message", Msg.BINDING_CHALLENGE_USED, Msg.BINDING_CHALLENGE_USED);
    const [existing] = await tx
      .select()
      .from(addressBindings)
      .where(sql`lower(${addressBindings.address}) = ${issued.address.toLowerCase()}`);
    if (existing && existing.userId !== ctx.user.id)
      throw fieldError("message", Msg.BINDING_ADDRESS_TAKEN, Msg.BINDING_ADDRESS_TAKEN);
    if (existing) return bindingOut(existing);
    const [row] = await tx
      .insert(addressBindings)
      .values({
        userId: ctx.user.id,
        address: issued.address,
        chainId: parsed.chainId ?? 0,
        nonce: issued.nonce,
        createdAt: now,
      })
      .returning();
    return bindingOut(row!);
  });
}

export async function listBindings(_input: Payload<"/sys/binding/list">, ctx: Ctx) {
  const rows = await ctx.deps.db
    .select()
    .from(addressBindings)
    .where(eq(addressBindings.userId, ctx.user.id))
    .orderBy(asc(addressBindings.id));
  return { rows: rows.map(bindingOut) };
}

export async function unbind(input: Payload<"/sys/binding/unbind">, ctx: Ctx) {
  const [row] = await ctx.deps.db
    .delete(addressBindings)
    .where(and(eq(addressBindings.id, input.bindingId), eq(addressBindings.userId, ctx.user.id)))
    .returning();
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return { bindingId: row.id };
}
