import { and, eq, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import { toCents } from "#contract/rules.ts";
import type {
  accountChoiceSchema,
  memberRefSchema,
  setRoleSchema,
  spendLimitSchema,
  switchSchema,
  TeamRole,
  transferSchema,
} from "#contract/team.ts";
import { authTokens, users } from "#backend/db/tables.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { preparedPerDb } from "#backend/kit/sql.ts";
import { teamMembers } from "./tables.ts";

/**
 * An enterprise account's members (issue 33, docs/decisions/075): the accounts a login acts for, the switch
 * between them, role changes, removal and the transfer of ownership. Every change that ends or changes a
 * member's sessions forgets them in this process (the session cache); other processes read them again
 * within its lifetime (5 s, docs/decisions/030).
 */

type AccountChoice = z.infer<typeof accountChoiceSchema>;

const accountName = (u: { userType: number; companyName: string | null; userName: string }) =>
  u.userType === 2 && u.companyName ? u.companyName : u.userName;

/**
 * The account's owner row, made when the account gets its first member: an account with no owner row (an
 * enterprise registered since the migration) is owned by its own login (auth.ts readToken).
 */
export async function ensureOwnerRow(tx: Db | Tx, accountId: number, at: Date) {
  const [owner] = await tx
    .select({ memberId: teamMembers.memberId })
    .from(teamMembers)
    .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.role, "owner")))
    .limit(1);
  if (!owner) await tx.insert(teamMembers).values({ accountId, memberId: accountId, role: "owner", addedAt: at });
}

/** The logins' rows of an account, with their users. */
export async function membersOf(db: Db | Tx, accountId: number) {
  return db
    .select({
      memberId: teamMembers.memberId,
      role: teamMembers.role,
      addedAt: teamMembers.addedAt,
      spendLimitCents: teamMembers.spendLimitCents,
      userName: users.userName,
      realName: users.realName,
      email: users.email,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.memberId))
    .where(eq(teamMembers.accountId, accountId))
    .orderBy(teamMembers.addedAt, teamMembers.memberId);
}

/** `/main/team/accounts`: the login's own account (unless it left its owner's hands) and those it is a member of. */
/** The accounts a login is a member of: every console page asks (the shell's switcher and menu). */
const accountsOfLogin = preparedPerDb((db: Db) =>
  db
    .select({
      accountId: teamMembers.accountId,
      role: teamMembers.role,
      userType: users.userType,
      companyName: users.companyName,
      userName: users.userName,
    })
    .from(teamMembers)
    .innerJoin(users, eq(users.id, teamMembers.accountId))
    .where(eq(teamMembers.memberId, sql.placeholder("loginId")))
    .orderBy(teamMembers.addedAt, teamMembers.accountId)
    .prepare("team_accounts_of_login"),
);

export async function myAccounts(_input: unknown, ctx: SignedInContext): Promise<AccountChoice[]> {
  const loginId = ctx.user.id;
  const rows = await accountsOfLogin(ctx.deps.db).execute({ loginId });
  const acting = await actingAccountOf(ctx);
  const out: AccountChoice[] = rows.map((r) => ({
    teamAccountId: r.accountId,
    name: accountName(r),
    role: r.role as TeamRole,
    current: r.accountId === acting,
  }));
  if (!rows.some((r) => r.accountId === loginId) && !(await hasOwnerRow(ctx, loginId, acting)))
    out.unshift({ teamAccountId: loginId, name: accountName(ctx.user), role: "owner", current: acting === loginId });
  return out;
}

/** The account the token acts for: as the token check read it (docs/decisions/030), else read here. */
async function actingAccountOf(ctx: SignedInContext): Promise<number> {
  if (ctx.acting) return ctx.acting.accountId;
  const [row] = await ctx.deps.db
    .select({ accountId: authTokens.accountId })
    .from(authTokens)
    .where(eq(authTokens.tokenHash, ctx.tokenHash))
    .limit(1);
  return row?.accountId ?? ctx.user.id;
}

/**
 * Whether the login's own account, where the login holds no row, has an owner row: when the token acts for
 * that account the token check already answered it (with no row of the login there, its role is "owner"
 * exactly when the account has no owner row: auth.ts readToken); else it is read.
 */
async function hasOwnerRow(ctx: SignedInContext, loginId: number, acting: number): Promise<boolean> {
  if (ctx.acting && acting === loginId) return ctx.acting.loginRole === null;
  const [owned] = await ctx.deps.db
    .select({ memberId: teamMembers.memberId })
    .from(teamMembers)
    .where(and(eq(teamMembers.accountId, loginId), eq(teamMembers.role, "owner")))
    .limit(1);
  return owned !== undefined;
}

