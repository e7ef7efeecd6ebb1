import { createHash, createPrivateKey, randomBytes, webcrypto } from "node:crypto";
import { common, msp, peer as pb } from "@hyperledger/fabric-protos";
import type { ProposalInput } from "../peer-api.ts";
import { ECDSA_P256_SHA256 as ALG, x509 } from "#backend/kit/x509.ts";
import { timestampOf } from "./blocks.ts";

const crypto = webcrypto as unknown as Crypto;

/** The embedded peer's own MSP id: the identity of the transactions the peer makes itself (a chaincode's Init). */
export const PEER_MSP = "EmbeddedPeerMSP";

export type LocalIdentity = { mspId: string; certificatePem: string; key: CryptoKey; serialized: Uint8Array };

/** A self-signed identity made in memory at start (never stored: it signs nothing that outlives the proposal). */
export async function localIdentity(commonName = "embedded-peer"): Promise<LocalIdentity> {
  const keys = await crypto.subtle.generateKey(ALG, true, ["sign", "verify"]);
  const now = Date.now();
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: randomBytes(8).toString("hex"),
    name: `CN=${commonName}, O=${PEER_MSP}`,
    notBefore: new Date(now - 60_000),
    notAfter: new Date(now + 365 * 24 * 3600_000),
    signingAlgorithm: ALG,
    keys,
  });
  const certificatePem = cert.toString("pem");
  const id = new msp.SerializedIdentity();
  id.setMspid(PEER_MSP);
  id.setIdBytes(new TextEncoder().encode(certificatePem));
  return { mspId: PEER_MSP, certificatePem, key: keys.privateKey, serialized: id.serializeBinary() };
}

/** The first certificate of a PEM chain (a leaf, then its CA): the one a `SerializedIdentity` carries. */
const leafOf = (pem: string) => /-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/.exec(pem)?.[0] ?? pem;

/**
 * An issued identity as a signer of proposals (a test service's test identity, docs/decisions/069): MSP `mspId`, the
 * certificate (the leaf of `certificatePem`) and its PKCS#8 P-256 private key. The key stays in memory.
 */
export async function identityOf(input: {
  mspId: string;
  certificatePem: string;
  privateKeyPem: string;
}): Promise<LocalIdentity> {
  const der = createPrivateKey(input.privateKeyPem).export({ type: "pkcs8", format: "der" });
  const key = await crypto.subtle.importKey("pkcs8", Uint8Array.from(der), ALG, false, ["sign"]);
  const certificatePem = leafOf(input.certificatePem).trim() + "\n";
  const id = new msp.SerializedIdentity();
  id.setMspid(input.mspId);
  id.setIdBytes(new TextEncoder().encode(certificatePem));
  return { mspId: input.mspId, certificatePem, key, serialized: id.serializeBinary() };
}

/**
 * A signed proposal of `identity` for `args` (function first) on the channel's chaincode, as a Fabric client
 * builds one (txId = hex SHA-256 of nonce + creator): the peer's own Init and the tests' calls, which have no
 * gateway in front of them.
 */
export async function localProposal(
  identity: LocalIdentity,
  input: { channel: string; chaincode: string; args: (string | Uint8Array)[]; timestamp?: Date },
): Promise<ProposalInput> {
  const nonce = randomBytes(24);
  const txId = createHash("sha256").update(nonce).update(identity.serialized).digest("hex");
  const timestamp = input.timestamp ?? new Date();
  const args = input.args.map((a) => (typeof a === "string" ? new TextEncoder().encode(a) : a));
  const ccId = new pb.ChaincodeID();
  ccId.setName(input.chaincode);
  const extension = new pb.ChaincodeHeaderExtension();
  extension.setChaincodeId(ccId);
  const channelHeader = new common.ChannelHeader();
  channelHeader.setType(common.HeaderType.ENDORSER_TRANSACTION);
  channelHeader.setChannelId(input.channel);
  channelHeader.setTxId(txId);
  channelHeader.setTimestamp(timestampOf(timestamp) as never);
  channelHeader.setExtension$(extension.serializeBinary());
  const signatureHeader = new common.SignatureHeader();
  signatureHeader.setCreator(identity.serialized);
  signatureHeader.setNonce(nonce);
  const header = new common.Header();
  header.setChannelHeader(channelHeader.serializeBinary());
  header.setSignatureHeader(signatureHeader.serializeBinary());
  const ccInput = new pb.ChaincodeInput();
  ccInput.setArgsList(args);
  const spec = new pb.ChaincodeSpec();
  spec.setType(pb.ChaincodeSpec.Type.NODE);
  spec.setChaincodeId(ccId);
  spec.setInput(ccInput);
  const invocation = new pb.ChaincodeInvocationSpec();
  invocation.setChaincodeSpec(spec);
  const payload = new pb.ChaincodeProposalPayload();
  payload.setInput(invocation.serializeBinary());
  const proposal = new pb.Proposal();
  proposal.setHeader(header.serializeBinary());
  proposal.setPayload(payload.serializeBinary());
  const proposalBytes = proposal.serializeBinary();
  const signature = new Uint8Array(await crypto.subtle.sign(ALG, identity.key, Uint8Array.from(proposalBytes)));
  const signed = new pb.SignedProposal();
  signed.setProposalBytes(proposalBytes);
  signed.setSignature(signature);
  return {
    channel: input.channel,
    chaincode: input.chaincode,
    txId,
    args,
    transient: {},
    creator: { mspId: identity.mspId, certificatePem: identity.certificatePem, serialized: identity.serialized },
    timestamp,
    signedProposal: signed.serializeBinary(),
  };
}
