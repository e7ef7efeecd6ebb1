import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { decisionFields, decisionFormSchema, idempotencyKey, required } from "./rules.ts";
import { IPFS_KEY_KINDS, IPFS_NAME_MAX } from "./ipfs-codes.ts";
export * from "./ipfs-codes.ts";

/*
 * IPFS storage (SPEC §1, §2 IPFS screens, §3 IPFS service, §4, §5, §7 /sys/ipfsBusiness, §9; docs/decisions/039):
 * the capacities and gateway prices, services bought from the balance with their upload and download keys and
 * city node gateways, their pinned files and the download traffic per gateway and day.
 */

const id = () => z.number().int().positive();

/** SPEC §7 selectIpfsOrgFlowPrices: a city node gateway with its traffic price (USD cents per GB). */
export const ipfsOrgFlowPriceSchema = z.object({
  orgId: z.number().int(),
  orgCode: z.string(),
  orgName: z.string(),
  orgNameZh: z.string(),
  flowPriceCents: z.number().int(),
  /** The gateway's path on this site: `/ipfs-gw/<orgCode>`. */
  gatewayPath: z.string(),
});
export const ipfsCapacitySchema = z.object({ storeUnit: z.number().int(), label: z.string() });
const storeUnitPayload = z.object({ storeUnit: z.coerce.number().int().positive() });

export const ipfsKeySchema = z.object({
  kind: z.enum(IPFS_KEY_KINDS),
  /** SPEC §4 IPFS key: 0 deactivated, 1 activated, 2 unsubscribed. */
  state: z.number().int(),
  keyHint: z.string(),
  /** The key itself: only in the answer to show or regenerate. */
  apiKey: z.string().nullable(),
  createdAt: z.string(),
});

export const ipfsGatewaySchema = z.object({
  orgId: z.number().int(),
  orgCode: z.string(),
  orgName: z.string(),
  orgNameZh: z.string(),
  flowPriceCents: z.number().int(),
  gatewayPath: z.string(),
});

export const ipfsServiceSchema = z.object({
  ipfsServiceId: z.number().int(),
  name: z.string(),
  storeUnit: z.number().int(),
  capacityBytes: z.number().int(),
  usedBytes: z.number().int(),
  files: z.number().int(),
  status: z.number().int(),
  billId: z.number().int().nullable(),
  billNo: z.string().nullable(),
  createdAt: z.string(),
  expiresAt: z.string(),
  gateways: z.array(ipfsGatewaySchema),
  keys: z.array(ipfsKeySchema),
});
export type IpfsService = z.infer<typeof ipfsServiceSchema>;

export const ipfsFileSchema = z.object({
  ipfsFileId: z.number().int(),
  name: z.string(),
  cid: z.string(),
  size: z.number().int(),
  contentType: z.string(),
  createdAt: z.string(),
});

export const ipfsCreateSchema = z.object({
  name: required().pipe(z.string().max(IPFS_NAME_MAX, "validation.tooLong")),
  storeUnit: z.coerce.number().int().positive(),
  /** The city node gateways (selectIpfsOrgFlowPrices orgId), at least one. */
  orgIds: z.array(id(), "validation.ipfsGateways").min(1, "validation.ipfsGateways").max(50),
  idempotencyKey: idempotencyKey(),
});

const serviceRef = z.object({ ipfsServiceId: id() });

export const ipfsTrafficSchema = z.object({
  days: z.array(z.string()),
  gateways: z.array(ipfsGatewaySchema),
  /** Bytes served per gateway and day (UTC+8 days); days without traffic are absent. */
  rows: z.array(z.object({ day: z.string(), orgCode: z.string(), bytes: z.number().int() })),
  totalBytes: z.number().int(),
  /**
   * The files served most over the days, at most IPFS_TOP_FILES (docs/decisions/093: the meter counts per file
   * since migration 0050), each with its name while the service keeps a file of that CID.
   */
  topFiles: z.array(z.object({ cid: z.string(), name: z.string().nullable(), bytes: z.number().int() })),
});

export const ipfsUsageSchema = z.object({
  days: z.number().int(),
  rows: z.array(
    z.object({
      orgCode: z.string(),
      orgName: z.string(),
      orgNameZh: z.string(),
      flowPriceCents: z.number().int(),
      bytes: z.number().int(),
      services: z.number().int(),
    }),
  ),
  totalBytes: z.number().int(),
});

