import { BillType } from "./billing-codes.ts";

/**
 * Codes of IPFS storage (SPEC §3 IPFS service, §4 IPFS upgrade and key, §9; docs/decisions/039), without Zod,
 * so that browser code can use them without loading the schemas. contract/ipfs.ts re-exports them.
 */

/** SPEC §4 IPFS key: 0 deactivated, 1 activated, 2 unsubscribed. */
export const IpfsKeyState = { DEACTIVATED: 0, ACTIVATED: 1, UNSUBSCRIBED: 2 } as const;
export const IPFS_KEY_STATES: readonly number[] = Object.values(IpfsKeyState);

/** SPEC §4 IPFS upgrade: 0 pending, 2 operations processing, 5 success, 6 failed. */
export const IpfsUpgradeStatus = { PENDING: 0, PROCESSING: 2, SUCCESS: 5, FAILED: 6 } as const;

/** An IPFS service: 1 running, 2 unsubscribed (its keys are then 2 too). */
export const IpfsServiceStatus = { RUNNING: 1, UNSUBSCRIBED: 2 } as const;

/** The two keys of a service: uploads and downloads. */
export const IPFS_KEY_KINDS = ["upload", "download"] as const;
export type IpfsKeyKind = (typeof IPFS_KEY_KINDS)[number];

/** Bytes in a GB of capacity and traffic (binary, as the traffic bills count GB at 1024 MB). */
export const GB = 1024 ** 3;

/**
 * SPEC §7 selectCapacity: the capacities a service may have (GB, `storeUnit`) and the monthly price of a GB at
 * each are the operators' price catalogue (the ipfs domain's ipfs_capacities table, docs/decisions/073).
 */

/** A service is bought for a month; the first period is paid on creation (SPEC §9). */
export const IPFS_PERIOD_DAYS = 30;

/** The bill category of IPFS (SPEC §9): the capacity on creation and the weekly download traffic. */
export const IPFS_BILL_TYPE = BillType.IPFS;

/** SPEC §9 traffic usage chart: 30 days. */
export const IPFS_TRAFFIC_DAYS = 30;
/** The files the Traffic page lists, served most first (docs/decisions/093). */
export const IPFS_TOP_FILES = 10;

/** Where every city node gateway of a service serves: `<site>/ipfs-gw/<city node code>`. */
export const IPFS_GATEWAY_PREFIX = "/ipfs-gw/";

/** The largest single upload a gateway reads, 100 MiB (the service's free capacity is the other limit; docs/decisions/039). */
export const IPFS_UPLOAD_LIMIT_BYTES = 100 * 1024 * 1024;

/** §5 service name: like other console names, 1-50 characters. */
export const IPFS_NAME_MAX = 50;
