import type { KeyObject } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { GatewayError, connect, hash, signers } from "@hyperledger/fabric-gateway";
import { peer as peerProtos } from "@hyperledger/fabric-protos";
import type { BackendEnv } from "#backend/env.ts";
import { channelOfAppCode, mspIdOfAppCode } from "./gateway/admit.ts";
import { LIFECYCLE, QUERY_DEFINITION } from "./gateway/lifecycle.ts";
import { issueClientIdentity } from "./gateway/tls.ts";

/**
 * A connected Fabric network (FABRIC_PEER_ENDPOINT, docs/decisions/068): the product deploys nothing there. The
 * network's admin installs and commits the service's chaincode (named by its app code in lower case, versioned by the
 * service's version) on the service's channel (the same name in lower case) and adds the service's CA to that channel
 * as the organisation `<APPCODE>MSP`. At deploy the portal checks that the chaincode answers: through the official
 * client it evaluates the contract API's `org.hyperledger.fabric:GetMetadata` (every contract-API chaincode, Node.js,
 * Go or Java, has it; a chaincode's own error answer counts as an answer: it ran), signed by a client identity of the service's CA issued for this one check in memory (a
 * fresh key, valid for a day, never stored and never sent anywhere but as the proposal's signature). Then it asks the
 * channel's `_lifecycle` for the committed definition (`QueryChaincodeDefinition`, as a real peer answers it): a
 * committed version other than the service's is a failure of its own (`mismatch`), for the admin to commit the
 * service's version.
 */
export const METADATA_FUNCTION = "org.hyperledger.fabric:GetMetadata";
const CHECK_DEADLINE_MS = 15_000;
const CHAINCODE_ANSWERED = /^chaincode response \d+,/;

type Network = NonNullable<BackendEnv["fabricNetwork"]>;

/** What the network answered, as text for the deploy report: the gateway's message and its peers' details. */
function reasonOf(error: unknown): string {
  if (error instanceof GatewayError) {
    const details = error.details.map((d) => `${d.mspId || d.address}: ${d.message}`);
    return [error.message, ...details].join("; ");
  }
  return error instanceof Error ? error.message : String(error);
}

export type NetworkCheck =
  { ok: true } | { ok: false; reason: string; mismatch?: { committed: string; sequence: number } };

/** The committed definition of `name` on the channel, from its `_lifecycle` (a refusal throws the gateway's error). */
async function committedDefinition(network: { getContract(name: string): { evaluate: Evaluate } }, name: string) {
  const args = new peerProtos.lifecycle.QueryChaincodeDefinitionArgs();
  args.setName(name);
  const bytes = await network
    .getContract(LIFECYCLE)
    .evaluate(QUERY_DEFINITION, { arguments: [args.serializeBinary()] });
  const result = peerProtos.lifecycle.QueryChaincodeDefinitionResult.deserializeBinary(bytes);
  return { version: result.getVersion(), sequence: result.getSequence() };
}
type Evaluate = (name: string, options: { arguments: Uint8Array[] }) => Promise<Uint8Array>;

/**
 * Whether the service's chaincode answers on the connected network at the service's version, or the network's
 * reason why not (with the committed version when only the version differs).
 */
export async function checkOnNetwork(
  network: Network,
  service: { appCode: string; version: string },
  ca: { certificatePem: string; privateKey: KeyObject },
  now: Date,
): Promise<NetworkCheck> {
  const mspId = mspIdOfAppCode(service.appCode);
  const identity = await issueClientIdentity(ca, { mspId, name: `portal-check.${service.appCode}`, now });
  const client = new grpc.Client(network.address, grpc.credentials.createSsl(Buffer.from(network.tlsCaPem)));
  const gateway = connect({
    client,
    identity: { mspId, credentials: Buffer.from(identity.certificatePem) },
    signer: signers.newPrivateKeySigner(identity.privateKey),
    hash: hash.sha256,
    evaluateOptions: () => ({ deadline: Date.now() + CHECK_DEADLINE_MS }),
  });
  const channel = gateway.getNetwork(channelOfAppCode(service.appCode));
  const name = service.appCode.toLowerCase();
  try {
    try {
      await channel.getContract(name).evaluateTransaction(METADATA_FUNCTION);
    } catch (error) {
      // The chaincode ran and answered with an error of its own (Fabric's "chaincode response <status>, …"): it is
      // installed, committed and reachable with the service's identity; that is what this step asks.
      if (!(error instanceof GatewayError && error.details.some((d) => CHAINCODE_ANSWERED.test(d.message))))
        throw error;
    }
    const committed = await committedDefinition(channel, name);
    if (committed.version === service.version) return { ok: true };
    return {
      ok: false,
      reason: `the channel's committed definition of ${name} is version ${committed.version} (sequence ${committed.sequence}), not ${service.version}`,
      mismatch: { committed: committed.version, sequence: committed.sequence },
    };
  } catch (error) {
    return { ok: false, reason: reasonOf(error) };
  } finally {
    gateway.close();
    client.close();
  }
}
