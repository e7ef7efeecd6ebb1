import { BillType } from "./billing-codes.ts";

/**
 * Codes of cross-chain services (SPEC §3 cross-chain call record, §4 cross-chain statuses, §5, §9;
 * docs/decisions/048), without Zod, so that browser code can use them. contract/cross-chain.ts re-exports them.
 */

/** SPEC §4 Cross-chain: 0 deactivated, 1 activated, 2 closed, 3 pending activation, 4 pending deactivation. */
export const CrossStatus = {
  DEACTIVATED: 0,
  ACTIVATED: 1,
  CLOSED: 2,
  PENDING_ACTIVATION: 3,
  PENDING_DEACTIVATION: 4,
} as const;
export const CROSS_CHAIN_STATUSES: readonly number[] = Object.values(CrossStatus);

/** SPEC §4 Cross-chain call: 0 unknown (sent, not delivered yet), 1 success, 2 failure. */
export const CrossCallStatus = { UNKNOWN: 0, SUCCESS: 1, FAILURE: 2 } as const;
export const CROSS_CALL_STATUSES: readonly number[] = Object.values(CrossCallStatus);

/**
 * SPEC §9: the two interchain protocols. 1: the enterprise interchain framework (messages between chains of
 * any of its four frameworks); 2: the second framework, whose services carry an APPCode, with NFT and deposit
 * sample services.
 */
export const CrossProtocol = { ENTERPRISE: 1, APP: 2 } as const;
export const CROSS_PROTOCOL_IDS = [1, 2] as const;

/** What `send` sends: a text message (both protocols), an NFT locked here and minted there, a deposit record (protocol 2), or any call. */
export const CROSS_SAMPLE_KINDS = ["message", "nft", "deposit", "call"] as const;
export type CrossSampleKind = (typeof CROSS_SAMPLE_KINDS)[number];
/** The samples of protocol 2 only (§9 "a second framework with NFT and deposit sample services"). */
export const PROTOCOL_2_SAMPLES: readonly CrossSampleKind[] = ["nft", "deposit"];

/*
 * SPEC §9: one successful cross-chain call is billed weekly to the source chain's owner at the operators' price
 * (the cross-chain domain's cross_fees, docs/decisions/073), read when the call is relayed.
 */
/** The bill category of cross-chain calls (SPEC §9). */
export const CROSS_CHAIN_BILL_TYPE = BillType.CROSS_CHAIN;

/** The open-alliance chain (the registry's name): always a target. */
export const OPEN_ALLIANCE_CHAIN = "open-alliance";

/** A delivery is tried this many times (with backoff) before the call is a failure (docs/decisions/048). */
export const CROSS_DELIVERY_ATTEMPTS = 4;

/** An APPCode of protocol 2: 3-32 letters, digits, dash or underscore. */
export const CROSS_APP_CODE_PATTERN = /^[A-Za-z0-9_-]{3,32}$/;
/** A text message: at most 256 characters. */
export const CROSS_MESSAGE_MAX = 256;
/** The calls table and its CSV export read pages of up to this many rows. */
export const CROSS_CALLS_PAGE_MAX = 1000;
