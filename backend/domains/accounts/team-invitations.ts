import billing from "#backend/domains/billing/index.ts";
import { and, desc, eq, gt, isNull, sql } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import {
  INVITATION_RESEND_MS,
  INVITATION_TTL_MS,
  type invitationRefSchema,
  type invitationTokenSchema,
  type inviteSchema,
  type TeamRole,
} from "#contract/team.ts";
import { users } from "#backend/db/tables.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { newSecret, sha256 } from "#backend/http/auth.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { teamInvitations, teamMembers } from "./tables.ts";
import { ensureOwnerRow, isMember, membersOf } from "./team.ts";

/**
 * Invitations to an enterprise account (issue 33, docs/decisions/075): a one-time link for one email
 * address and role, valid 7 days, sent again (a new link; the old one dies) at most once a minute. The
 * invitee accepts it signed in with a login that has that address (registering one first if new, with
 * the usual activation). Refused: unknown, used or withdrawn (a newer link, a cancellation), expired, for
 * another address, a member already: nothing is created.
 */

type InvitationRow = typeof teamInvitations.$inferSelect;

const accountNameOf = (u: { userType: number; companyName: string | null; userName: string }) =>
  u.userType === 2 && u.companyName ? u.companyName : u.userName;

function rowOut(row: InvitationRow) {
  return {
    invitationId: row.id,
    email: row.email,
    role: row.role as TeamRole,
    sentAt: row.sentAt.toISOString(),
    expiresAt: row.expiresAt.toISOString(),
    resendAt: new Date(row.sentAt.getTime() + INVITATION_RESEND_MS).toISOString(),
  };
}

/** The live invitations of an account (neither accepted, withdrawn nor expired), newest first. */
export async function openInvitations(db: Db | Tx, accountId: number, now: Date) {
  const rows = await db
    .select()
    .from(teamInvitations)
    .where(
      and(
        eq(teamInvitations.accountId, accountId),
        isNull(teamInvitations.acceptedAt),
        isNull(teamInvitations.cancelledAt),
        gt(teamInvitations.expiresAt, now),
      ),
    )
    .orderBy(desc(teamInvitations.sentAt));
  return rows.map(rowOut);
}

/** `/sys/team/members`: the account's members (its owner first) and its open invitations. */
export async function team(_input: unknown, ctx: SignedInContext) {
  const account = ctx.user;
  const rows = await membersOf(ctx.deps.db, account.id);
  const members = rows.map((r) => ({
    memberId: r.memberId,
    userName: r.userName,
    realName: r.realName,
    email: r.email,
    role: r.role as TeamRole,
    addedAt: r.addedAt.toISOString(),
    spendLimitCents: r.spendLimitCents,
  }));
  if (!members.some((m) => m.role === "owner"))
    members.unshift({
      memberId: account.id,
      userName: account.userName,
      realName: account.realName,
      email: account.email,
      role: "owner",
      addedAt: null as unknown as string,
      spendLimitCents: 0,
    });
  members.sort((a, b) => Number(b.role === "owner") - Number(a.role === "owner"));
  return {
    teamAccountId: account.id,
    accountName: accountNameOf(account),
    confirmationName: account.userName,
    members: await Promise.all(
      members.map(async (m) => ({
        ...m,
        addedAt: m.addedAt ?? null,
        spentCents: await billing.api.spentThisMonth(ctx.deps.db, account.id, m.memberId, ctx.deps.now()),
      })),
    ),
    invitations: await openInvitations(ctx.deps.db, account.id, ctx.deps.now()),
  };
}

async function mailInvitation(ctx: SignedInContext, row: InvitationRow, token: string) {
  const { deps } = ctx;
  const permit = await deps.limits.mailPermit("teamInvitation", row.email, ctx.clientAddress);
  const link = `${deps.env.publicUrl}/g/main/team/accept?token=${token}`;
  await deps.mailer.send(permit, "teamInvitation", ctx.language, {
    accountName: accountNameOf(ctx.user),
    inviterName: ctx.member.realName || ctx.member.userName,
    role: row.role,
    link,
  });
}

/** `/sys/team/invite`: an invitation for an address and a role; only an enterprise account has members. */
export async function invite(input: z.output<typeof inviteSchema>, ctx: SignedInContext) {
  const { deps } = ctx;
  if (ctx.user.userType !== 2) throw new ApiError(Msg.TEAM_ENTERPRISE_ONLY);
  const email = input.email.trim().toLowerCase();
  const [existing] = await deps.db
    .select({ id: users.id })
    .from(users)
    .innerJoin(teamMembers, and(eq(teamMembers.memberId, users.id), eq(teamMembers.accountId, ctx.user.id)))
    .where(sql`lower(${users.email}) = ${email}`)
    .limit(1);
  if (existing || email === ctx.user.email.toLowerCase())
    throw new ApiError(Msg.ALREADY_MEMBER, { fieldErrors: { email: [`errors:${Msg.ALREADY_MEMBER}`] } });
  const token = newSecret();
  const now = deps.now();
  const [row] = await deps.db
    .insert(teamInvitations)
    .values({
      accountId: ctx.user.id,
      email,
      role: input.role,
      tokenHash: sha256(token),
      invitedBy: ctx.member.id,
      createdAt: now,
      sentAt: now,
      expiresAt: new Date(now.getTime() + INVITATION_TTL_MS),
    })
    .returning();
  await mailInvitation(ctx, row, token);
  return rowOut(row);
}

