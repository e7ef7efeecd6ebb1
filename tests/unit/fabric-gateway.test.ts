import type { KeyObject } from "node:crypto";
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import * as grpc from "@grpc/grpc-js";
import {
  CommitError,
  EndorseError,
  GatewayError,
  connect,
  hash,
  signers,
  type Gateway,
} from "@hyperledger/fabric-gateway";
import { common, gateway, peer as peerProtos } from "@hyperledger/fabric-protos";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import {
  issueCertificate,
  issueTestIdentity,
  newCertificateAuthority,
  newKeyPair,
  type ServiceCa,
} from "#backend/domains/participation/certs.ts";
import { startGateway } from "#backend/domains/fabric/gateway/server.ts";
import {
  gatewayHosts,
  issuePeerIdentity,
  issueServerCertificate,
  newGatewayCa,
} from "#backend/domains/fabric/gateway/tls.ts";
import { readBackendEnv } from "#backend/env.ts";
import type { GatewayMetered, RunningGateway } from "#backend/domains/fabric/gateway/types.ts";
import { FabricPeerDouble, type DoubleChaincode } from "../support/fabric-peer-double.ts";

// The Fabric Gateway gRPC service (docs/decisions/065) driven by the official @hyperledger/fabric-gateway 1.10
// client, unchanged, over TLS, with participant certificates issued by the participation domain's helpers, in
// front of an in-memory peer (tests/support/fabric-peer-double.ts; the lead re-runs this against the real peer).

const APP_CODE = "APPC0FFEE0001";
const CHANNEL = APP_CODE.toLowerCase();
const MSP = `${APP_CODE}MSP`;

/** Two invocations of "incrTogether" read the key before either returns: their read sets conflict. */
let arrived = 0;
let release: () => void = () => {};
const together = new Promise<void>((r) => (release = r));

const chaincode: DoubleChaincode = async (stub, fn, args) => {
  switch (fn) {
    case "get": {
      const value = stub.getState(args[0]!);
      if (value === undefined) throw new Error(`asset ${args[0]} does not exist`);
      return value;
    }
    case "put":
      stub.putState(args[0]!, args[1]!);
      stub.setEvent("put", `${args[0]}=${args[1]}`);
      return args[1]!;
    case "incrTogether": {
      const n = Number(stub.getState(args[0]!) ?? "0") + 1;
      if (++arrived === 2) release();
      await together;
      stub.putState(args[0]!, String(n));
      return String(n);
    }
    default:
      throw new Error(`unknown function ${fn}`);
  }
};

type Who = { certPem: string; key: KeyObject };
let ca: ServiceCa;
let gatewayCaPem: string;
let alice: Who;
let revoked: Who;
let foreign: Who;
let peer: FabricPeerDouble;
let running: RunningGateway;
const metered: GatewayMetered<{ joinId: number }>[] = [];
const refusals: string[] = [];
let lockAll = false;
const opened: Gateway[] = [];

async function participant(name: string): Promise<Who> {
  const pair = newKeyPair();
  const issued = await issueCertificate(ca, {
    publicKey: pair.publicKey,
    userName: name,
    roleName: "client",
    appCode: APP_CODE,
    now: new Date(),
  });
  return { certPem: issued.pem, key: pair.privateKey };
}

function grpcClient() {
  return new grpc.Client(`localhost:${running.port}`, grpc.credentials.createSsl(Buffer.from(gatewayCaPem)));
}

function gatewayAs(who: Who, signer = signers.newPrivateKeySigner(who.key)) {
  const gw = connect({
    client: grpcClient(),
    identity: { mspId: MSP, credentials: Buffer.from(who.certPem) },
    signer,
    hash: hash.sha256,
  });
  opened.push(gw);
  return gw;
}

const contractOf = (gw: Gateway, channel = CHANNEL) => gw.getNetwork(channel).getContract(APP_CODE);
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString("utf8");

