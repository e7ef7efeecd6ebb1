import * as z from "zod";
import { dayString } from "./billing.ts";
import type { PathSpec } from "./path-spec.ts";
import { pageOf } from "./platform.ts";

/* ------------------------------------------------------------------------------------------------
 * Team activity (issue 33 "who did what", docs/decisions/079): every change made in an account's name, with
 * the member who made it; contract/activity-rules.ts says which paths write which entry.
 * ---------------------------------------------------------------------------------------------- */

export const ACTIVITY_KINDS = ["services", "keys", "money", "account", "members", "support"] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** At most this many entries in one CSV export. */
export const ACTIVITY_EXPORT_LIMIT = 10_000;

/** The filters of the page and of its export. Days are UTC+8 calendar days, both included. */
export const activityFilterSchema = z.object({
  /** The member's login id. */
  memberId: z.number().int().positive().max(2_147_483_647).optional(),
  kind: z.enum(ACTIVITY_KINDS).optional(),
  dateFrom: dayString().optional(),
  dateTo: dayString().optional(),
});
export type ActivityFilter = z.infer<typeof activityFilterSchema>;

export const activityEntrySchema = z.object({
  id: z.number().int(),
  at: z.string(),
  memberId: z.number().int(),
  memberName: z.string(),
  action: z.string(),
  kind: z.string(),
  targetId: z.string().nullable(),
  details: z.record(z.string(), z.unknown()),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

/**
 * The keys and secrets whose entries mean a member has seen them (shown, downloaded or set), as the Members page
 * lists them when a member is removed (issue 33 "removing a member offers to regenerate the keys they saw"). A test
 * identity's key is left out: it signs only on the test network. A certificate's download counts when it was the
 * private key.
 */
export const SEEN_KEY_ACTIONS = [
  "publicChain.projectKey",
  "publicChain.keystore",
  "ipfs.key",
  "dedicatedNode.password",
  "participation.certificateFile",
] as const;
export type SeenKeyAction = (typeof SEEN_KEY_ACTIONS)[number];

export const keySeenSchema = z.object({
  action: z.enum(SEEN_KEY_ACTIONS),
  targetId: z.string().nullable(),
  /** The member's latest entry for it. */
  lastAt: z.string(),
});
export type KeySeen = z.infer<typeof keySeenSchema>;

/** Who has acted in the account (the member filter's choices): members past and present. */
const actorSchema = z.object({ memberId: z.number().int(), memberName: z.string() });

export const activityPaths = {
  "/sys/team/activity": {
    auth: "user",
    permission: "read",
    payload: activityFilterSchema.extend({
      pageIndex: z.number().int().min(1).default(1),
      pageSize: z.number().int().min(1).max(100).default(20),
    }),
    data: pageOf(activityEntrySchema).extend({ actors: z.array(actorSchema) }),
  },
  "/sys/team/activityExport": {
    auth: "user",
    permission: "read",
    payload: activityFilterSchema,
    data: z.object({ rows: z.array(activityEntrySchema), total: z.number().int(), truncated: z.boolean() }),
  },
  /** The keys a member (present or removed) has seen in the account, newest first; for its owner. */
  "/sys/team/keysSeen": {
    auth: "user",
    permission: "members",
    payload: z.object({ memberId: z.number().int().positive().max(2_147_483_647) }),
    data: z.object({ memberName: z.string().nullable(), keys: z.array(keySeenSchema) }),
  },
} satisfies Record<string, PathSpec>;
