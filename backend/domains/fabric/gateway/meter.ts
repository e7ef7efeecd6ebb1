import type { Deps } from "#backend/deps.ts";
import billing from "#backend/domains/billing/index.ts";
import type { GatewayMetered } from "./types.ts";

/**
 * Who a gateway call is counted under (docs/decisions/057): the same row key as the service's JSON-RPC door
 * (backend/domains/services/chain-endpoint.ts): the publisher who pays, the service, the participant's join (0
 * for the publisher's own calls) and user, and the city node of the channel's peer.
 */
export type GatewayCaller = {
  userId: number;
  appId: number;
  joinId: number;
  callerId: number | null;
  cityNodeId: number;
};

/** The gateway's `meter` option: each call through billing's one meter, per service, participant, node, method, day. */
export function gatewayMeter(deps: Pick<Deps, "db" | "now">) {
  return (call: GatewayMetered<GatewayCaller>) =>
    billing.api.meterTraffic(deps, {
      ...call.participant,
      method: call.method,
      calls: call.calls,
      bytesIn: call.bytesIn,
      bytesOut: call.bytesOut,
    });
}
