import { randomBytes } from "node:crypto";
import * as grpc from "@grpc/grpc-js";
import { peer as pb } from "@hyperledger/fabric-protos";
import { ChaincodeSupportService } from "@hyperledger/fabric-protos/lib/peer/chaincode_shim_grpc_pb.js";
import { ChaincodeSession, type ChaincodeStream } from "./session.ts";

const T = pb.ChaincodeMessage.Type;
/** A process that has not sent REGISTER this long after connecting is dropped. */
const REGISTER_WITHIN_MS = 10_000;

/**
 * The chaincode support listener (docs/decisions/064): `protos.ChaincodeSupport/Register` on 127.0.0.1 and a free
 * port, plain gRPC (nothing leaves the machine). A chaincode process registers with the chaincode id name
 * `<name>:<token>`; the token is one-time, made for that process when it was started, and only a process that
 * presents an expected token gets REGISTERED and READY. Anything else gets an ERROR and the stream ends.
 */
export class ChaincodeListener {
  private readonly server = new grpc.Server();
  private readonly expected = new Map<string, (session: ChaincodeSession) => void>();
  private port = 0;

  async start(): Promise<void> {
    this.server.addService(ChaincodeSupportService, {
      register: (call: ChaincodeStream) => this.onRegister(call),
    });
    this.port = await new Promise<number>((resolve, reject) =>
      this.server.bindAsync("127.0.0.1:0", grpc.ServerCredentials.createInsecure(), (error, port) =>
        error ? reject(error) : resolve(port),
      ),
    );
  }

  get address(): string {
    return `127.0.0.1:${this.port}`;
  }

  /** A new one-time token and the session of the process that will present it (cancel() forgets it). */
  expect(): { token: string; session: Promise<ChaincodeSession>; cancel: () => void } {
    const token = randomBytes(24).toString("hex");
    let cancel = () => {};
    const session = new Promise<ChaincodeSession>((resolve, reject) => {
      this.expected.set(token, resolve);
      cancel = () => {
        if (this.expected.delete(token)) reject(new Error("the chaincode process did not register"));
      };
    });
    session.catch(() => undefined);
    return { token, session, cancel };
  }

  private onRegister(call: ChaincodeStream) {
    const timer = setTimeout(() => refuse("no REGISTER in time"), REGISTER_WITHIN_MS);
    const refuse = (why: string) => {
      clearTimeout(timer);
      const msg = new pb.ChaincodeMessage();
      msg.setType(T.ERROR);
      msg.setPayload(new TextEncoder().encode(`registration refused: ${why}`));
      try {
        call.write(msg);
        call.end();
      } catch {
        // the stream is already gone
      }
    };
    call.once("data", (first: InstanceType<typeof pb.ChaincodeMessage>) => {
      clearTimeout(timer);
      if (first.getType() !== T.REGISTER) return refuse("the first message must be REGISTER");
      let name = "";
      try {
        name = pb.ChaincodeID.deserializeBinary(first.getPayload_asU8()).getName();
      } catch {
        return refuse("the REGISTER payload is not a ChaincodeID");
      }
      const token = name.slice(name.lastIndexOf(":") + 1);
      const accept = this.expected.get(token);
      if (!accept) return refuse("unknown or already used token");
      this.expected.delete(token);
      const session = new ChaincodeSession(call);
      for (const type of [T.REGISTERED, T.READY]) {
        const msg = new pb.ChaincodeMessage();
        msg.setType(type);
        call.write(msg);
      }
      accept(session);
    });
    call.on("error", () => clearTimeout(timer));
  }

  async close(): Promise<void> {
    for (const token of [...this.expected.keys()]) this.expected.delete(token);
    await new Promise<void>((resolve) => this.server.tryShutdown(() => resolve()));
    this.server.forceShutdown();
  }
}
