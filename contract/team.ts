import * as z from "zod";
import { anyPayload, nothing, type PathSpec } from "./path-spec.ts";
import { email, MAX_AMOUNT_CENTS, MONEY_RE, required, toCents } from "./rules.ts";
import { ASSIGNABLE_ROLES, TEAM_ROLES } from "./team-roles.ts";

/**
 * Teams (issue 33, docs/decisions/075): the accounts a login acts for and the switch between them, an
 * enterprise account's members, their roles, invitations and the transfer of ownership. Roles and the
 * permission every path declares: contract/team-roles.ts.
 */

export * from "./team-roles.ts";

/** An invitation's link lives 7 days; it may be sent again once a minute. */
export const INVITATION_TTL_MS = 7 * 24 * 60 * 60 * 1000;
export const INVITATION_RESEND_MS = 60 * 1000;

const id = () => z.number().int().positive();

export const teamRoleSchema = z.enum(TEAM_ROLES);
export const assignableRoleSchema = z.enum(ASSIGNABLE_ROLES, { error: "validation.invalid" });

/** The acting member as getClientInfo shows it: the login and its role in the account it acts for. */
export const memberSchema = z.object({
  memberId: z.number().int(),
  userName: z.string(),
  realName: z.string().nullable(),
  role: teamRoleSchema,
});

export const accountChoiceSchema = z.object({
  teamAccountId: z.number().int(),
  /** The company's name for an enterprise, else the login's name. */
  name: z.string(),
  role: teamRoleSchema,
  current: z.boolean(),
});

export const switchSchema = z.object({ teamAccountId: id() });

export const inviteSchema = z.object({ email: email(), role: assignableRoleSchema });
export type InviteInput = z.infer<typeof inviteSchema>;

export const invitationRefSchema = z.object({ invitationId: id() });
export const invitationTokenSchema = z.object({ token: required().max(200, "validation.invalid") });

export const setRoleSchema = z.object({ memberId: id(), role: assignableRoleSchema });
export const memberRefSchema = z.object({ memberId: id() });
/** The transfer is confirmed by typing the account's login name. */
export const transferSchema = z.object({ memberId: id(), confirmation: required().max(100, "validation.invalid") });

/**
 * A member's monthly spending limit (docs/decisions/080) as typed: USD with up to 2 decimals, 0 or more, at
 * most 1,000,000.00; the backend keeps it in cents.
 */
export const spendLimitSchema = z.object({
  memberId: id(),
  spendLimit: z
    .string({ error: "validation.amount.required" })
    .trim()
    .min(1, "validation.amount.required")
    .superRefine((value, ctx) => {
      if (!MONEY_RE.test(value)) return void ctx.addIssue({ code: "custom", message: "validation.amount.format" });
      if (toCents(value) > MAX_AMOUNT_CENTS) ctx.addIssue({ code: "custom", message: "validation.amount.max" });
    }),
});

export const teamMemberRowSchema = z.object({
  memberId: z.number().int(),
  userName: z.string(),
  realName: z.string().nullable(),
  email: z.string(),
  role: teamRoleSchema,
  addedAt: z.string().nullable(),
  /** The monthly spending limit in cents, and what the member's own actions charged this month (ADR 080). */
  spendLimitCents: z.number().int(),
  spentCents: z.number().int(),
});

export const invitationRowSchema = z.object({
  invitationId: z.number().int(),
  email: z.string(),
  role: teamRoleSchema,
  sentAt: z.string(),
  expiresAt: z.string(),
  /** When it may be sent again (a minute after the last). */
  resendAt: z.string(),
});

export const teamSchema = z.object({
  teamAccountId: z.number().int(),
  accountName: z.string(),
  /** The login name to type to confirm a transfer of ownership. */
  confirmationName: z.string(),
  members: z.array(teamMemberRowSchema),
  invitations: z.array(invitationRowSchema),
});

export const invitationViewSchema = z.object({
  accountName: z.string(),
  email: z.string(),
  role: teamRoleSchema,
  expiresAt: z.string(),
});

export const teamPaths = {
  /** The accounts the login may act for: its own and those it is a member of. */
  "/main/team/accounts": { auth: "user", permission: "own", payload: anyPayload, data: z.array(accountChoiceSchema) },
  /** Acts for another account from the next call on (the membership checked again). */
  "/main/team/switch": { auth: "user", permission: "own", payload: switchSchema, data: accountChoiceSchema },
  /** What an invitation link offers, before accepting it. */
  "/main/team/invitation": {
    auth: "user",
    permission: "own",
    payload: invitationTokenSchema,
    data: invitationViewSchema,
  },
  /** The signed-in login accepts an invitation sent to its email address. */
  "/main/team/accept": { auth: "user", permission: "own", payload: invitationTokenSchema, data: accountChoiceSchema },
  "/sys/team/members": { auth: "user", permission: "members", payload: anyPayload, data: teamSchema },
  "/sys/team/invite": { auth: "user", permission: "members", payload: inviteSchema, data: invitationRowSchema },
  "/sys/team/resend": { auth: "user", permission: "members", payload: invitationRefSchema, data: invitationRowSchema },
  "/sys/team/cancelInvitation": { auth: "user", permission: "members", payload: invitationRefSchema, data: nothing },
  "/sys/team/setRole": { auth: "user", permission: "members", payload: setRoleSchema, data: nothing },
  "/sys/team/spendLimit": { auth: "user", permission: "members", payload: spendLimitSchema, data: nothing },
  "/sys/team/remove": { auth: "user", permission: "members", payload: memberRefSchema, data: nothing },
  "/sys/team/transfer": { auth: "user", permission: "members", payload: transferSchema, data: nothing },
} satisfies Record<string, PathSpec>;
