import { createPrivateKey, createPublicKey, generateKeyPairSync, verify, type KeyObject } from "node:crypto";
import { eq } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import type { Tx } from "#backend/db/client.ts";
import { appCas } from "./tables.ts";
import type { BackendEnv } from "#backend/env.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import { openWith, sealWith, type SealPurpose } from "#backend/kit/sealed.ts";
import {
  ECDSA_P256_SHA256 as ALG,
  certificateSerial as serial,
  toWebPrivate,
  toWebPublic,
  x509,
} from "#backend/kit/x509.ts";

/**
 * Identity certificates (SPEC §5; docs/decisions/013): real X.509 certificates, ECDSA P-256 with SHA-256
 * (what Hyperledger Fabric uses), signed by a certificate authority of each service (app_cas, made on first
 * need). The CA's private key is stored encrypted (AES-256-GCM) with a key derived from the deployment's
 * session secret, which every process shares.
 */
const CA_YEARS = 10;
export const CERT_VALIDITY_DAYS = 365;
const DAY = 24 * 60 * 60 * 1000;

/** The environment of the running backend, for seeders that are not given it (backend/index.ts sets it). */
let activeEnv: BackendEnv | undefined;
export function setParticipationEnv(env: BackendEnv) {
  activeEnv = env;
}
export function participationEnv(): BackendEnv | undefined {
  return activeEnv;
}
/** The CA keys are sealed with the server secret (backend/kit/sealed.ts); the label and file are kept as they were. */
const CA_KEYS: SealPurpose = { label: "bsn-participation-keys", fallbackFile: "participation-secret" };

export function sealWithServer(env: BackendEnv, plain: string): string {
  return sealWith(env, CA_KEYS, plain);
}

export function openWithServer(env: BackendEnv, sealed: string): string {
  return openWith(env, CA_KEYS, sealed);
}

