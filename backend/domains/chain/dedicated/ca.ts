import { generateKeyPairSync, createPrivateKey } from "node:crypto";
import type { BackendEnv } from "#backend/env.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";
import {
  ECDSA_P256_SHA256 as ALG,
  certificateSerial as serial,
  pkcs8Pem as pemOf,
  toWebPrivate,
  toWebPublic,
  x509,
} from "#backend/kit/x509.ts";

/**
 * A dedicated network's certificate authority (docs/decisions/046): a self-signed CA (ECDSA P-256, SHA-256)
 * of its own, whose private key is sealed with the server secret, issuing each node a real X.509 certificate
 * with the subject CN=<node>.<network>.
 */
const DAY = 24 * 60 * 60 * 1000;
const CA_YEARS = 10;
const NODE_DAYS = 365;
/** The CA's and the nodes' private keys (PKCS#8 PEM), sealed with their own purpose. */
const NETWORK_KEYS: SealPurpose = { label: "bsn-dedicated-network-keys", fallbackFile: "dedicated-secret" };

/** The network's CA: its self-signed certificate (PEM) and its sealed key. */
export async function newNetworkCa(
  env: BackendEnv,
  network: string,
  now: Date,
): Promise<{ pem: string; keySealed: string }> {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const keys = { privateKey: await toWebPrivate(privateKey), publicKey: await toWebPublic(publicKey) };
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=ca.${network}, O=${network}, OU=BSN dedicated network CA`,
    notBefore: now,
    notAfter: new Date(now.getTime() + CA_YEARS * 365 * DAY),
    keys,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(true, 0, true),
      new x509.KeyUsagesExtension(
        x509.KeyUsageFlags.keyCertSign | x509.KeyUsageFlags.cRLSign | x509.KeyUsageFlags.digitalSignature,
        true,
      ),
      await x509.SubjectKeyIdentifierExtension.create(keys.publicKey),
    ],
  });
  return { pem: cert.toString("pem"), keySealed: sealWith(env, NETWORK_KEYS, pemOf(privateKey)) };
}

export type CertificateSummary = { subject: string; serial: string; notAfter: string; fingerprint: string };
export type NodeCertificate = CertificateSummary & { pem: string; keySealed: string };

/** What NetworkNode.certificate shows of a certificate. */
export async function summaryOf(pem: string): Promise<CertificateSummary> {
  const cert = new x509.X509Certificate(pem);
  return {
    subject: cert.subject,
    serial: cert.serialNumber,
    notAfter: cert.notAfter.toISOString(),
    fingerprint: Buffer.from(await cert.getThumbprint("SHA-256")).toString("hex"),
  };
}

/** A node's key pair and its certificate (CN=<node>.<network>), signed by the network's CA. */
export async function issueNodeCertificate(
  env: BackendEnv,
  ca: { pem: string; keySealed: string },
  network: string,
  node: string,
  now: Date,
): Promise<NodeCertificate> {
  const caCert = new x509.X509Certificate(ca.pem);
  const signingKey = await toWebPrivate(createPrivateKey(openWith(env, NETWORK_KEYS, ca.keySealed)));
  const pair = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const publicKey = await toWebPublic(pair.publicKey);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject: `CN=${node}.${network}, O=${network}`,
    issuer: caCert.subject,
    notBefore: now,
    notAfter: new Date(now.getTime() + NODE_DAYS * DAY),
    publicKey,
    signingKey,
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature | x509.KeyUsageFlags.keyEncipherment, true),
      new x509.ExtendedKeyUsageExtension([x509.ExtendedKeyUsage.serverAuth, x509.ExtendedKeyUsage.clientAuth]),
      await x509.AuthorityKeyIdentifierExtension.create(caCert, false),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
    ],
  });
  const pem = cert.toString("pem");
  return { ...(await summaryOf(pem)), pem, keySealed: sealWith(env, NETWORK_KEYS, pemOf(pair.privateKey)) };
}
