// `npm run fabric-network -- <command>`: a stand-in for a connected Fabric network (docs/decisions/068), played by the
// embedded Fabric peer in a process of its own, reached only over its TLS gateway port, as FABRIC_PEER_ENDPOINT
// reaches a real network's peer. No real Fabric network runs on this machine; this one stands in for it in tests.
//
//   serve [--dir D] [--port N] [--host H] [--msp-id ID]   peer + gateway; D/tls-ca.pem is the TLS CA to pin
//   add-msp [--dir D] <channel> <ca.pem> [mspId]           adds an organisation (its root CA) to the channel's MSPs
//   install [--dir D] <channel> <name> <version> <package.zip> [init args...]   installs and commits a chaincode
//                                                          (a new version is the next sequence; the channel's
//                                                          `_lifecycle` QueryChaincodeDefinition answers it)
//
// `serve` keeps its own database (PGlite under D/data) and answers the admin commands on a loopback port whose address
// and one-time token it writes to D/admin.json (mode 0600). The real network's commands are in README, "Connecting a
// Fabric network".
import { createPrivateKey, randomBytes, timingSafeEqual, X509Certificate } from "node:crypto";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage } from "node:http";
import path from "node:path";
import type { ChannelMsp } from "#backend/domains/fabric/gateway/resolve.ts";
import type { Pem } from "#backend/domains/fabric/gateway/tls.ts";

const USAGE = `Usage: npm run fabric-network -- <command>
  serve [--dir D] [--port N] [--host H] [--msp-id ID]
  add-msp [--dir D] <channel> <ca.pem> [mspId]      (mspId default: the channel in upper case + "MSP")
  install [--dir D] <channel> <name> <version> <package.zip> [init args...]
D defaults to ./fabric-network; the port to 7051; the host to 127.0.0.1; the peer's MSP id to Org1MSP.`;

type Options = { dir: string; port: number; host: string; mspId: string; rest: string[] };

function optionsOf(argv: string[]): Options {
  const o: Options = { dir: "fabric-network", port: 7051, host: "127.0.0.1", mspId: "Org1MSP", rest: [] };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]!;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) fail(`${a} needs a value`);
      return v;
    };
    if (a === "--dir") o.dir = value();
    else if (a === "--port") o.port = Number(value());
    else if (a === "--host") o.host = value();
    else if (a === "--msp-id") o.mspId = value();
    else o.rest.push(a);
  }
  if (!Number.isInteger(o.port) || o.port < 0 || o.port > 65535) fail("--port must be a port number");
  return o;
}

function fail(message: string): never {
  console.error(`fabric-network: ${message}\n${USAGE}`);
  process.exit(2);
}

/** The channels' organisations, kept in D/channels.json: channel → its members (the last added answers). */
type Channels = Record<string, ChannelMsp[]>;

/** The network's own CA (its peer's organisation and its TLS), made on the first serve. */
async function networkCa(dir: string): Promise<Pem> {
  const certFile = path.join(dir, "network-ca.pem");
  const keyFile = path.join(dir, "network-ca.key");
  if (existsSync(certFile) && existsSync(keyFile))
    return { certPem: readFileSync(certFile, "utf8"), keyPem: readFileSync(keyFile, "utf8") };
  const { newGatewayCa } = await import("#backend/domains/fabric/gateway/tls.ts");
  const ca = await newGatewayCa(new Date());
  writeFileSync(keyFile, ca.keyPem, { mode: 0o600 });
  writeFileSync(certFile, ca.certPem);
  return ca;
}

async function readBody(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > 64 * 1024 * 1024) throw new Error("the request is too large");
    chunks.push(chunk);
  }
  return JSON.parse(Buffer.concat(chunks).toString("utf8"));
}

