import { X509Certificate } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { gateway } from "@hyperledger/fabric-protos";
import { handlers, type Call } from "./methods.ts";
import type { GatewayMethod, GatewayOptions, RunningGateway } from "./types.ts";
import { GatewayFault } from "./wire.ts";

/**
 * The Fabric Gateway gRPC service of the embedded peer (docs/decisions/065; issue 28 item 4): `gateway.Gateway`'s
 * Evaluate, Endorse, Submit, CommitStatus and ChaincodeEvents over TLS, as `@hyperledger/fabric-gateway` 1.10
 * calls them. One server serves every service's channel; `resolve` names the channel's peer, MSP and CA, the
 * peer's endorsing identity, and who of that service may call. Requests are read from raw bytes here (not by
 * grpc-js), so a malformed request is an INVALID_ARGUMENT with a message, never an INTERNAL, and the process stays
 * up whatever arrives.
 */
export type { GatewayChannel, GatewayDoorGuard, GatewayMetered, GatewayMethod, GatewayOptions } from "./types.ts";
export type { RunningGateway } from "./types.ts";

/** The largest request the gateway reads (a proposal with its arguments and transient data). */
export const GATEWAY_MESSAGE_LIMIT = 4 * 1024 * 1024;

const raw = {
  requestSerialize: (b: Buffer) => b,
  requestDeserialize: (b: Buffer) => b,
  responseSerialize: (b: Buffer) => b,
  responseDeserialize: (b: Buffer) => b,
};
const definition = Object.fromEntries(
  (["Evaluate", "Endorse", "Submit", "CommitStatus", "ChaincodeEvents"] as const).map((m) => [
    m,
    { path: `/gateway.Gateway/${m}`, requestStream: false, responseStream: m === "ChaincodeEvents", ...raw },
  ]),
) as unknown as grpc.ServiceDefinition;

/** The client's address from grpc's peer string ("127.0.0.1:5000", "[::1]:5000", "ipv4:…"). */
export function addressOfPeer(peer: string): string {
  const text = peer.replace(/^ipv[46]:/, "");
  const v6 = /^\[([^\]]+)\](?::\d+)?$/.exec(text);
  if (v6) return v6[1]!;
  return text.replace(/:\d+$/, "");
}

/** A protobuf field: its tag and length-delimited bytes (google.rpc.Status and Any are written by hand). */
function field(no: number, bytes: Uint8Array): Buffer {
  const varint = (n: number) => {
    const out: number[] = [];
    while (n > 0x7f) {
      out.push((n & 0x7f) | 0x80);
      n >>>= 7;
    }
    out.push(n);
    return Buffer.from(out);
  };
  return Buffer.concat([varint((no << 3) | 2), varint(bytes.length), bytes]);
}

/** A fault as a gRPC status, with Fabric's `ErrorDetail`s (in `grpc-status-details-bin`) when it has them. */
function statusOf(fault: GatewayFault): Partial<grpc.StatusObject> {
  const metadata = new grpc.Metadata();
  if (fault.details.length) {
    const details = fault.details.map((d) => {
      const detail = new gateway.ErrorDetail();
      detail.setAddress(d.address);
      detail.setMspId(d.mspId);
      detail.setMessage(d.message);
      // google.protobuf.Any { type_url = 1, value = 2 }
      const any = Buffer.concat([
        field(1, Buffer.from("type.googleapis.com/gateway.ErrorDetail")),
        field(2, detail.serializeBinary()),
      ]);
      return field(3, any);
    });
    // google.rpc.Status { code = 1 (varint), message = 2, details = 3 }
    const status = Buffer.concat([Buffer.from([0x08, fault.code]), field(2, Buffer.from(fault.message)), ...details]);
    metadata.set("grpc-status-details-bin", status);
  }
  return { code: fault.code, details: fault.message, metadata };
}

/** A fault, or the peer's own failure as UNAVAILABLE (logged; its text is not the caller's business). */
function faultOf(error: unknown, method: GatewayMethod): GatewayFault {
  if (error instanceof GatewayFault) return error;
  console.warn(`fabric gateway: ${method} failed:`, error);
  return new GatewayFault(grpc.status.UNAVAILABLE, `the peer could not answer ${method}: try again`);
}