/** `/main/team/switch`: the token acts for that account from the next call on, if the login may act for it. */
export async function switchAccount(input: z.output<typeof switchSchema>, ctx: SignedInContext) {
  const choices = await myAccounts(null, ctx);
  const chosen = choices.find((c) => c.teamAccountId === input.teamAccountId);
  if (!chosen) throw new ApiError(Msg.NOT_A_MEMBER);
  await ctx.deps.db
    .update(authTokens)
    .set({ accountId: chosen.teamAccountId === ctx.user.id ? null : chosen.teamAccountId })
    .where(and(eq(authTokens.tokenHash, ctx.tokenHash), isNull(authTokens.revokedAt)));
  ctx.deps.sessions.forgetToken(ctx.tokenHash);
  return { ...chosen, current: true };
}

/** The member's row in the caller's account, or the refusal. */
async function memberRow(db: Db | Tx, accountId: number, memberId: number) {
  const [row] = await db
    .select({ role: teamMembers.role })
    .from(teamMembers)
    .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.memberId, memberId)))
    .limit(1);
  if (!row) throw new ApiError(Msg.NOT_A_MEMBER);
  return row;
}

/** `/sys/team/setRole`: another role for a member (never the owner's: that is a transfer). */
export async function setRole(input: z.output<typeof setRoleSchema>, ctx: SignedInContext) {
  const accountId = ctx.user.id;
  await ctx.deps.db.transaction(async (tx) => {
    const row = await memberRow(tx, accountId, input.memberId);
    if (row.role === "owner") throw new ApiError(Msg.OWNER_UNCHANGEABLE);
    await tx
      .update(teamMembers)
      .set({ role: input.role })
      .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.memberId, input.memberId)));
  });
  ctx.deps.sessions.forgetUser(input.memberId);
  return null;
}

/**
 * `/sys/team/spendLimit`: what the member's own actions may charge the balance in a calendar month when their
 * role lacks "pay" (docs/decisions/080); the ledger reads it under the wallet's lock.
 */
export async function setSpendLimit(input: z.output<typeof spendLimitSchema>, ctx: SignedInContext) {
  const accountId = ctx.user.id;
  await ctx.deps.db.transaction(async (tx) => {
    const row = await memberRow(tx, accountId, input.memberId);
    if (row.role === "owner") throw new ApiError(Msg.OWNER_UNCHANGEABLE);
    await tx
      .update(teamMembers)
      .set({ spendLimitCents: toCents(input.spendLimit) })
      .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.memberId, input.memberId)));
  });
  return null;
}

/**
 * `/sys/team/remove`: the member leaves the account; its sessions acting for it end (revoked here, and
 * refused by every process once its cache reads them again). Neither the owner nor the account's own login
 * is removed.
 */
export async function removeMember(input: z.output<typeof memberRefSchema>, ctx: SignedInContext) {
  const accountId = ctx.user.id;
  if (input.memberId === accountId) throw new ApiError(Msg.OWNER_UNCHANGEABLE);
  await ctx.deps.db.transaction(async (tx) => {
    const row = await memberRow(tx, accountId, input.memberId);
    if (row.role === "owner") throw new ApiError(Msg.OWNER_UNCHANGEABLE);
    await tx
      .delete(teamMembers)
      .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.memberId, input.memberId)));
    await tx
      .update(authTokens)
      .set({ revokedAt: ctx.deps.now() })
      .where(
        and(eq(authTokens.userId, input.memberId), eq(authTokens.accountId, accountId), isNull(authTokens.revokedAt)),
      );
  });
  ctx.deps.sessions.forgetUser(input.memberId);
  return null;
}

/**
 * `/sys/team/transfer`: the owner hands the account to another member, confirmed by typing the account's
 * login name; the old owner stays as an admin. The owner is demoted before the new one is made (one owner
 * row at a time: the partial unique index).
 */
export async function transferOwnership(input: z.output<typeof transferSchema>, ctx: SignedInContext) {
  const accountId = ctx.user.id;
  if (input.confirmation.trim().toLowerCase() !== ctx.user.userName.toLowerCase())
    throw new ApiError(Msg.TRANSFER_CONFIRMATION_WRONG, {
      fieldErrors: { confirmation: [`errors:${Msg.TRANSFER_CONFIRMATION_WRONG}`] },
    });
  const ownerId = ctx.member.id;
  if (input.memberId === ownerId) throw new ApiError(Msg.OWNER_UNCHANGEABLE);
  const now = ctx.deps.now();
  await ctx.deps.db.transaction(async (tx) => {
    await ensureOwnerRow(tx, accountId, now);
    await memberRow(tx, accountId, input.memberId);
    await tx
      .update(teamMembers)
      .set({ role: "admin" })
      .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.role, "owner")));
    await tx
      .update(teamMembers)
      .set({ role: "owner" })
      .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.memberId, input.memberId)));
  });
  ctx.deps.sessions.forgetUser(ownerId);
  ctx.deps.sessions.forgetUser(input.memberId);
  return null;
}

/** Whether a login is (still) a member of an account, its own login included. */
export async function isMember(db: Db | Tx, accountId: number, loginId: number): Promise<boolean> {
  const [row] = await db
    .select({ one: sql<number>`1` })
    .from(teamMembers)
    .where(and(eq(teamMembers.accountId, accountId), eq(teamMembers.memberId, loginId)))
    .limit(1);
  return Boolean(row);
}