async function serve(o: Options) {
  // The backend is loaded by `serve` only: an admin command is one HTTP call, and loading the backend (its whole module
  // graph compiled by tsx) cost it about 9 CPU-seconds (docs/decisions/101).
  const [
    { readBackendEnv },
    { createVueapi },
    { default: fabric, ChaincodeRefused },
    { mspResolver },
    { startGateway },
  ] = await Promise.all([
    import("#backend/env.ts"),
    import("#backend/index.ts"),
    import("#backend/domains/fabric/index.ts"),
    import("#backend/domains/fabric/gateway/resolve.ts"),
    import("#backend/domains/fabric/gateway/server.ts"),
  ]);
  const { issueServerCertificate } = await import("#backend/domains/fabric/gateway/tls.ts");
  const dir = path.resolve(o.dir);
  mkdirSync(path.join(dir, "data"), { recursive: true });
  const channelsFile = path.join(dir, "channels.json");
  const channels: Channels = existsSync(channelsFile) ? JSON.parse(readFileSync(channelsFile, "utf8")) : {};
  const env = { ...process.env };
  for (const name of ["DATABASE_URL", "FILES_URL", "SESSION_SECRET", "FABRIC_PEER_ENDPOINT", "WORKERS", "PORT"])
    delete env[name];
  const vueapi = await createVueapi(
    readBackendEnv({
      ...env,
      NODE_ENV: "development",
      DATA_DIR: path.join(dir, "data"),
      DEMO: "0",
      JOBS_INTERVAL_MS: "0",
      // The embedded portal gateway of this process is not the network's: a free port nobody is given.
      FABRIC_GATEWAY_PORT: "0",
      FABRIC_GATEWAY_PUBLIC_URL: undefined,
      PAYMENT_WEBHOOK_SECRET: "fabric-network-stand-in",
    }),
  );
  const deps = vueapi.services;
  const ca = await networkCa(dir);
  const tls = await issueServerCertificate(ca, [o.host, "localhost", "127.0.0.1", "::1"], new Date());
  writeFileSync(path.join(dir, "tls-ca.pem"), ca.certPem);
  const gateway = await startGateway({
    port: o.port,
    host: o.host,
    tls,
    resolve: mspResolver({
      peerOf: async (channel) => {
        const peer = await fabric.api.peerFor(deps, { channel }).catch(() => null);
        return peer?.chaincode() ? peer : null;
      },
      mspOf: (channel) => channels[channel]?.at(-1) ?? null,
      endorser: { ca: { certificatePem: ca.certPem, privateKey: createPrivateKey(ca.keyPem) }, mspId: o.mspId },
      now: () => new Date(),
    }),
  });

  const token = randomBytes(24).toString("hex");
  const admin = createServer((req, res) => {
    const answer = (status: number, body: object) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    const given = Buffer.from(String(req.headers.authorization ?? ""));
    const wanted = Buffer.from(`Bearer ${token}`);
    if (req.method !== "POST" || given.length !== wanted.length || !timingSafeEqual(given, wanted))
      return answer(403, { error: "refused" });
    readBody(req)
      .then(async (body) => {
        const b = body as Record<string, unknown>;
        if (req.url === "/add-msp") {
          const member = { mspId: String(b.mspId), caPem: String(b.caPem) };
          new X509Certificate(member.caPem);
          const list = (channels[String(b.channel)] ??= []).filter((m) => m.mspId !== member.mspId);
          channels[String(b.channel)] = [...list, member];
          writeFileSync(channelsFile, JSON.stringify(channels, null, 2));
          return answer(200, { channel: b.channel, mspIds: channels[String(b.channel)]!.map((m) => m.mspId) });
        }
        if (req.url === "/install") {
          const installed = await fabric.api.installChaincode(deps, {
            channel: String(b.channel),
            name: String(b.name),
            version: String(b.version),
            packageZip: new Uint8Array(Buffer.from(String(b.packageBase64), "base64")),
            initArgs: Array.isArray(b.initArgs) && b.initArgs.length ? b.initArgs.map(String) : undefined,
          });
          return answer(200, installed);
        }
        answer(404, { error: `no admin command ${req.url}` });
      })
      .catch((error: unknown) =>
        answer(400, {
          error: error instanceof ChaincodeRefused ? error.problems.join("; ") : (error as Error).message,
        }),
      );
  });
  await new Promise<void>((resolve) => admin.listen(0, "127.0.0.1", resolve));
  const adminPort = (admin.address() as { port: number }).port;
  writeFileSync(path.join(dir, "admin.json"), JSON.stringify({ port: adminPort, token }), { mode: 0o600 });
  console.log(
    `fabric-network: serving grpcs://${o.host === "0.0.0.0" ? "localhost" : o.host}:${gateway.port} ` +
      `(TLS CA ${path.join(dir, "tls-ca.pem")}, peer MSP ${o.mspId}, data ${dir})`,
  );

  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    admin.close();
    await gateway.close();
    await vueapi.close();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
}

async function adminCall(o: Options, command: string, body: object) {
  const file = path.join(path.resolve(o.dir), "admin.json");
  if (!existsSync(file)) fail(`no network serves ${o.dir} (start it with serve first)`);
  const { port, token } = JSON.parse(readFileSync(file, "utf8")) as { port: number; token: string };
  const res = await fetch(`http://127.0.0.1:${port}/${command}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const answer = (await res.json()) as Record<string, unknown>;
  if (!res.ok) {
    console.error(`fabric-network: ${command} refused: ${String(answer.error)}`);
    process.exit(1);
  }
  console.log(JSON.stringify(answer));
}

const [command, ...argv] = process.argv.slice(2);
const o = optionsOf(argv);
if (command === "serve") {
  await serve(o);
} else if (command === "add-msp") {
  const [channel, caFile, mspId] = o.rest;
  if (!channel || !caFile) fail("add-msp needs <channel> <ca.pem>");
  await adminCall(o, "add-msp", {
    channel,
    caPem: readFileSync(caFile, "utf8"),
    mspId: mspId ?? `${channel.toUpperCase()}MSP`,
  });
} else if (command === "install") {
  const [channel, name, version, zip, ...initArgs] = o.rest;
  if (!channel || !name || !version || !zip) fail("install needs <channel> <name> <version> <package.zip>");
  await adminCall(o, "install", {
    channel,
    name,
    version,
    packageBase64: readFileSync(zip).toString("base64"),
    initArgs,
  });
} else {
  fail(command ? `no command ${command}` : "a command is needed");
}