/** A value safe inside an X.500 name. */
const dn = (value: string) =>
  value
    .replace(/[,+="<>#;\\]/g, " ")
    .replace(/\s+/g, " ")
    .trim()
    .slice(0, 64) || "-";

export type ServiceCa = { certificate: x509.X509Certificate; privateKey: KeyObject; pem: string };

/** A self-signed CA certificate and its key (a service's CA, or a test service's one-certificate CA). */
async function newCa(name: string, org: string, now: Date) {
  const { privateKey, publicKey } = generateKeyPairSync("ec", { namedCurve: "P-256" });
  const keys = { privateKey: await toWebPrivate(privateKey), publicKey: await toWebPublic(publicKey) };
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: serial(),
    name: `CN=ca.${dn(name).toLowerCase()}, O=${dn(org)}, OU=BSN service CA`,
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
  return { cert, privateKey };
}

/** A new certificate authority (a CA of its own for a door's TLS, e.g. the Fabric gateway's: docs/decisions/065). */
export async function newCertificateAuthority(name: string, org: string, now: Date): Promise<ServiceCa> {
  const { cert, privateKey } = await newCa(name, org, now);
  return { certificate: cert, privateKey, pem: cert.toString("pem") };
}

/**
 * A test service's identity (docs/decisions/034): a key pair and its certificate, issued as participants'
 * are, by a CA of its own (its key is not kept: the CA signs this one certificate). The certificate chain
 * (leaf, then CA) and the private key, both PEM.
 */
export async function issueTestIdentity(input: { appCode: string; name: string; userName: string; now: Date }) {
  const { cert, privateKey } = await newCa(input.appCode, input.name, input.now);
  const ca: ServiceCa = { certificate: cert, privateKey, pem: cert.toString("pem") };
  const pair = newKeyPair();
  const issued = await issueCertificate(ca, {
    publicKey: pair.publicKey,
    userName: input.userName,
    roleName: "test",
    appCode: input.appCode,
    now: input.now,
  });
  return {
    certificatePem: `${issued.pem}\n${ca.pem}`,
    privateKeyPem: pair.privateKey.export({ type: "pkcs8", format: "pem" }) as string,
  };
}

/** The CA of a service, created on first need (one row per app; a concurrent creator's row wins). */
export async function serviceCa(
  tx: Tx,
  env: BackendEnv,
  app: { id: number; appCode: string; name: string },
  now: Date,
): Promise<ServiceCa> {
  let [row] = await tx.select().from(appCas).where(eq(appCas.appId, app.id));
  if (!row) {
    const { cert, privateKey } = await newCa(app.appCode, app.name, now);
    const sealed = sealWithServer(env, privateKey.export({ type: "pkcs8", format: "pem" }) as string);
    await tx
      .insert(appCas)
      .values({ appId: app.id, certificatePem: cert.toString("pem"), encryptedKey: sealed, createdAt: now })
      .onConflictDoNothing();
    [row] = await tx.select().from(appCas).where(eq(appCas.appId, app.id));
  }
  return {
    certificate: new x509.X509Certificate(row.certificatePem),
    privateKey: createPrivateKey(openWithServer(env, row.encryptedKey)),
    pem: row.certificatePem,
  };
}

export type IssuedCertificate = { pem: string; serialNumber: string; subject: string; notBefore: Date; notAfter: Date };

/** An end-entity certificate for `publicKey`, signed by the service CA. */
export async function issueCertificate(
  ca: ServiceCa,
  input: { publicKey: KeyObject; userName: string; roleName: string; appCode: string; now: Date },
): Promise<IssuedCertificate> {
  const notBefore = input.now;
  const notAfter = new Date(input.now.getTime() + CERT_VALIDITY_DAYS * DAY);
  const subject = `CN=${dn(input.userName)}@${dn(input.appCode)}, OU=${dn(input.roleName)}, O=${dn(input.appCode)}`;
  const publicKey = await toWebPublic(input.publicKey);
  const cert = await x509.X509CertificateGenerator.create({
    serialNumber: serial(),
    subject,
    issuer: ca.certificate.subject,
    notBefore,
    notAfter,
    publicKey,
    signingKey: await toWebPrivate(ca.privateKey),
    signingAlgorithm: ALG,
    extensions: [
      new x509.BasicConstraintsExtension(false, undefined, true),
      new x509.KeyUsagesExtension(x509.KeyUsageFlags.digitalSignature, true),
      await x509.AuthorityKeyIdentifierExtension.create(ca.certificate, false),
      await x509.SubjectKeyIdentifierExtension.create(publicKey),
    ],
  });
  return {
    pem: cert.toString("pem"),
    serialNumber: cert.serialNumber,
    subject: cert.subject,
    notBefore: cert.notBefore,
    notAfter: cert.notAfter,
  };
}

/** A key pair the backend makes (participant certificate and key trust modes). */
export function newKeyPair() {
  return generateKeyPairSync("ec", { namedCurve: "P-256" });
}

/** Key trust: the private key as encrypted PKCS#8 PEM, with the participant's certificate password. */
export function encryptKeyWithPassword(privateKey: KeyObject, password: string): string {
  return privateKey.export({ type: "pkcs8", format: "pem", cipher: "aes-256-cbc", passphrase: password }) as string;
}

/** Where the signature is accepted as base64 of DER (Fabric, OpenSSL) or of the 64-byte r||s form. */
function signatureBytes(signature: string): Buffer | null {
  const compact = signature.replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/_-]+={0,2}$/.test(compact)) return null;
  const bytes = Buffer.from(compact.replace(/-/g, "+").replace(/_/g, "/"), "base64");
  return bytes.length >= 8 && bytes.length <= 160 ? bytes : null;
}

/**
 * §5 "the test must pass": the uploaded public key (PEM, ECDSA P-256) must verify the signature
 * (ECDSA with SHA-256) of the test data. A key that is not an ECDSA P-256 public key is a field error
 * at publicKey; a signature that does not verify is §8 "Public key test failed" (MSG_39002).
 */
export function verifyUploadedKey(input: { publicKey: string; testData: string; signature: string }): KeyObject {
  let key: KeyObject;
  try {
    key = createPublicKey({ key: input.publicKey.trim(), format: "pem" });
  } catch {
    throw fieldError("publicKey", "participation:validation.publicKeyFormat", Msg.PUBLIC_KEY_TEST_FAILED);
  }
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
    throw fieldError("publicKey", "participation:validation.publicKeyFormat", Msg.PUBLIC_KEY_TEST_FAILED);
  }
  const sig = signatureBytes(input.signature);
  const data = Buffer.from(input.testData, "utf8");
  const good =
    !!sig &&
    ((() => {
      try {
        return verify("sha256", data, { key, dsaEncoding: "der" }, sig);
      } catch {
        return false;
      }
    })() ||
      (sig.length === 64 && verify("sha256", data, { key, dsaEncoding: "ieee-p1363" }, sig)));
  if (!good) throw new ApiError(Msg.PUBLIC_KEY_TEST_FAILED);
  return key;
}
