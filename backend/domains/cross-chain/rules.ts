import {
  CROSS_DELIVERY_ATTEMPTS,
  CrossProtocol,
  PROTOCOL_2_SAMPLES,
  type CrossSampleKind,
} from "#contract/cross-chain-codes.ts";
import { Msg } from "#contract/messages.ts";
import { VerState } from "#contract/service-status.ts";

/** The pure rules of cross-chain services (docs/decisions/048), tested by tables in tests/unit/cross-chain.test.ts. */

/** The protocols every one of a service's city nodes supports (§8 "Nodes do not support the chosen interchain protocol"). */
export function protocolsOfNodes(nodes: readonly { interchainProtocols: readonly number[] }[]): number[] {
  if (!nodes.length) return [];
  return [CrossProtocol.ENTERPRISE, CrossProtocol.APP].filter((p) =>
    nodes.every((n) => n.interchainProtocols.includes(p)),
  );
}

export type OpenFacts = {
  verState: number;
  /** The service runs on a chain of its own (docs/decisions/038). */
  hasChain: boolean;
  /** A service upgrade (a newer version under way) or a configuration upgrade in progress. */
  upgrading: boolean;
  /** The owner has an unpaid cross-chain bill. */
  unpaidCrossChainBill: boolean;
  /** The protocols its city nodes support. */
  protocols: readonly number[];
};

/**
 * Why the service cannot be opened to cross-chain now (a §5/§8 message key), or null. `protocol` is the one
 * chosen (omitted: the question is whether any protocol could be chosen, for SelectService).
 */
export function openRefusal(f: OpenFacts, protocol?: number): string | null {
  if (f.verState !== VerState.RUNNING) return Msg.XC_SERVICE_NOT_RUNNING;
  if (!f.hasChain) return Msg.XC_NO_CHAIN;
  if (f.upgrading) return Msg.XC_UPGRADING;
  if (f.unpaidCrossChainBill) return Msg.XC_UNPAID_BILL;
  if (protocol === undefined ? f.protocols.length === 0 : !f.protocols.includes(protocol))
    return Msg.XC_PROTOCOL_UNSUPPORTED;
  return null;
}

/** Version states that mean a newer version (a service upgrade) is not under way any more. */
const SETTLED_VERSION_STATES: readonly number[] = [
  VerState.RUNNING,
  VerState.DEACTIVATED,
  VerState.UNINSTALLED,
  VerState.DEACTIVATED_BY_OPERATOR,
];

/** A service upgrade is under way when a version newer than the running one is not settled (draft to publishing). */
export function serviceUpgradeUnderWay(
  currentVerId: number | null,
  versions: readonly { id: number; verState: number }[],
): boolean {
  if (currentVerId === null) return false;
  return versions.some((v) => v.id > currentVerId && !SETTLED_VERSION_STATES.includes(v.verState));
}

/** Whether a sample kind may be sent with the service's protocol (NFT and deposit: protocol 2 only). */
export function sampleAllowed(kind: CrossSampleKind, protocol: number): boolean {
  return protocol === CrossProtocol.APP || !PROTOCOL_2_SAMPLES.includes(kind);
}

/** The wait before delivery attempt `attempt + 1` after `attempt` failed: 0.5 s, 1 s, 2 s, ... at most 8 s. */
export function retryDelayMs(attempt: number): number {
  return Math.min(8_000, 500 * 2 ** Math.max(0, attempt - 1));
}

/** After a failed attempt: the call fails for good (status 2) once the attempts are spent. */
export function isFinalAttempt(attempts: number): boolean {
  return attempts >= CROSS_DELIVERY_ATTEMPTS;
}

/** The text of an ABI-encoded `Error(string)` (a revert's data: 0x08c379a0, offset, length, bytes), if it is one. */
function revertText(data: unknown): string | undefined {
  if (typeof data !== "string" || !/^0x08c379a0([0-9a-fA-F]{64}){2}/.test(data)) return undefined;
  const length = Number.parseInt(data.slice(74, 138), 16);
  const bytes = data.slice(138, 138 + length * 2);
  return bytes.length === length * 2 ? Buffer.from(bytes, "hex").toString("utf8") : undefined;
}

/**
 * A chain's error as one short line: the revert reason when it carries one, from the revert's data (every node
 * sends it) or its message ("execution reverted: x", Hardhat's "reverted with reason string 'x'" → "x").
 */
export function reasonOf(error: unknown): string {
  const decoded = typeof error === "object" && error && "data" in error ? revertText(error.data) : undefined;
  if (decoded) return decoded.slice(0, 500);
  const message =
    error instanceof Error
      ? error.message
      : typeof error === "object" && error && "message" in error
        ? String((error as { message: unknown }).message)
        : String(error);
  const line = message.split("\n")[0] ?? "";
  const hardhat = /reverted with reason string '(.*)'/.exec(line);
  if (hardhat?.[1]) return hardhat[1].slice(0, 500);
  const reverted = /execution reverted(?::\s*(.*))?/.exec(line);
  if (reverted) return (reverted[1]?.trim() || "the target reverted without a reason").slice(0, 500);
  return line.slice(0, 500) || "unknown error";
}
