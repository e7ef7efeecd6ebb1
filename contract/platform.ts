import * as z from "zod";
import { userSchema } from "./accounts.ts";
import { anyPayload, type PathSpec } from "./path-spec.ts";
import { email } from "./rules.ts";

/** SPEC §3 City node, as the platform catalogue gives it. Prices are USD cents. */
export const cityNodeSchema = z.object({
  nodeId: z.number().int(),
  code: z.string(),
  name: z.string(),
  nameZh: z.string(),
  operator: z.string(),
  cloudProvider: z.string(),
  address: z.string(),
  operatorZh: z.string().nullable(),
  cloudProviderZh: z.string().nullable(),
  addressZh: z.string().nullable(),
  availableTps: z.number().int(),
  capacityGb: z.number().int(),
  peers: z.number().int(),
  trafficPricePerGbCents: z.number().int(),
  tpsPricePerMonthCents: z.number().int(),
  tpsPricePerYearCents: z.number().int(),
  capacityPricePerGbMonthCents: z.number().int(),
  peerPricePerMonthCents: z.number().int().default(0),
});
export type CityNode = z.infer<typeof cityNodeSchema>;

/** SPEC §7 paged request: page{pageSize,pageIndex,condition{...}}. */
export const pageRequestSchema = z.object({
  page: z
    .object({
      pageSize: z.number().int().min(1).max(999).default(10),
      pageIndex: z.number().int().min(1).default(1),
      condition: z.record(z.string(), z.unknown()).default({}),
    })
    .default({ pageSize: 10, pageIndex: 1, condition: {} }),
});

/** The page of a queue or list payload: pageIndex from 1, at most 50 rows a page. */
export const pagingFields = {
  pageIndex: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(50).default(10),
};

export function pageOf<T extends z.ZodType>(row: T) {
  return z.object({
    page: z.object({
      rows: z.array(row),
      total: z.number().int(),
      pageIndex: z.number().int(),
      pageSize: z.number().int(),
    }),
  });
}

/**
 * What a message can be about, as the Message center links it (app/lib/message-links.ts): `bill` (bill id),
 * `service` (a publisher's service, app id), `joinRequest` (a request to join the reader's service, join id),
 * `participation` (a service the reader asked to join, app id), `invoice` (invoice application id),
 * `product` (product id).
 */
export const MESSAGE_REF_KINDS = [
  "bill",
  "service",
  "joinRequest",
  "participation",
  "invoice",
  "product",
  "alert",
] as const;
export type MessageRefKind = (typeof MESSAGE_REF_KINDS)[number];
export const messageRefSchema = z.object({ kind: z.enum(MESSAGE_REF_KINDS), id: z.number().int() });

export const messageSchema = z.object({
  messageId: z.number().int(),
  /** 0 unread, 1 read (SPEC §3 Message). */
  status: z.union([z.literal(0), z.literal(1)]),
  /** An i18n key of the `messages` namespace with its params, so each reader sees their own language. */
  textKey: z.string(),
  params: z.record(z.string(), z.string()),
  /** What it is about, linked from the Message center; null when it is about nothing in particular. */
  ref: messageRefSchema.nullable(),
  createdAt: z.string(),
});
export const messageListSchema = pageOf(messageSchema).extend({ unread: z.number().int() });

export const homeSummarySchema = z.object({
  unreadMessages: z.number().int(),
  cityNodes: z.number().int(),
  lastLoginAt: z.string().nullable(),
  memberSince: z.string(),
});

/** The operations queues (their route names under /g/home/operations) and the items waiting in each. */
export const OPS_QUEUES = [
  "ServiceReviews",
  "Services",
  "Refunds",
  "Invoices",
  "Remittances",
  "Withdrawals",
  "PaymentReviews",
  "Products",
  "Participations",
  "FailedJobs",
  "IpfsUpgrades",
  "Tickets",
] as const;
export type OpsQueue = (typeof OPS_QUEUES)[number];
export const opsQueueCountsSchema = z.object(
  Object.fromEntries(OPS_QUEUES.map((q) => [q, z.number().int()])) as Record<OpsQueue, z.ZodNumber>,
);
export type OpsQueueCounts = z.infer<typeof opsQueueCountsSchema>;

