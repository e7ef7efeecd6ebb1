import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { eq } from "drizzle-orm";
import { isIP } from "node:net";
import path from "node:path";
import type { Db } from "#backend/db/client.ts";
import type { BackendEnv } from "#backend/env.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";
import {
  ECDSA_P256_SHA256 as ALG,
  certificateSerial as serial,
  pkcs8Pem as keyPem,
  toWebPrivate,
  toWebPublic,
  x509,
} from "#backend/kit/x509.ts";
import { fabricGatewayCa } from "../tables.ts";
import type { Endorser } from "./endorse.ts";

/**
 * The gateway's certificates (docs/decisions/065), ECDSA P-256 with SHA-256 as Fabric's: the TLS CA of the
 * gateway port (one per deployment: one port serves every service's channel, so one server certificate), the
 * server certificate it issues for the gateway's host names, and a channel peer's endorsing identity, issued by
 * the service's CA (the channel's MSP) so that clients and validators see an endorser of that MSP.
 */
const DAY = 24 * 60 * 60 * 1000;
const CA_YEARS = 10;
const SERVER_DAYS = 365;

export type Pem = { certPem: string; keyPem: string };

async function webKeys(privateKey: KeyObject, publicKey: KeyObject) {
  return { privateKey: await toWebPrivate(privateKey), publicKey: await toWebPublic(publicKey) };
}

/** A new self-signed CA for the gateway's TLS. */
export async function newGatewayCa(now: Date): Promise<Pem> {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const keys = await webKeys(privateKey, publicKey);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: "CN=tlsca.fabric-gateway.bsn, O=BSN portal, OU=Fabric gateway TLS CA",
    notBefore: now,
    notAfter: new Date(now.getTime() + CA_YEARS * 365 * DAY),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign, true),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { certPem: cert.toString("pem"), keyPem: keyPem(privateKey) };
}

/** An end-entity certificate of `ca` for a new key: a TLS server's (hosts) or a peer's (an MSP identity). */
async function issue(
  ca: { certPem: string; key: KeyObject },
  input: { subject: string; now: Date; days: number; hosts?: string[] },
) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const keys = await webKeys(privateKey, publicKey);
  const caCert = new x509.X509Certificate(ca.certPem);
  const caKeys = await webKeys(ca.key, createPublicKey(ca.key));
  const extensions: x509.Extension[] = [
    new x509.BasicConstraintsExtension(false, undefined, true),
    new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyAgreement, true),
    await x509.AuthorityKeyIdentifierExtension.create(caCert, false),
    await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
  ];
  if (input.hosts) {
    extensions.push(
      new x509.SubjectAlternativeNameExtension(
        input.hosts.map((h) => (isIP(h) ? { type: "ip" as const, value: h } : { type: "dns" as const, value: h })),
      ),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth]),
    );
  }
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: input.subject,
    issuer: caCert.subject,
    notBefore: input.now,
    notAfter: new Date(input.now.getTime() + input.days * DAY),
    publicKey: keys.publicKey,
    signingKey: caKeys.privateKey,
    signingAlgorithm: ALG,
    extensions,
  });
  return { certPem: cert.toString("pem"), privateKey };
}

/** The gateway's TLS server certificate for `hosts` (DNS names and IP addresses), chain = leaf then CA. */
export async function issueServerCertificate(ca: Pem, hosts: string[], now: Date): Promise<Pem> {
  const names = [...new Set(hosts.filter(Boolean))];
  const issued = await issue(
    { certPem: ca.certPem, key: createPrivateKey(ca.keyPem) },
    { subject: `CN=${names[0] ?? "localhost"}, O=BSN portal, OU=Fabric gateway`, now, days: SERVER_DAYS, hosts: names },
  );
  return { certPem: `${issued.certPem}\n${ca.certPem}`, keyPem: keyPem(issued.privateKey) };
}

/**
 * A channel peer's endorsing identity: a certificate of the service's CA (`ca`, its key) with OU=peer, under the
 * channel's MSP id. Its key never leaves this process.
 */
