import { createHash, verify, X509Certificate } from "node:crypto";
import { status as Status } from "@grpc/grpc-js";
import { common, msp, peer } from "@hyperledger/fabric-protos";

/**
 * The Fabric wire messages the gateway reads (docs/decisions/065): a signed proposal down to its chaincode
 * arguments, a signed request's identity, and the checks on both (the signature over the exact bytes the client
 * signed, the certificate chained to the channel's CA). Every refusal is a `GatewayFault` with Fabric's gRPC
 * status and a message the caller can act on; nothing here throws anything else for bad input.
 */
export class GatewayFault extends Error {
  constructor(
    readonly code: Status,
    message: string,
    /** A refused identity: counts one refusal at the door (backend/kit/door-guard.ts). */
    readonly refusedIdentity = false,
    /** Fabric's `gateway.ErrorDetail`s: which peer answered what (a chaincode's error). */
    readonly details: { address: string; mspId: string; message: string }[] = [],
  ) {
    super(message);
  }
}

export const invalid = (message: string) => new GatewayFault(Status.INVALID_ARGUMENT, message);
export const denied = (message: string) => new GatewayFault(Status.PERMISSION_DENIED, message, true);

/** Decodes one message, or refuses the request as malformed with `what` named. */
export function decode<T>(what: string, bytes: Uint8Array | string | undefined, read: (b: Uint8Array) => T): T {
  if (bytes === undefined || typeof bytes === "string") throw invalid(`${what} is missing`);
  try {
    return read(bytes);
  } catch {
    throw invalid(`${what} is not a valid protocol buffer`);
  }
}

const bytesOf = (value: Uint8Array | string) => (typeof value === "string" ? Buffer.from(value, "base64") : value);

export const sha256 = (...parts: Uint8Array[]) => {
  const hash = createHash("sha256");
  for (const p of parts) hash.update(p);
  return new Uint8Array(hash.digest());
};

/** A caller: the serialized identity's MSP id and certificate. */
export type Creator = { mspId: string; certificatePem: string; certificate: X509Certificate; serialized: Uint8Array };

/** Certificates parsed and chains checked lately (each costs about half a millisecond a call otherwise). */
const REMEMBERED = 2000;
const parsed = new Map<string, X509Certificate>();
const chained = new Map<string, boolean>();
function remember<V>(map: Map<string, V>, key: string, value: V) {
  if (map.size >= REMEMBERED) map.delete(map.keys().next().value!);
  map.set(key, value);
}

/** Reads an `msp.SerializedIdentity` (MSP id and a PEM certificate). */
export function readIdentity(serialized: Uint8Array | string): Creator {
  const bytes = bytesOf(serialized);
  if (!bytes.length) throw invalid("the request carries no identity (SerializedIdentity)");
  const identity = decode("the identity (SerializedIdentity)", bytes, (b) =>
    msp.SerializedIdentity.deserializeBinary(b),
  );
  const certificatePem = Buffer.from(identity.getIdBytes_asU8()).toString("utf8");
  let certificate = parsed.get(certificatePem);
  if (!certificate) {
    try {
      certificate = new X509Certificate(certificatePem);
    } catch {
      throw invalid("the identity's certificate is not an X.509 certificate in PEM");
    }
    remember(parsed, certificatePem, certificate);
  }
  return { mspId: identity.getMspid(), certificatePem, certificate, serialized: bytes };
}

/** The order n of P-256, for the low-S rule Fabric applies to signatures. */
const P256_HALF_N = BigInt("0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551") >> 1n;

/** The s of a DER ECDSA signature, or null when it is not one. */
function sOfDer(sig: Uint8Array): bigint | null {
  try {
    let i = 0;
    if (sig[i++] !== 0x30) return null;
    let len = sig[i++]!;
    if (len & 0x80) i += len & 0x7f;
    if (sig[i++] !== 0x02) return null;
    len = sig[i++]!;
    i += len;
    if (sig[i++] !== 0x02) return null;
    len = sig[i++]!;
    const s = sig.subarray(i, i + len);
    if (s.length !== len || !len) return null;
    return BigInt(`0x${Buffer.from(s).toString("hex")}`);
  } catch {
    return null;
  }
}

/**
 * The signature check of every signed message: ECDSA with SHA-256 over `message` (the client hashes the bytes with
 * SHA-256 and signs the digest, DER-encoded, low S) by the key of `creator`'s certificate.
 */
export function checkSignature(creator: Creator, message: Uint8Array, signature: Uint8Array | string, what: string) {
  const sig = bytesOf(signature);
  if (!sig.length) throw denied(`the ${what} is not signed`);
  const s = sOfDer(sig);
  let good = false;
  if (s !== null && s <= P256_HALF_N) {
    try {
      good = verify("sha256", message, { key: creator.certificate.publicKey, dsaEncoding: "der" }, sig);
    } catch {
      good = false;
    }
  }
  if (!good) throw denied(`the ${what}'s signature does not verify with the creator's certificate`);
}

/** The channel's MSP: its id and its CA (the service's CA, docs/decisions/013). */
export type ChannelMsp = { mspId: string; ca: X509Certificate };