/** SPEC §4 IPFS upgrade: a capacity upgrade of a service (docs/decisions/039, addendum "Capacity upgrades"). */
export const ipfsUpgradeSchema = z.object({
  ipfsUpgradeId: z.number().int(),
  ipfsServiceId: z.number().int(),
  serviceName: z.string(),
  fromStoreUnit: z.number().int(),
  toStoreUnit: z.number().int(),
  /** The price difference paid for the rest of the paid period (USD cents). */
  priceDiffCents: z.number().int(),
  /** 0 pending, 2 operations processing, 5 success, 6 failed. */
  status: z.number().int(),
  billId: z.number().int().nullable(),
  billNo: z.string().nullable(),
  /** What an operator gave as the reason of a failure (the difference was refunded). */
  failReason: z.string().nullable(),
  /** The part of the bill refunded (on failure). */
  refundCents: z.number().int(),
  createdAt: z.string(),
  takenAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
});
export type IpfsUpgrade = z.infer<typeof ipfsUpgradeSchema>;

/** An item of the operators' queue: the upgrade with its owner's account name. */
export const ipfsUpgradeQueueItemSchema = ipfsUpgradeSchema.extend({ owner: z.string() });

/** What the new-upgrade page offers: the current capacity, the larger ones with their price difference, the open upgrade. */
export const ipfsUpgradeOptionsSchema = z.object({
  ipfsServiceId: z.number().int(),
  name: z.string(),
  status: z.number().int(),
  storeUnit: z.number().int(),
  usedBytes: z.number().int(),
  expiresAt: z.string(),
  /** Whole days left of the paid period (0 once it has ended). */
  remainingDays: z.number().int(),
  periodDays: z.number().int(),
  options: z.array(
    z.object({ storeUnit: z.number().int(), fullPeriodDiffCents: z.number().int(), priceDiffCents: z.number().int() }),
  ),
  /** The upgrade pending or being processed, if any (one at a time). */
  openUpgradeId: z.number().int().nullable(),
});

export const ipfsUpgradeCreateSchema = z.object({
  ipfsServiceId: z.coerce.number().int().positive(),
  toStoreUnit: z.coerce
    .number({ error: "validation.ipfsUpgradeCapacity" })
    .int()
    .positive("validation.ipfsUpgradeCapacity"),
  idempotencyKey: idempotencyKey(),
});

/** The operators' decision on an upgrade being processed: success (approve) or failure (reject, with its reason). */
export const ipfsUpgradeDecisionSchema = decisionFormSchema({ ipfsUpgradeId: z.coerce.number().int().positive() });

