import * as z from "zod";
import type { PathSpec } from "./path-spec";
import { pageOf, pagingFields } from "./platform";
import { idempotencyKey, required } from "./rules";
import { IPFS_KEY_KINDS, IPFS_NAME_MAX } from "./ipfs-codes";
export * from "./ipfs-codes";

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
});

export const ipfsUsageSchema = z.object({
  days: z.number().int(),
  rows: z.array(z.object({ orgCode: z.string(), orgName: z.string(), orgNameZh: z.string(), flowPriceCents: z.number().int(), bytes: z.number().int(), services: z.number().int() })),
  totalBytes: z.number().int(),
});

export const ipfsPaths = {
  /** SPEC §7: the city node gateways with their traffic price; code 0 and non-empty data. */
  "/sys/ipfsBusiness/ipfs/selectIpfsOrgFlowPrices": { auth: "user", payload: z.object({}), data: z.array(ipfsOrgFlowPriceSchema) },
  /** SPEC §7: the capacities (storeUnit, GB); code 0 and non-empty data. */
  "/sys/ipfsBusiness/ipfsUpgrade/selectCapacity": { auth: "user", payload: z.object({}), data: z.array(ipfsCapacitySchema) },
  /** SPEC §7: the monthly price of one GB at this capacity. */
  "/sys/ipfsBusiness/ipfs/getIpfsUnitPrice": { auth: "user", payload: storeUnitPayload, data: z.object({ storeUnit: z.number().int(), unitPriceCents: z.number().int() }) },
  /** SPEC §7: the price of this capacity for one period (30 days). */
  "/sys/ipfsBusiness/ipfs/getIpfsPrice": {
    auth: "user",
    payload: storeUnitPayload,
    data: z.object({ storeUnit: z.number().int(), unitPriceCents: z.number().int(), priceCents: z.number().int(), periodDays: z.number().int() }),
  },
  /** A new service paid from the balance (an IPFS bill), with its two keys (shown once here) and gateways. */
  "/sys/ipfsBusiness/ipfs/create": {
    auth: "user",
    payload: ipfsCreateSchema,
    data: ipfsServiceSchema.extend({ replayed: z.boolean() }),
  },
  "/sys/ipfsBusiness/ipfs/list": { auth: "user", payload: z.object({ ...pagingFields }), data: pageOf(ipfsServiceSchema) },
  "/sys/ipfsBusiness/ipfs/detail": { auth: "user", payload: serviceRef, data: ipfsServiceSchema },
  /** A key: show it, regenerate it (the old one stops at once), deactivate (0) or activate (1) it. */
  "/sys/ipfsBusiness/ipfs/key": {
    auth: "user",
    payload: z.object({ ipfsServiceId: id(), kind: z.enum(IPFS_KEY_KINDS), action: z.enum(["show", "regenerate", "deactivate", "activate"]) }),
    data: ipfsKeySchema,
  },
  "/sys/ipfsBusiness/ipfs/files": {
    auth: "user",
    payload: z.object({ ...pagingFields, ipfsServiceId: id(), name: z.string().trim().max(255).optional() }),
    data: pageOf(ipfsFileSchema),
  },
  /** Unpins (deletes) a file; its blocks go when no other pin holds them. */
  "/sys/ipfsBusiness/ipfs/unpin": {
    auth: "user",
    payload: z.object({ ipfsServiceId: id(), ipfsFileId: id() }),
    data: z.object({ ipfsFileId: z.number().int(), usedBytes: z.number().int() }),
  },
  /** The download traffic of a service per gateway and day, over 30 days (SPEC §9). */
  "/sys/ipfsBusiness/ipfs/traffic": { auth: "user", payload: serviceRef, data: ipfsTrafficSchema },
  /** My account: the caller's IPFS data usage by city node gateway over 30 days. */
  "/sys/ipfsBusiness/ipfs/usageByGateway": { auth: "user", payload: z.object({}), data: ipfsUsageSchema },
} satisfies Record<string, PathSpec>;

/** Tests only (TEST_FIXTURES=1): a service's capacity set in bytes, so that "over capacity" needs no gigabytes. */
export const ipfsFixturePaths = {
  "/test/ipfs/capacity": {
    auth: "user",
    payload: z.object({ ipfsServiceId: id(), capacityBytes: z.number().int().min(0) }),
    data: z.object({ ipfsServiceId: z.number().int(), capacityBytes: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;