beforeAll(async () => {
  const now = new Date();
  ca = await newCertificateAuthority(APP_CODE, "Supply trace", now);
  const gatewayCa = await newGatewayCa(now);
  gatewayCaPem = gatewayCa.certPem;
  alice = await participant("alice");
  revoked = await participant("bob");
  const other = await issueTestIdentity({ appCode: APP_CODE, name: "Elsewhere", userName: "mallory", now });
  const { createPrivateKey } = await import("node:crypto");
  foreign = { certPem: other.certificatePem.split("\n\n")[0]!, key: createPrivateKey(other.privateKeyPem) };
  const endorser = await issuePeerIdentity(
    { certificatePem: ca.pem, privateKey: ca.privateKey },
    { mspId: MSP, channel: CHANNEL, now },
  );
  peer = new FabricPeerDouble(CHANNEL, { name: APP_CODE, version: "1.0", invoke: chaincode });
  running = await startGateway<{ joinId: number }>({
    port: 0,
    host: "127.0.0.1",
    tls: await issueServerCertificate(gatewayCa, ["localhost", "127.0.0.1"], now),
    resolve: async (channel) =>
      channel === CHANNEL
        ? {
            peer,
            mspId: MSP,
            caPem: ca.pem,
            endorser,
            admit: async (pem) => (pem === alice.certPem ? { joinId: 7 } : null),
          }
        : null,
    meter: (call) => void metered.push(call),
    doorGuard: {
      locked: async () => (lockAll ? 900 : 0),
      refused: async (address) => void refusals.push(address),
    },
  });
});

afterAll(async () => {
  for (const gw of opened) gw.close();
  await running?.close();
});

describe("the Fabric gateway with the official client", () => {
  it("submits a transaction, reports its commit status and evaluates what it wrote", async () => {
    const contract = contractOf(gatewayAs(alice));
    const submitted = await contract.submitAsync("put", { arguments: ["asset1", "blue"] });
    expect(text(submitted.getResult())).toBe("blue");
    const status = await submitted.getStatus();
    expect(status).toMatchObject({ successful: true, code: 0, transactionId: submitted.getTransactionId() });
    expect(status.blockNumber).toBeGreaterThan(0n);
    expect(text(await contract.evaluateTransaction("get", "asset1"))).toBe("blue");
    expect(peer.orders.at(-1)?.txId).toBe(submitted.getTransactionId());
  });

  it("answers a chaincode error with the chaincode's message (evaluate and endorse)", async () => {
    const contract = contractOf(gatewayAs(alice));
    const evaluated = await contract.evaluateTransaction("get", "nothing").catch((e: unknown) => e);
    expect(evaluated).toBeInstanceOf(GatewayError);
    expect((evaluated as GatewayError).code).toBe(grpc.status.UNKNOWN);
    expect((evaluated as GatewayError).message).toContain("asset nothing does not exist");
    const endorsed = await contract.submitTransaction("nope").catch((e: unknown) => e);
    expect(endorsed).toBeInstanceOf(EndorseError);
    expect((endorsed as EndorseError).message).toContain("unknown function nope");
    expect((endorsed as EndorseError).details[0]?.message).toContain("chaincode response 500");
  });

  it("marks the second of two conflicting transactions invalid: CommitError with MVCC_READ_CONFLICT (11)", async () => {
    const contract = contractOf(gatewayAs(alice));
    const results = await Promise.allSettled([
      contract.submitTransaction("incrTogether", "counter"),
      contract.submitTransaction("incrTogether", "counter"),
    ]);
    const failed = results.filter((r) => r.status === "rejected");
    expect(results.filter((r) => r.status === "fulfilled")).toHaveLength(1);
    expect(failed).toHaveLength(1);
    const error = (failed[0] as PromiseRejectedResult).reason as CommitError;
    expect(error).toBeInstanceOf(CommitError);
    expect(error.code).toBe(11);
    expect(text(await contract.evaluateTransaction("get", "counter"))).toBe("1");
  });

  it("streams chaincode events, from the next commit and replayed from a block", async () => {
    const gw = gatewayAs(alice);
    const network = gw.getNetwork(CHANNEL);
    const live = await network.getChaincodeEvents(APP_CODE);
    const contract = network.getContract(APP_CODE);
    const submitted = await contract.submitAsync("put", { arguments: ["asset2", "green"] });
    const first = await live[Symbol.asyncIterator]().next();
    live.close();
    expect(first.value).toMatchObject({
      chaincodeName: APP_CODE,
      eventName: "put",
      transactionId: submitted.getTransactionId(),
    });
    expect(text(first.value.payload)).toBe("asset2=green");
    const replay = await network.getChaincodeEvents(APP_CODE, { startBlock: 0n });
    const oldest = await replay[Symbol.asyncIterator]().next();
    replay.close();
    expect(text(oldest.value.payload)).toBe("asset1=blue");
  });

  it("meters each answered call under the admitted participant: method, calls, bytes in and out", () => {
    const evaluate = metered.filter((m) => m.method === "Evaluate");
    expect(evaluate.length).toBeGreaterThan(0);
    for (const m of metered) expect(m.participant).toEqual({ joinId: 7 });
    expect(evaluate[0]).toMatchObject({ channel: CHANNEL, calls: 1 });
    expect(evaluate[0]!.bytesIn).toBeGreaterThan(100);
    expect(evaluate[0]!.bytesOut).toBeGreaterThan(0);
    for (const m of ["Endorse", "Submit", "CommitStatus", "ChaincodeEvents"])
      expect(metered.some((c) => c.method === m && c.calls === 1)).toBe(true);
    expect(metered.some((c) => c.method === "ChaincodeEvents" && c.calls === 0 && c.bytesOut > 0)).toBe(true);
  });
});

