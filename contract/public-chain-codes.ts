import { BillType } from "./billing-codes.ts";

/**
 * Codes of the public chain (SPEC §1, §3, §4, §9; docs/decisions/026), without Zod, so that browser code can
 * use them without loading the schemas. contract/public-chain.ts re-exports them.
 */

/** SPEC §4 Open-alliance project. */
export const ProjectStatus = {
  PENDING_DEPLOYMENT: 1,
  FAILED: 5,
  DEPLOYING: 10,
  TO_BE_ENABLED: 11,
  PUBLISHED: 15,
  ENABLED: 16,
  DEACTIVATED: 20,
} as const;
export type ProjectStatusCode = (typeof ProjectStatus)[keyof typeof ProjectStatus];
export const PROJECT_STATUSES: readonly ProjectStatusCode[] = Object.values(ProjectStatus);

/** SPEC §4 Chain account key type. */
export const KeyType = { CUSTODY: 1, PUBLIC_KEY: 2, ADDRESS: 3 } as const;
export const KEY_TYPES: readonly number[] = Object.values(KeyType);

/** A plan on an organisation node: 1 active, 2 deactivated (docs/decisions/026). */
export const PlanStatus = { ACTIVE: 1, DEACTIVATED: 2 } as const;

/** A gas assignment: 1 transferring, 15 done, 30 refunded after a failed transfer. */
export const GasStatus = { TRANSFERRING: 1, DONE: 15, REFUNDED: 30 } as const;

/** The frameworks a public-chain project may run on; the open-alliance chain is EVM-based. */
export const PUBLIC_CHAIN_FRAMEWORKS = ["evm"] as const;

/** SPEC §3 organisation node record, appType: the open-alliance chain. */
export const OPEN_ALLIANCE_APP_TYPE = 1;

/** The bill type of a public-chain plan fee (one of §9's numeric codes without a name; docs/decisions/026). */
export const PLAN_BILL_TYPE = BillType.PUBLIC_CHAIN_PLAN;

/** SPEC §9: each public-chain request counts up to 5 MB; excess counts as new requests. */
export const REQUEST_UNIT_BYTES = 5 * 1024 * 1024;
/** The largest JSON-RPC request body the keyed endpoint reads (counted as ceil(size / 5 MB) requests). */
export const RPC_BODY_LIMIT_BYTES = 32 * 1024 * 1024;

/**
 * Wei in one coin of gas. What a US cent buys is the operators' gas rate, the price of a coin (docs/decisions/026,
 * 073): at 100 USD a coin, a cent buys 0.0001 ether, about 5 transfers at 1 gwei.
 */
export const WEI_PER_COIN = 10n ** 18n;
/** The wei an amount of cents buys at a coin price (USD cents, never 0). */
export const weiForCents = (amountCents: number, coinPriceCents: number) =>
  (BigInt(amountCents) * WEI_PER_COIN) / BigInt(Math.max(1, coinPriceCents));

/** SPEC §9 Charts: plan statistics over 7 days, 1 month, 3 months; gas over 5 and 30 days. */
export const STATS_RANGES = { "7d": 7, "1m": 30, "3m": 90 } as const;
export const GAS_RANGES = { "5d": 5, "30d": 30 } as const;

/** SPEC §5 chain account name: letters, digits, Chinese, spaces and .:-_@, at most 50. */
export const ACCOUNT_NAME_RE = /^[A-Za-z0-9\u4e00-\u9fff .:\-_@]{1,50}$/;