/**
 * The console home's getting-started checklist (issue 30 item 13): each step read from the account's records
 * (a profile introduction, a paid recharge, a service published or joined, a public-chain project). Shown
 * until every step is done or the account dismisses it (POST /main/home/checklist/dismiss).
 */
export const CHECKLIST_STEPS = ["profile", "recharge", "service", "project"] as const;
export type ChecklistStep = (typeof CHECKLIST_STEPS)[number];
export const checklistSchema = z.object({
  steps: z.array(z.object({ key: z.enum(CHECKLIST_STEPS), done: z.boolean() })),
  dismissed: z.boolean(),
});
export type Checklist = z.infer<typeof checklistSchema>;

/**
 * Every figure of the console home in one answer (docs/decisions/029) beside the shell's summary
 * (/main/home/summary, which the page takes from the shell's loader: docs/decisions/030).
 */
export const homeDashboardSchema = z.object({
  /** The caller, as /main/getClientInfo answers (from the token check's row: no query of its own). */
  account: userSchema,
  balanceCents: z.number().int(),
  /** Unpaid bills payable from the balance now: count, sum and the nearest deadline. */
  dueCount: z.number().int(),
  dueCents: z.number().int(),
  nextDeadline: z.string().nullable(),
  /** The unpaid bills that block a new service (SPEC §5, payType 1), as h5billDue with payType 1 counts them. */
  blockingBills: z.object({ count: z.number().int(), totalCents: z.number().int() }).nullable(),
  /** Data traffic of the last 7 UTC+8 days (today last), in MB. */
  usage7: z.array(z.object({ day: z.string(), mb: z.number().nonnegative() })),
  /** The publisher's services by the status of their current version, and their drafts. */
  services: z.object({
    byState: z.array(z.object({ verState: z.number().int(), count: z.number().int() })),
    drafts: z.number().int(),
  }),
  /** Requests to join the user's services waiting for their decision; the user's own requests under way. */
  joinRequestsToDecide: z.number().int(),
  myJoinRequests: z.number().int(),
  /** Operators only: the waiting items of each operations queue. */
  queues: opsQueueCountsSchema.nullable(),
  /** Users only (null for an operator): the getting-started checklist. */
  checklist: checklistSchema.nullable(),
});

/** The /vueapi paths of the platform catalogue and the console home (SPEC §7). */
/**
 * "Mail me a desktop link" (issue 16, SPEC §2 mobile): a console page to open on a desktop, as a path under
 * /g/ (never another site, no `//` or backslash), and the address to send it to.
 */
export const desktopLinkPayloadSchema = z.object({
  email: email(),
  path: z
    .string()
    .max(500)
    .regex(/^\/g\/[A-Za-z0-9_\-./?=&%]*$/, "validation.invalid")
    .refine((p) => !p.includes("//") && !p.includes(".."), "validation.invalid"),
});

export const platformPaths = {
  "/anon/platform/desktopLink": { auth: "anon", payload: desktopLinkPayloadSchema, data: z.null() },
  "/anon/platform/cityNodes": { auth: "anon", payload: anyPayload, data: z.array(cityNodeSchema) },
  "/main/home/summary": { auth: "user", permission: "read", payload: anyPayload, data: homeSummarySchema },
  "/main/home/dashboard": { auth: "user", permission: "read", payload: anyPayload, data: homeDashboardSchema },
  "/main/home/checklist/dismiss": { auth: "user", permission: "write", payload: anyPayload, data: z.null() },
  "/sys/ops/queues/waiting": { auth: "operator", payload: anyPayload, data: opsQueueCountsSchema },
} satisfies Record<string, PathSpec>;