/** The creator's certificate must be of this channel's MSP: issued by its CA and valid now. */
export function checkMember(creator: Creator, channel: ChannelMsp, now: Date) {
  if (creator.mspId !== channel.mspId)
    throw denied(`the creator's MSP ${JSON.stringify(creator.mspId)} is not this channel's MSP ${channel.mspId}`);
  const cert = creator.certificate;
  const key = `${channel.ca.fingerprint256}|${cert.fingerprint256}`;
  let issued = chained.get(key);
  if (issued === undefined) {
    try {
      issued = cert.checkIssued(channel.ca) && cert.verify(channel.ca.publicKey);
    } catch {
      issued = false;
    }
    remember(chained, key, issued);
  }
  if (!issued) throw denied("the creator's certificate is not issued by this channel's certificate authority");
  if (now < new Date(cert.validFrom) || now > new Date(cert.validTo))
    throw denied("the creator's certificate is not valid at this time");
}

/** What a signed proposal asks, once parsed (before any identity check). */
export type ParsedProposal = {
  channel: string;
  txId: string;
  chaincode: string;
  args: Uint8Array[];
  transient: Record<string, Uint8Array>;
  timestamp: Date;
  creator: Creator;
  nonce: Uint8Array;
  proposalBytes: Uint8Array;
  signature: Uint8Array;
  channelHeaderBytes: Uint8Array;
  signatureHeaderBytes: Uint8Array;
  /** The `ChaincodeProposalPayload` without its transient map, as it goes into the transaction. */
  visiblePayload: Uint8Array;
  signedProposal: Uint8Array;
};

/**
 * Reads a `SignedProposal` down to its arguments: `Proposal` → `Header` (`ChannelHeader`, `SignatureHeader` with
 * the creator) → `ChaincodeProposalPayload` → `ChaincodeInvocationSpec`. The transaction id must be the one
 * Fabric derives: hex SHA-256 of nonce + creator.
 */
export function readProposal(signed: peer.SignedProposal | undefined): ParsedProposal {
  if (!signed) throw invalid("the request carries no signed proposal");
  const proposalBytes = signed.getProposalBytes_asU8();
  if (!proposalBytes.length) throw invalid("the signed proposal is empty");
  const proposal = decode("the proposal", proposalBytes, (b) => peer.Proposal.deserializeBinary(b));
  const header = decode("the proposal's header", proposal.getHeader_asU8(), (b) => common.Header.deserializeBinary(b));
  const channelHeaderBytes = header.getChannelHeader_asU8();
  const signatureHeaderBytes = header.getSignatureHeader_asU8();
  const channelHeader = decode("the channel header", channelHeaderBytes, (b) =>
    common.ChannelHeader.deserializeBinary(b),
  );
  const signatureHeader = decode("the signature header", signatureHeaderBytes, (b) =>
    common.SignatureHeader.deserializeBinary(b),
  );
  if (channelHeader.getType() !== common.HeaderType.ENDORSER_TRANSACTION)
    throw invalid("the proposal is not an endorser transaction (ChannelHeader.type 3)");
  const creator = readIdentity(signatureHeader.getCreator_asU8());
  const nonce = signatureHeader.getNonce_asU8();
  if (!nonce.length) throw invalid("the proposal's signature header has no nonce");
  const txId = channelHeader.getTxId();
  if (txId !== Buffer.from(sha256(nonce, creator.serialized)).toString("hex"))
    throw invalid("the transaction id is not SHA-256 of the nonce and the creator");
  const payload = decode("the chaincode proposal payload", proposal.getPayload_asU8(), (b) =>
    peer.ChaincodeProposalPayload.deserializeBinary(b),
  );
  const invocation = decode("the chaincode invocation spec", payload.getInput_asU8(), (b) =>
    peer.ChaincodeInvocationSpec.deserializeBinary(b),
  );
  const spec = invocation.getChaincodeSpec();
  const chaincode = spec?.getChaincodeId()?.getName() ?? "";
  if (!chaincode) throw invalid("the proposal names no chaincode");
  const args = spec?.getInput()?.getArgsList_asU8() ?? [];
  if (!args.length) throw invalid("the proposal has no function name (ChaincodeInput.args is empty)");
  const transient: Record<string, Uint8Array> = {};
  for (const [k, v] of payload.getTransientmapMap().entries()) transient[k] = bytesOf(v);
  const visible = new peer.ChaincodeProposalPayload();
  visible.setInput(payload.getInput_asU8());
  const ts = channelHeader.getTimestamp();
  return {
    channel: channelHeader.getChannelId(),
    txId,
    chaincode,
    args,
    transient,
    timestamp: ts ? ts.toDate() : new Date(0),
    creator,
    nonce,
    proposalBytes,
    signature: signed.getSignature_asU8(),
    channelHeaderBytes,
    signatureHeaderBytes,
    visiblePayload: visible.serializeBinary(),
    signedProposal: signed.serializeBinary(),
  };
}

/** Fabric's proposal hash: SHA-256 over the channel header, the signature header and the visible payload. */
export const proposalHash = (
  p: Pick<ParsedProposal, "channelHeaderBytes" | "signatureHeaderBytes" | "visiblePayload">,
) => sha256(p.channelHeaderBytes, p.signatureHeaderBytes, p.visiblePayload);
