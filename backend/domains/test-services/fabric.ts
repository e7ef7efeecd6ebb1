import { Msg } from "#contract/messages.ts";
import type { TestChaincodeAnswer } from "#contract/test-services.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError } from "#backend/http/errors.ts";
import { EngineUnreachableError } from "#backend/kit/engine-link.ts";
import fabric, { ChaincodeRefused, type ProposalSigner } from "#backend/domains/fabric/index.ts";
import { openIdentityKey } from "./network.ts";
import type { TestServiceRow } from "./machine.ts";

/**
 * Fabric test services (docs/decisions/069): a Node.js chaincode package installed on a channel of its own of the
 * embedded Fabric peer. The channel is `test-<app code>`: services' channels have no hyphen, so none collides. A
 * deployment starts the channel over (an upgrade or a re-deploy runs Init again on an empty ledger, as the Solidity
 * test service's new contract starts empty); a delete drops it. Init and the console's calls are signed by the
 * service's issued test identity (MSP `<APPCODE>MSP`, its certificate and sealed key), not the peer's own.
 */
export const testChannelOf = (appCode: string) => `test-${appCode.toLowerCase()}`;
export const chaincodeNameOf = (appCode: string) => appCode.toLowerCase();

/** The test service's issued identity as the signer of its proposals (null for a row that has none). */
function signerOf(row: TestServiceRow, deps: Deps): ProposalSigner | undefined {
  if (!row.certificatePem || !row.certificateKeySealed) return undefined;
  return {
    mspId: fabric.api.mspIdOf(row.appCode),
    certificatePem: row.certificatePem,
    privateKeyPem: openIdentityKey(deps.env, row.certificateKeySealed),
  };
}

type Outcome =
  { ok: true; set: Partial<TestServiceRow> } | { ok: false; reason: string; suggestion: "chaincode" | "network" };

export async function deployOnFabric(row: TestServiceRow, deps: Deps): Promise<Outcome> {
  const file = row.packageFileId ? await deps.files.read(deps.db, row.packageFileId) : null;
  if (!file) return { ok: false, reason: "the chaincode package is missing: upload it again", suggestion: "chaincode" };
  const channel = testChannelOf(row.appCode);
  const initArgs = row.initParams.trim() ? row.initParams.split(",").map((p) => p.trim()) : undefined;
  try {
    await fabric.api.dropChannel(deps, channel);
    const installed = await fabric.api.installChaincode(deps, {
      channel,
      name: chaincodeNameOf(row.appCode),
      version: row.version,
      packageZip: new Uint8Array(file.bytes),
      initArgs,
      initSigner: signerOf(row, deps),
    });
    const peer = await fabric.api.peerFor(deps, { channel });
    return {
      ok: true,
      set: {
        channel,
        chainName: null,
        contractName: installed.name,
        contractAddress: null,
        abi: null,
        txHash: installed.initTxId,
        blockNumber: Number(peer.height()) - 1,
        failReason: null,
        suggestion: null,
      },
    };
  } catch (error) {
    await fabric.api.dropChannel(deps, channel).catch(() => undefined);
    if (error instanceof ChaincodeRefused)
      return { ok: false, reason: error.problems.join("\n").slice(0, 4000), suggestion: "chaincode" };
    return { ok: false, reason: error instanceof Error ? error.message : String(error), suggestion: "network" };
  }
}

/** Drops a Fabric test service's channel (its delete; nothing when it never had one). */
export async function dropTestChannel(row: Pick<TestServiceRow, "channel">, deps: Deps) {
  if (row.channel) await fabric.api.dropChannel(deps, row.channel);
}

const text = (bytes: Uint8Array) => new TextDecoder().decode(bytes);

type ChaincodeCall = { mode: "query" | "invoke"; fn: string; args: string[] };

/**
 * A query (simulated only) or an invoke (simulated, then ordered and committed) of the service's chaincode. When the
 * peer's holder cannot answer (unreachable, or the peer moved to another process during an order: nothing was
 * acknowledged, docs/decisions/109), it is the chain not answering (MSG_42016), never a 500.
 */
export async function callChaincode(deps: Deps, row: TestServiceRow, input: ChaincodeCall) {
  try {
    return await callOnPeer(deps, row, input);
  } catch (error) {
    if (error instanceof EngineUnreachableError) throw new ApiError(Msg.CHAIN_UNAVAILABLE);
    throw error;
  }
}

async function callOnPeer(deps: Deps, row: TestServiceRow, input: ChaincodeCall): Promise<TestChaincodeAnswer> {
  const channel = row.channel!;
  const chaincode = row.contractName!;
  const peer = await fabric.api.peerFor(deps, { channel });
  const proposal = await fabric.api.localProposal(
    deps,
    { channel, chaincode, args: [input.fn, ...input.args] },
    signerOf(row, deps),
  );
  const sim = await peer.simulate(proposal);
  const answer = {
    status: sim.response.status,
    message: sim.response.message,
    payload: text(sim.response.payload),
    txId: proposal.txId,
    validationCode: null,
    blockNumber: null,
  };
  if (input.mode === "query" || sim.response.status >= 400) return answer;
  const commit = await peer.order({
    channel,
    txId: proposal.txId,
    chaincode,
    results: sim.results,
    event: sim.event,
    envelope: fabric.api.endorsedEnvelope({
      channel,
      txId: proposal.txId,
      chaincode: sim.chaincodeId,
      creator: proposal.creator.serialized,
      results: sim.results,
      event: sim.event,
      response: sim.response,
      timestamp: proposal.timestamp,
    }),
  });
  return { ...answer, validationCode: commit.validationCode, blockNumber: Number(commit.blockNumber) };
}