export async function startGateway<P>(options: GatewayOptions<P>): Promise<RunningGateway> {
  const now = options.now ?? (() => new Date());
  const cas = new Map<string, X509Certificate>();
  const open = new Set<AbortController>();
  const context = {
    now,
    async channel(name: string) {
      const found = name ? await options.resolve(name) : null;
      if (!found) throw new GatewayFault(grpc.status.NOT_FOUND, `channel ${JSON.stringify(name)} is not served here`);
      let ca = cas.get(found.caPem);
      if (!ca) {
        if (cas.size > 1000) cas.clear();
        cas.set(found.caPem, (ca = new X509Certificate(found.caPem)));
      }
      return { ...found, ca };
    },
  };
  const impl: grpc.UntypedServiceImplementation = {};
  for (const [method, handle] of Object.entries(handlers) as [GatewayMethod, (typeof handlers)[GatewayMethod]][]) {
    const run = async (request: Buffer, peer: string, send: (bytes: Uint8Array) => void, signal: AbortSignal) => {
      const address = addressOfPeer(peer);
      const wait = options.doorGuard ? await options.doorGuard.locked(address) : 0;
      if (wait > 0)
        throw new GatewayFault(
          grpc.status.RESOURCE_EXHAUSTED,
          `too many refused identities from this address: try again in ${wait} s`,
        );
      let bytesOut = 0;
      const streaming = method === "ChaincodeEvents";
      const call: Call<P> = {
        request,
        signal,
        context,
        onAdmit() {
          // A stream counts its call when it opens (it may stay open for days), its messages as they go.
          if (streaming && options.meter)
            options.meter({ ...call.admitted!, method, calls: 1, bytesIn: request.length, bytesOut: 0 });
        },
        send(bytes) {
          if (streaming && call.admitted && options.meter)
            options.meter({ ...call.admitted, method, calls: 0, bytesIn: 0, bytesOut: bytes.length });
          else bytesOut += bytes.length;
          send(bytes);
        },
      };
      try {
        await handle(call as Call<unknown>);
      } catch (error) {
        if (signal.aborted && !(error instanceof GatewayFault))
          throw new GatewayFault(grpc.status.CANCELLED, "the call was cancelled");
        const fault = faultOf(error, method);
        if (fault.refusedIdentity && options.doorGuard) await options.doorGuard.refused(address).catch(() => {});
        throw fault;
      } finally {
        if (!streaming && call.admitted && options.meter)
          options.meter({
            ...call.admitted,
            method,
            calls: 1,
            bytesIn: request.length,
            bytesOut,
          });
      }
    };
    if (method === "ChaincodeEvents") {
      impl[method] = (stream: grpc.ServerWritableStream<Buffer, Buffer>) => {
        const abort = new AbortController();
        open.add(abort);
        stream.on("cancelled", () => abort.abort());
        const send = (bytes: Uint8Array) => void stream.write(Buffer.from(bytes));
        run(stream.request, stream.getPeer(), send, abort.signal)
          .then(
            () => stream.end(),
            (error: unknown) => {
              if (!abort.signal.aborted) stream.emit("error", statusOf(faultOf(error, method)));
            },
          )
          .finally(() => open.delete(abort));
      };
    } else {
      impl[method] = (unary: grpc.ServerUnaryCall<Buffer, Buffer>, callback: grpc.sendUnaryData<Buffer>) => {
        const abort = new AbortController();
        open.add(abort);
        unary.on("cancelled", () => abort.abort());
        let answer: Buffer | undefined;
        run(unary.request, unary.getPeer(), (bytes) => void (answer = Buffer.from(bytes)), abort.signal)
          .then(
            () => callback(null, answer ?? Buffer.alloc(0)),
            (error: unknown) => callback(statusOf(faultOf(error, method))),
          )
          .finally(() => open.delete(abort));
      };
    }
  }
  const server = new grpc.Server({
    "grpc.max_receive_message_length": GATEWAY_MESSAGE_LIMIT,
    "grpc.max_send_message_length": GATEWAY_MESSAGE_LIMIT,
  });
  server.addService(definition, impl);
  const credentials = grpc.ServerCredentials.createSsl(
    null,
    [{ cert_chain: Buffer.from(options.tls.certPem), private_key: Buffer.from(options.tls.keyPem) }],
    false,
  );
  const host = options.host ?? "0.0.0.0";
  const bound = await new Promise<number>((resolve, reject) =>
    server.bindAsync(`${host.includes(":") ? `[${host}]` : host}:${options.port}`, credentials, (error, port) =>
      error ? reject(error) : resolve(port),
    ),
  );
  return {
    port: bound,
    close: () =>
      new Promise<void>((resolve) => {
        for (const a of open) a.abort();
        const force = setTimeout(() => {
          server.forceShutdown();
          resolve();
        }, 2000).unref();
        server.tryShutdown(() => {
          clearTimeout(force);
          resolve();
        });
      }),
  };
}
