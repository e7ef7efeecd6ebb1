import type { KeyObject } from "node:crypto";
import type { Deps } from "#backend/deps.ts";
import type { FabricPeer } from "../peer-api.ts";
import { admitCaller, mspIdOfAppCode, serviceOfChannel } from "./admit.ts";
import type { Endorser } from "./endorse.ts";
import type { GatewayCaller } from "./meter.ts";
import { Memo, certificateKey } from "./memo.ts";
import { issuePeerIdentity } from "./tls.ts";
import type { GatewayChannel } from "./types.ts";

/**
 * The gateway's `resolve` over the portal's database, for the embedded peers (docs/decisions/065): a channel name →
 * the Fabric service it stands for, that service's peer (`peerOf`, from the embedded peers; null while none serves
 * it), its CA as the MSP
 * (`caOf`: participation's service CA), the peer's endorsing identity (issued by that CA once per process and
 * kept while the CA is the same), and `admitCaller` for who may call. A channel's resolution and each admitted
 * caller are remembered for a few seconds (./memo.ts), so a call usually reads nothing from the database.
 */
export type ServiceRef = { id: number; appCode: string; name: string };

export function channelResolver(
  deps: Pick<Deps, "db" | "now">,
  options: {
    peerOf(service: ServiceRef): Promise<FabricPeer | null>;
    caOf(service: ServiceRef): Promise<{ certificatePem: string; privateKey: KeyObject }>;
  },
): (channel: string) => Promise<GatewayChannel<GatewayCaller> | null> {
  const endorsers = new Map<number, { caPem: string; endorser: Promise<Endorser> }>();
  const channels = new Memo<GatewayChannel<GatewayCaller> | null>();
  const callers = new Memo<GatewayCaller | null>();
  const resolve = async (channel: string): Promise<GatewayChannel<GatewayCaller> | null> => {
    const service = await serviceOfChannel(deps.db, channel);
    if (!service || service.framework !== "fabric") return null;
    const peer = await options.peerOf(service);
    if (!peer) return null;
    const ca = await options.caOf(service);
    const mspId = mspIdOfAppCode(service.appCode);
    let held = endorsers.get(service.id);
    if (!held || held.caPem !== ca.certificatePem) {
      const endorser = issuePeerIdentity(ca, { mspId, channel, now: deps.now() });
      endorsers.set(service.id, (held = { caPem: ca.certificatePem, endorser }));
      endorser.catch(() => endorsers.delete(service.id));
    }
    return {
      peer,
      mspId,
      caPem: ca.certificatePem,
      endorser: await held.endorser,
      admit: (pem) =>
        callers.get(
          `${service.id}|${certificateKey(pem)}`,
          () => admitCaller(deps.db, service.id, pem),
          (caller) => caller !== null,
        ),
    };
  };
  return (channel) =>
    channels.get(
      channel,
      () => resolve(channel),
      (found) => found !== null,
    );
}

/** A channel's member organisation as a connected network's config holds it: its MSP id and root CA (PEM). */
export type ChannelMsp = { mspId: string; caPem: string };

/**
 * The gateway's `resolve` over a channel configuration instead of the portal's database (docs/decisions/068): the
 * stand-in Fabric network (scripts/fabric-network.ts) admits a caller the way a Fabric peer's channel MSP does, by
 * its certificate chaining to the CA of the organisation its MSP id names (the chain is the gateway's check), with
 * no participant list behind it. A channel is served once its chaincode is installed and an organisation added;
 * the peer endorses as its own organisation (`endorser`: a certificate of the network's CA, issued once per channel).
 */
export function mspResolver(options: {
  peerOf(channel: string): Promise<FabricPeer | null>;
  mspOf(channel: string): ChannelMsp | null;
  endorser: { ca: { certificatePem: string; privateKey: KeyObject }; mspId: string };
  now(): Date;
}): (channel: string) => Promise<GatewayChannel<{ certificatePem: string }> | null> {
  const endorsers = new Map<string, Promise<Endorser>>();
  return async (channel) => {
    const member = options.mspOf(channel);
    if (!member) return null;
    const peer = await options.peerOf(channel);
    if (!peer) return null;
    let endorser = endorsers.get(channel);
    if (!endorser) {
      endorser = issuePeerIdentity(options.endorser.ca, { mspId: options.endorser.mspId, channel, now: options.now() });
      endorsers.set(channel, endorser);
      endorser.catch(() => endorsers.delete(channel));
    }
    return {
      peer,
      mspId: member.mspId,
      caPem: member.caPem,
      endorser: await endorser,
      admit: async (certificatePem) => ({ certificatePem }),
    };
  };
}