describe("the Fabric gateway refuses", () => {
  const refusedWith = async (promise: Promise<unknown>, code: grpc.status, message: string) => {
    const error = await promise.then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe(code);
    expect((error as GatewayError).message).toContain(message);
  };

  it("a certificate of the service's CA that is not an admitted participant, counting a refusal", async () => {
    const before = refusals.length;
    await refusedWith(
      contractOf(gatewayAs(revoked)).evaluateTransaction("get", "asset1"),
      grpc.status.PERMISSION_DENIED,
      "not of an approved, enabled participant",
    );
    expect(refusals.slice(before)).toEqual(["127.0.0.1"]);
  });

  it("a certificate of another CA, and a signature that does not verify", async () => {
    await refusedWith(
      contractOf(gatewayAs(foreign)).evaluateTransaction("get", "asset1"),
      grpc.status.PERMISSION_DENIED,
      "not issued by this channel's certificate authority",
    );
    // Alice's certificate, Mallory's key: the signature is checked against the certificate's key.
    await refusedWith(
      contractOf(gatewayAs(alice, signers.newPrivateKeySigner(foreign.key))).submitTransaction("put", "x", "1"),
      grpc.status.PERMISSION_DENIED,
      "signature does not verify",
    );
    const real = signers.newPrivateKeySigner(alice.key);
    const tampered = async (digest: Uint8Array) => {
      const signature = Buffer.from(await real(digest));
      signature[signature.length - 1] ^= 0x01;
      return signature;
    };
    await refusedWith(
      contractOf(gatewayAs(alice, tampered)).evaluateTransaction("get", "asset1"),
      grpc.status.PERMISSION_DENIED,
      "signature does not verify",
    );
    await refusedWith(
      contractOf(gatewayAs(alice, async () => new Uint8Array())).evaluateTransaction("get", "asset1"),
      grpc.status.PERMISSION_DENIED,
      "not signed",
    );
  });

  it("a channel it does not serve (NOT_FOUND) and an address locked by the door guard", async () => {
    await refusedWith(
      contractOf(gatewayAs(alice), "nochannel").evaluateTransaction("get", "asset1"),
      grpc.status.NOT_FOUND,
      'channel "nochannel" is not served here',
    );
    lockAll = true;
    try {
      await refusedWith(
        contractOf(gatewayAs(alice)).evaluateTransaction("get", "asset1"),
        grpc.status.RESOURCE_EXHAUSTED,
        "too many refused identities",
      );
    } finally {
      lockAll = false;
    }
  });

  it("a transaction whose endorsed results were changed after endorsement", async () => {
    const gw = gatewayAs(alice);
    const endorsed = await contractOf(gw)
      .newProposal("put", { arguments: ["asset3", "red"] })
      .endorse();
    const prepared = gateway.PreparedTransaction.deserializeBinary(endorsed.getBytes());
    const envelope = prepared.getEnvelope()!;
    // Down to the chaincode action, its write changed to "gold", and back up again.
    const payload = common.Payload.deserializeBinary(envelope.getPayload_asU8());
    const tx = peerProtos.Transaction.deserializeBinary(payload.getData_asU8());
    const action = tx.getActionsList()[0]!;
    const actionPayload = peerProtos.ChaincodeActionPayload.deserializeBinary(action.getPayload_asU8());
    const endorsedAction = actionPayload.getAction()!;
    const responsePayload = peerProtos.ProposalResponsePayload.deserializeBinary(
      endorsedAction.getProposalResponsePayload_asU8(),
    );
    const ccAction = peerProtos.ChaincodeAction.deserializeBinary(responsePayload.getExtension_asU8());
    ccAction.setResults(
      Buffer.from(Buffer.from(ccAction.getResults_asU8()).toString("latin1").replace("red", "gold"), "latin1"),
    );
    responsePayload.setExtension$(ccAction.serializeBinary());
    endorsedAction.setProposalResponsePayload(responsePayload.serializeBinary());
    actionPayload.setAction(endorsedAction);
    action.setPayload(actionPayload.serializeBinary());
    tx.setActionsList([action]);
    payload.setData(tx.serializeBinary());
    envelope.setPayload(payload.serializeBinary());
    envelope.setSignature(new Uint8Array());
    prepared.setEnvelope(envelope);
    const signature = await signers.newPrivateKeySigner(alice.key)(hash.sha256(envelope.getPayload_asU8()));
    const forged = gw.newSignedTransaction(prepared.serializeBinary(), signature);
    const error = await forged.submit().then(
      () => null,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(GatewayError);
    expect((error as GatewayError).code).toBe(grpc.status.PERMISSION_DENIED);
    expect((error as GatewayError).message).toContain("not endorsed by this channel's peer");
    expect(peer.orders.some((o) => o.txId === endorsed.getTransactionId())).toBe(false);
  });

  it("a chaincode the channel does not have (NOT_FOUND); the peer's own failure is UNAVAILABLE, and it serves on", async () => {
    const gw = gatewayAs(alice);
    await refusedWith(
      gw.getNetwork(CHANNEL).getContract("other_cc").evaluateTransaction("get", "asset1"),
      grpc.status.NOT_FOUND,
      'chaincode "other_cc" is not installed',
    );
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const simulate = vi.spyOn(peer, "simulate").mockRejectedValueOnce(new Error("disk on fire at /secret/path"));
    const error = await contractOf(gw)
      .evaluateTransaction("get", "asset1")
      .then(
        () => null,
        (e: unknown) => e as GatewayError,
      );
    expect(error?.code).toBe(grpc.status.UNAVAILABLE);
    expect(error?.message).toContain("the peer could not answer Evaluate");
    expect(error?.message).not.toContain("/secret/path");
    expect(warn).toHaveBeenCalledTimes(1);
    simulate.mockRestore();
    warn.mockRestore();
    expect(text(await contractOf(gw).evaluateTransaction("get", "asset1"))).toBe("blue");
  });

  it("malformed requests with INVALID_ARGUMENT, not INTERNAL, and keeps serving", async () => {
    const client = grpcClient();
    const send = (method: string, bytes: Buffer) =>
      new Promise<grpc.ServiceError | null>((resolve) =>
        client.makeUnaryRequest(
          `/gateway.Gateway/${method}`,
          (b: Buffer) => b,
          (b: Buffer) => b,
          bytes,
          (error) => resolve(error),
        ),
      );
    const garbage = Buffer.from([0xff, 0xff, 0xff, 0x0f, 0x01, 0x02]);
    for (const method of ["Evaluate", "Endorse", "Submit", "CommitStatus"]) {
      const error = await send(method, garbage);
      expect(error?.code, method).toBe(grpc.status.INVALID_ARGUMENT);
      const empty = await send(method, Buffer.alloc(0));
      expect(empty?.code, `${method} empty`).toBe(grpc.status.INVALID_ARGUMENT);
    }
    const streamed = await new Promise<grpc.ServiceError>((resolve) => {
      const stream = client.makeServerStreamRequest(
        "/gateway.Gateway/ChaincodeEvents",
        (b: Buffer) => b,
        (b: Buffer) => b,
        garbage,
      );
      stream.on("data", () => {});
      stream.on("error", (e: grpc.ServiceError) => resolve(e));
    });
    expect(streamed.code).toBe(grpc.status.INVALID_ARGUMENT);
    client.close();
    expect(text(await contractOf(gatewayAs(alice)).evaluateTransaction("get", "asset1"))).toBe("blue");
  });
});

describe("the gateway's configuration", () => {
  it("listens on PORT+1 by default and names PUBLIC_URL's host; FABRIC_GATEWAY_PUBLIC_URL must be grpcs://", () => {
    expect(readBackendEnv({ PORT: "4100", PUBLIC_URL: "https://portal.example.com" }).fabricGateway).toEqual({
      port: 4101,
      publicUrl: "grpcs://portal.example.com:4101",
    });
    expect(
      readBackendEnv({ FABRIC_GATEWAY_PORT: "7051", FABRIC_GATEWAY_PUBLIC_URL: "grpcs://gw.example.com:443/" })
        .fabricGateway,
    ).toEqual({ port: 7051, publicUrl: "grpcs://gw.example.com:443" });
    expect(() => readBackendEnv({ FABRIC_GATEWAY_PUBLIC_URL: "https://gw.example.com" })).toThrow(
      /grpcs:\/\/host:port/,
    );
    expect(gatewayHosts("grpcs://[::1]:3001")).toContain("::1");
  });

  it("connects a Fabric network only with its TLS CA (a readable PEM) and MSP id (docs/decisions/068)", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "bsn-fabric-env-"));
    const caFile = path.join(dir, "tls-ca.pem");
    writeFileSync(caFile, (await newGatewayCa(new Date())).certPem);
    const endpoint = "grpcs://peer0.org1.example.com:7051";
    expect(readBackendEnv({}).fabricNetwork).toBeNull();
    expect(
      readBackendEnv({ FABRIC_PEER_ENDPOINT: endpoint, FABRIC_PEER_TLS_CA: caFile, FABRIC_PEER_MSP_ID: "Org1MSP" })
        .fabricNetwork,
    ).toMatchObject({ endpoint, address: "peer0.org1.example.com:7051", mspId: "Org1MSP" });
    expect(() => readBackendEnv({ FABRIC_PEER_ENDPOINT: endpoint, FABRIC_PEER_MSP_ID: "Org1MSP" })).toThrow(
      /FABRIC_PEER_TLS_CA/,
    );
    expect(() =>
      readBackendEnv({
        FABRIC_PEER_ENDPOINT: endpoint,
        FABRIC_PEER_TLS_CA: "/nonexistent.pem",
        FABRIC_PEER_MSP_ID: "O",
      }),
    ).toThrow(/not a readable PEM certificate/);
    expect(() => readBackendEnv({ FABRIC_PEER_ENDPOINT: endpoint, FABRIC_PEER_TLS_CA: caFile })).toThrow(
      /FABRIC_PEER_MSP_ID/,
    );
    expect(() => readBackendEnv({ FABRIC_PEER_ENDPOINT: "peer0:7051" })).toThrow(/grpcs:\/\/host:port/);
    expect(() => readBackendEnv({ FABRIC_PEER_MSP_ID: "Org1MSP" })).toThrow(/FABRIC_PEER_ENDPOINT/);
  });
});