export const ipfsPaths = {
  /** SPEC §7: the city node gateways with their traffic price; code 0 and non-empty data. */
  "/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices": {
    auth: "user",
    permission: "read",
    payload: z.object({}),
    data: z.array(ipfsOrgFlowPriceSchema),
  },
  /** SPEC §7: the capacities (storeUnit, GB); code 0 and non-empty data. */
  "/sys/ipfsBusiness/ipfsUpgrade/selectCapacity": {
    auth: "user",
    permission: "read",
    payload: z.object({}),
    data: z.array(ipfsCapacitySchema),
  },
  /** SPEC §7: the monthly price of one GB at this capacity. */
  "/sys/ipfsBusiness/ipfs/getIpfsUnitPrice": {
    auth: "user",
    permission: "read",
    payload: storeUnitPayload,
    data: z.object({ storeUnit: z.number().int(), unitPriceCents: z.number().int() }),
  },
  /** SPEC §7: the price of this capacity for one period (30 days). */
  "/sys/ipfsBusiness/ipfs/getIpfsPrice": {
    auth: "user",
    permission: "read",
    payload: storeUnitPayload,
    data: z.object({
      storeUnit: z.number().int(),
      unitPriceCents: z.number().int(),
      priceCents: z.number().int(),
      periodDays: z.number().int(),
    }),
  },
  /** A new service paid from the balance (an IPFS bill), with its two keys (shown once here) and gateways. */
  "/sys/ipfsBusiness/ipfs/create": {
    auth: "user",
    permission: "services",
    payload: ipfsCreateSchema,
    data: ipfsServiceSchema.extend({ replayed: z.boolean() }),
  },
  "/sys/ipfsBusiness/ipfs/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields }),
    data: pageOf(ipfsServiceSchema),
  },
  "/sys/ipfsBusiness/ipfs/detail": { auth: "user", permission: "read", payload: serviceRef, data: ipfsServiceSchema },
  /** A key: show it, regenerate it (the old one stops at once), deactivate (0) or activate (1) it. */
  "/sys/ipfsBusiness/ipfs/key": {
    auth: "user",
    permission: "services",
    payload: z.object({
      ipfsServiceId: id(),
      kind: z.enum(IPFS_KEY_KINDS),
      action: z.enum(["show", "regenerate", "deactivate", "activate"]),
    }),
    data: ipfsKeySchema,
  },
  "/sys/ipfsBusiness/ipfs/files": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields, ipfsServiceId: id(), name: z.string().trim().max(255).optional() }),
    data: pageOf(ipfsFileSchema),
  },
  /** Unpins (deletes) a file; its blocks go when no other pin holds them. */
  "/sys/ipfsBusiness/ipfs/unpin": {
    auth: "user",
    permission: "services",
    payload: z.object({ ipfsServiceId: id(), ipfsFileId: id() }),
    /** `freed`: false when another name of the service still holds the same CID (its capacity stays taken). */
    data: z.object({ ipfsFileId: z.number().int(), usedBytes: z.number().int(), freed: z.boolean() }),
  },
  /** The download traffic of a service per gateway and day, over 30 days (SPEC §9). */
  "/sys/ipfsBusiness/ipfs/traffic": { auth: "user", permission: "read", payload: serviceRef, data: ipfsTrafficSchema },
  /** My account: the caller's IPFS data usage by city node gateway over 30 days. */
  "/sys/ipfsBusiness/ipfs/usageByGateway": {
    auth: "user",
    permission: "read",
    payload: z.object({}),
    data: ipfsUsageSchema,
  },
  /** New upgrade: the service's capacity, the larger ones with the difference to pay now, and its open upgrade. */
  "/sys/ipfsBusiness/ipfsUpgrade/options": {
    auth: "user",
    permission: "read",
    payload: serviceRef,
    data: ipfsUpgradeOptionsSchema,
  },
  /**
   * Requests a larger capacity: the difference is paid from the balance at once (an IPFS bill); unpaid usage
   * bills refuse it (MSG_30005); one open upgrade per service. The same idempotency key answers the first request.
   */
  "/sys/ipfsBusiness/ipfsUpgrade/create": {
    auth: "user",
    permission: "services",
    payload: ipfsUpgradeCreateSchema,
    data: ipfsUpgradeSchema.extend({ replayed: z.boolean() }),
  },
  "/sys/ipfsBusiness/ipfsUpgrade/list": {
    auth: "user",
    permission: "read",
    payload: z.object({ ...pagingFields, ipfsServiceId: id() }),
    data: pageOf(ipfsUpgradeSchema),
  },
  "/sys/ipfsBusiness/ipfsUpgrade/detail": {
    auth: "user",
    permission: "read",
    payload: z.object({ ipfsUpgradeId: id() }),
    data: ipfsUpgradeSchema,
  },
  /** Operations: the upgrades pending (0) and being processed (2), oldest first. */
  "/sys/ops/ipfsUpgrades/list": {
    auth: "operator",
    payload: z.object({ ...pagingFields }),
    data: pageOf(ipfsUpgradeQueueItemSchema),
  },
  /** Operations: takes a pending upgrade (0 → 2). */
  "/sys/ops/ipfsUpgrades/take": {
    auth: "operator",
    payload: z.object({ ipfsUpgradeId: id() }),
    data: z.object({ status: z.number().int() }),
  },
  /** Operations: success (2 → 5, the new capacity applies) or failure with a reason (0|2 → 6, the difference refunded). */
  "/sys/ops/ipfsUpgrades/decide": {
    auth: "operator",
    payload: z.object({ ipfsUpgradeId: id(), ...decisionFields() }),
    data: z.object({ status: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;

/** Tests only (TEST_FIXTURES=1): a service's capacity set in bytes, so that "over capacity" needs no gigabytes. */
export const ipfsFixturePaths = {
  "/test/ipfs/capacity": {
    auth: "user",
    permission: "services",
    payload: z.object({ ipfsServiceId: id(), capacityBytes: z.number().int().min(0) }),
    data: z.object({ ipfsServiceId: z.number().int(), capacityBytes: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;
