/**
 * Codes of contract deployment on the open-alliance chain (SPEC §4 Contract deployment, §5 Contract name;
 * docs/decisions/033), without Zod, so that browser code can use them. contract/contracts.ts re-exports them.
 */

/** SPEC §4 Contract deployment: 0 pending, 1 deploying, 2 success, 3 failed. */
export const ContractStatus = { PENDING: 0, DEPLOYING: 1, SUCCESS: 2, FAILED: 3 } as const;
export type ContractStatusCode = (typeof ContractStatus)[keyof typeof ContractStatus];
export const CONTRACT_STATUSES: readonly ContractStatusCode[] = Object.values(ContractStatus);
/** The statuses of a deployment under way: one at a time per project, and they block edits. */
export const CONTRACT_BUSY_STATUSES: readonly number[] = [ContractStatus.PENDING, ContractStatus.DEPLOYING];

/** Where the contract comes from: Solidity source compiled on the server, or an ABI with its bytecode. */
export const CONTRACT_SOURCES = ["source", "abi"] as const;
export type ContractSourceKind = (typeof CONTRACT_SOURCES)[number];

/** Limits of the deployment form (a JSON body is at most 1 MB). */
export const CONTRACT_NAME_MAX = 50;
export const CONTRACT_SOURCE_MAX = 200_000;
export const CONTRACT_ABI_MAX = 200_000;
/** EIP-3860: init code is at most 49,152 bytes (98,304 hex digits). */
export const CONTRACT_BYTECODE_MAX_HEX = 2 + 49_152 * 2;
/** Arguments of a constructor or a read function, as typed. */
export const CONTRACT_ARGS_MAX = 20;
export const CONTRACT_ARG_MAX = 2_000;