export async function issuePeerIdentity(
  ca: { certificatePem: string; privateKey: KeyObject },
  input: { mspId: string; channel: string; now: Date },
): Promise<Endorser> {
  const name = input.channel.replace(/[^a-z0-9.-]/gi, "-").slice(0, 60) || "channel";
  const issued = await issue(
    { certPem: ca.certificatePem, key: ca.privateKey },
    {
      subject: `CN=peer0.${name}, OU=peer, O=${input.mspId.replace(/[^A-Za-z0-9.-]/g, "-")}`,
      now: input.now,
      days: SERVER_DAYS,
    },
  );
  return { mspId: input.mspId, certificatePem: issued.certPem, privateKey: issued.privateKey };
}

/**
 * A short-lived client identity of the service's CA (OU=client, under the service's MSP id): what the portal signs
 * its own calls to a connected Fabric network with (docs/decisions/068). Issued in memory; its key is never stored.
 */
export async function issueClientIdentity(
  ca: { certificatePem: string; privateKey: KeyObject },
  input: { mspId: string; name: string; now: Date },
): Promise<Endorser> {
  const issued = await issue(
    { certPem: ca.certificatePem, key: ca.privateKey },
    {
      subject: `CN=${input.name.replace(/[^A-Za-z0-9.-]/g, "-")}, OU=client, O=${input.mspId.replace(/[^A-Za-z0-9.-]/g, "-")}`,
      now: new Date(input.now.getTime() - 60_000),
      days: 1,
    },
  );
  return { mspId: input.mspId, certificatePem: issued.certPem, privateKey: issued.privateKey };
}

/** The names the server certificate holds: FABRIC_GATEWAY_PUBLIC_URL's host, and the loopback names. */
export function gatewayHosts(publicUrl: string): string[] {
  const host = new URL(publicUrl).hostname.replace(/^\[(.*)\]$/, "$1");
  return [...new Set([host, "localhost", "127.0.0.1", "::1"])];
}

const GATEWAY_CA: SealPurpose = { label: "bsn-fabric-gateway-ca", fallbackFile: "fabric-gateway-secret" };

/**
 * The gateway's TLS for this deployment: its CA in `fabric_gateway_ca` (the certificate in clear, the key sealed with
 * the server secret; made on first start, or copied once from DATA_DIR/fabric-gateway/ where an earlier version kept
 * it), so every process that may run the peer presents the same CA (docs/decisions/099); and a new server
 * certificate for `hosts` at each start. `caPem` is what a client pins (the access kit ships it).
 */
export async function loadGatewayTls(
  env: BackendEnv,
  db: Db,
  hosts: string[],
  now: Date,
): Promise<Pem & { caPem: string }> {
  const stored = async () => (await db.select().from(fabricGatewayCa).where(eq(fabricGatewayCa.id, 1)))[0];
  let row = await stored();
  if (!row) {
    const dir = path.join(env.dataDir, "fabric-gateway");
    const certFile = path.join(dir, "tls-ca.pem");
    const keyFile = path.join(dir, "tls-ca.key.sealed");
    const made =
      existsSync(certFile) && existsSync(keyFile)
        ? {
            certPem: readFileSync(certFile, "utf8"),
            keyPem: openWith(env, GATEWAY_CA, readFileSync(keyFile, "utf8")),
          }
        : await newGatewayCa(now);
    // Two processes starting at once: the first row stays, and both use it.
    await db
      .insert(fabricGatewayCa)
      .values({ id: 1, certificatePem: made.certPem, keySealed: sealWith(env, GATEWAY_CA, made.keyPem) })
      .onConflictDoNothing();
    row = (await stored())!;
  }
  const ca = { certPem: row.certificatePem, keyPem: openWith(env, GATEWAY_CA, row.keySealed) };
  return { ...(await issueServerCertificate(ca, hosts, now)), caPem: ca.certPem };
}
