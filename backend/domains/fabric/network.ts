import type { KeyObject } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { GatewayError, connect, hash, signers } from "@hyperledger/fabric-gateway";
import type { BackendEnv } from "#backend/env.ts";
import { channelOfAppCode, mspIdOfAppCode } from "./gateway/admit.ts";
import { issueClientIdentity } from "./gateway/tls.ts";

/**
 * A connected Fabric network (FABRIC_PEER_ENDPOINT, docs/decisions/068): the product deploys nothing there. The
 * network's admin installs and commits the service's chaincode (named by its app code in lower case, versioned by the
 * service's version) on the service's channel (the same name in lower case) and adds the service's CA to that channel
 * as the organisation `<APPCODE>MSP`. At deploy the portal checks that the chaincode answers: through the official
 * client it evaluates the contract API's `org.hyperledger.fabric:GetMetadata` (every contract-API chaincode, Node.js,
 * Go or Java, has it; a chaincode's own error answer counts as an answer: it ran), signed by a client identity of the service's CA issued for this one check in memory (a
 * fresh key, valid for a day, never stored and never sent anywhere but as the proposal's signature).
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

/** Whether the service's chaincode answers on the connected network, or the network's reason why not. */
export async function checkOnNetwork(
  network: Network,
  service: { appCode: string },
  ca: { certificatePem: string; privateKey: KeyObject },
  now: Date,
): Promise<{ ok: true } | { ok: false; reason: string }> {
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
  try {
    const contract = gateway.getNetwork(channelOfAppCode(service.appCode)).getContract(service.appCode.toLowerCase());
    await contract.evaluateTransaction(METADATA_FUNCTION);
    return { ok: true };
  } catch (error) {
    // The chaincode ran and answered with an error of its own (Fabric's "chaincode response <status>, …"): it is
    // installed, committed and reachable with the service's identity; that is what the check asks.
    if (error instanceof GatewayError && error.details.some((d) => CHAINCODE_ANSWERED.test(d.message)))
      return { ok: true };
    return { ok: false, reason: reasonOf(error) };
  } finally {
    gateway.close();
    client.close();
  }
}
