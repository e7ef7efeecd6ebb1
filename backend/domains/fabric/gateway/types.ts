import type { FabricPeer } from "../peer-api.ts";
import type { Endorser } from "./endorse.ts";

/** The gateway's configuration and what it asks of its host (docs/decisions/065). */
export type GatewayMethod = "Evaluate" | "Endorse" | "Submit" | "CommitStatus" | "ChaincodeEvents";

export type GatewayChannel<P> = {
  peer: FabricPeer;
  /** The channel's MSP id and its CA (the service's CA, PEM): every caller's certificate must chain to it. */
  mspId: string;
  caPem: string;
  /** The peer's endorsing identity: a certificate of the service's CA and its key. */
  endorser: Endorser;
  /**
   * Who the certificate's holder is when it may call (an approved, enabled participant of the service, or its
   * publisher): what the meter counts the call under. Null refuses the caller (PERMISSION_DENIED).
   */
  admit(certificatePem: string): Promise<P | null>;
};

/** One call to count (docs/decisions/057): calls, bytes in and out, under the admitted caller. */
export type GatewayMetered<P> = {
  channel: string;
  participant: P;
  method: GatewayMethod;
  calls: number;
  bytesIn: number;
  bytesOut: number;
};

/** The door's lock (docs/decisions/062): refused identities from one address lock it out for a while. */
export type GatewayDoorGuard = {
  /** Seconds the address must wait, or 0 when it is not locked. */
  locked(address: string): Promise<number>;
  /** Counts one refused identity of the address. */
  refused(address: string): Promise<void>;
};

export type GatewayOptions<P> = {
  /** 0 picks a free port (tests). */
  port: number;
  host?: string;
  /** The server certificate (chain, PEM) and its key (PKCS#8 PEM): ./tls.ts. */
  tls: { certPem: string; keyPem: string };
  resolve(channel: string): Promise<GatewayChannel<P> | null>;
  meter?(call: GatewayMetered<P>): void;
  doorGuard?: GatewayDoorGuard;
  now?: () => Date;
};

export type RunningGateway = { port: number; close(): Promise<void> };
