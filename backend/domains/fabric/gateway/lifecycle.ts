import { peer as peerProtos } from "@hyperledger/fabric-protos";
import type { FabricPeer } from "../peer-api.ts";

/**
 * The channel's `_lifecycle` system chaincode, as far as the gateway answers it (docs/decisions/068): the query a
 * client evaluates to read the committed definition of a chaincode, `QueryChaincodeDefinition` with
 * `lifecycle.QueryChaincodeDefinitionArgs{name}`, answered with `lifecycle.QueryChaincodeDefinitionResult{sequence,
 * version, ...}` from what the peer's install committed. Any other function is refused, as the stand-in installs and
 * commits through its admin commands rather than through `_lifecycle` transactions.
 */
export const LIFECYCLE = "_lifecycle";
export const QUERY_DEFINITION = "QueryChaincodeDefinition";

export type LifecycleAnswer = { status: number; message: string; payload: Uint8Array };

export async function lifecycleQuery(peer: FabricPeer, args: Uint8Array[]): Promise<LifecycleAnswer> {
  const fn = new TextDecoder().decode(args[0] ?? new Uint8Array());
  const refuse = (message: string) => ({ status: 500, message, payload: new Uint8Array() });
  if (fn !== QUERY_DEFINITION) return refuse(`_lifecycle function ${JSON.stringify(fn)} is not answered here`);
  let name: string;
  try {
    name = peerProtos.lifecycle.QueryChaincodeDefinitionArgs.deserializeBinary(args[1] ?? new Uint8Array()).getName();
  } catch {
    return refuse("failed to decode the QueryChaincodeDefinitionArgs");
  }
  if (!name) return refuse("QueryChaincodeDefinitionArgs names no chaincode");
  const found = peer.definition
    ? await peer.definition(name)
    : peer.chaincode()?.name === name
      ? { ...peer.chaincode()!, sequence: 1 }
      : null;
  if (!found) return refuse(`query failed: namespace ${name} is not defined`);
  const result = new peerProtos.lifecycle.QueryChaincodeDefinitionResult();
  result.setSequence(found.sequence);
  result.setVersion(found.version);
  result.setEndorsementPlugin("escc");
  result.setValidationPlugin("vscc");
  result.setInitRequired(true);
  return { status: 200, message: "", payload: result.serializeBinary() };
}