async function openInvitation(db: Db | Tx, accountId: number, invitationId: number, now: Date) {
  const [row] = await db
    .select()
    .from(teamInvitations)
    .where(and(eq(teamInvitations.id, invitationId), eq(teamInvitations.accountId, accountId)))
    .limit(1);
  if (!row || row.acceptedAt || row.cancelledAt || row.expiresAt.getTime() <= now.getTime())
    throw new ApiError(Msg.NOT_A_MEMBER);
  return row;
}

/** `/sys/team/resend`: a new link (the old one dies), a minute after the last at the earliest; 7 days again. */
export async function resend(input: z.output<typeof invitationRefSchema>, ctx: SignedInContext) {
  const { deps } = ctx;
  const now = deps.now();
  const row = await openInvitation(deps.db, ctx.user.id, input.invitationId, now);
  const wait = row.sentAt.getTime() + INVITATION_RESEND_MS - now.getTime();
  if (wait > 0)
    throw new ApiError(Msg.INVITATION_RESEND_WAIT, null, 1, {
      status: 429,
      retryAfterSeconds: Math.ceil(wait / 1000),
    });
  const token = newSecret();
  const [updated] = await deps.db
    .update(teamInvitations)
    .set({ tokenHash: sha256(token), sentAt: now, expiresAt: new Date(now.getTime() + INVITATION_TTL_MS) })
    .where(and(eq(teamInvitations.id, row.id), eq(teamInvitations.sentAt, row.sentAt)))
    .returning();
  if (!updated) throw new ApiError(Msg.INVITATION_RESEND_WAIT, null, 1, { status: 429, retryAfterSeconds: 60 });
  await mailInvitation(ctx, updated, token);
  return rowOut(updated);
}

/** `/sys/team/cancelInvitation`: the link dies. */
export async function cancelInvitation(input: z.output<typeof invitationRefSchema>, ctx: SignedInContext) {
  const now = ctx.deps.now();
  const row = await openInvitation(ctx.deps.db, ctx.user.id, input.invitationId, now);
  await ctx.deps.db.update(teamInvitations).set({ cancelledAt: now }).where(eq(teamInvitations.id, row.id));
  return null;
}

/** The invitation of a link, checked for the signed-in login (`own` path: ctx.user is the login). */
async function usableInvitation(db: Db | Tx, token: string, ctx: SignedInContext) {
  const [found] = await db
    .select({ invitation: teamInvitations, account: users })
    .from(teamInvitations)
    .innerJoin(users, eq(users.id, teamInvitations.accountId))
    .where(eq(teamInvitations.tokenHash, sha256(token)))
    .limit(1);
  if (!found) throw new ApiError(Msg.INVITATION_INVALID);
  const { invitation } = found;
  if (invitation.acceptedAt || invitation.cancelledAt) throw new ApiError(Msg.INVITATION_USED);
  if (invitation.expiresAt.getTime() <= ctx.deps.now().getTime()) throw new ApiError(Msg.INVITATION_EXPIRED);
  if (invitation.email !== ctx.user.email.trim().toLowerCase() || ctx.user.role === "operator")
    throw new ApiError(Msg.INVITATION_OTHER_EMAIL);
  if (invitation.accountId === ctx.user.id || (await isMember(db, invitation.accountId, ctx.user.id)))
    throw new ApiError(Msg.ALREADY_MEMBER);
  return found;
}

/** `/main/team/invitation`: what the link offers, for the signed-in login. */
export async function viewInvitation(input: z.output<typeof invitationTokenSchema>, ctx: SignedInContext) {
  const { invitation, account } = await usableInvitation(ctx.deps.db, input.token, ctx);
  return {
    accountName: accountNameOf(account),
    email: invitation.email,
    role: invitation.role as TeamRole,
    expiresAt: invitation.expiresAt.toISOString(),
  };
}

/** `/main/team/accept`: the login becomes a member with the invitation's role; the link is used up. */
export async function accept(input: z.output<typeof invitationTokenSchema>, ctx: SignedInContext) {
  const { deps } = ctx;
  const now = deps.now();
  return deps.db.transaction(async (tx) => {
    const { invitation, account } = await usableInvitation(tx, input.token, ctx);
    const used = await tx
      .update(teamInvitations)
      .set({ acceptedAt: now, acceptedBy: ctx.user.id })
      .where(
        and(
          eq(teamInvitations.id, invitation.id),
          isNull(teamInvitations.acceptedAt),
          isNull(teamInvitations.cancelledAt),
        ),
      )
      .returning({ id: teamInvitations.id });
    if (used.length === 0) throw new ApiError(Msg.INVITATION_USED);
    await ensureOwnerRow(tx, account.id, now);
    await tx.insert(teamMembers).values({
      accountId: account.id,
      memberId: ctx.user.id,
      role: invitation.role,
      addedAt: now,
      addedBy: invitation.invitedBy,
    });
    return {
      teamAccountId: account.id,
      name: accountNameOf(account),
      role: invitation.role as TeamRole,
      current: false,
    };
  });
}
