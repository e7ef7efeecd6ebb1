import { execFile } from "node:child_process";
import { webcrypto } from "node:crypto";
import { writeFileSync } from "node:fs";
import { createServer, type Server } from "node:https";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { promisify } from "node:util";
import * as x509 from "@peculiar/x509";
import { decodeJWT } from "did-jwt";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { auditLog, users } from "#backend/db/tables.ts";
import { appJoins } from "#backend/domains/participation/tables.ts";
import { appRoles } from "#backend/domains/services/tables.ts";
import { callVueapi, insertedUser, openVueapi, sessionOf, type Vueapi } from "./in-process.ts";
import { and } from "drizzle-orm";
import { uniqueName } from "./client.ts";
import { okVia } from "../support/envelope.ts";
import { scratchDir } from "../support/scratch.ts";

// Issue 18, the DID service (docs/decisions/043): DIDs, credentials issued, verified and revoked through the
// /vueapi paths, in this process, on PGlite or on the PostgreSQL of DATABASE_URL. The portal's endpoints
// (did:web documents, status lists) are served over HTTPS by a server of this test with a self-signed
// certificate made by @peculiar/x509, and the standard resolver (web-did-resolver) resolves a did:web from a
// child process that trusts that certificate through NODE_EXTRA_CA_CERTS (read at process start).

let service: Vueapi;
let https: Server;
let base: string;
let certFile: string;
/** The service's clock runs this far ahead of the wall clock (for "expired"). */
let shiftMs = 0;

x509.cryptoProvider.set(webcrypto as unknown as Crypto);

/** A self-signed certificate for 127.0.0.1 (its own trust anchor). */
async function selfSigned() {
  const alg = { name: "ECDSA", namedCurve: "P-256", hash: "SHA-256" };
  const keys = await webcrypto.subtle.generateKey(alg, true, ["sign", "verify"]);
  const cert = await x509.X509CertificateGenerator.createSelfSigned({
    serialNumber: "01",
    name: "CN=127.0.0.1",
    notBefore: new Date(Date.now() - 60_000),
    notAfter: new Date(Date.now() + 86_400_000),
    signingAlgorithm: alg,
    keys: keys as CryptoKeyPair,
    extensions: [
      new x509.BasicConstraintsExtension(true, undefined, true),
      new x509.SubjectAlternativeNameExtension([{ type: "ip", value: "127.0.0.1" }]),
    ],
  });
  const pkcs8 = Buffer.from(await webcrypto.subtle.exportKey("pkcs8", keys.privateKey)).toString("base64");
  return {
    cert: cert.toString("pem"),
    key: `-----BEGIN PRIVATE KEY-----\n${pkcs8.match(/.{1,64}/g)!.join("\n")}\n-----END PRIVATE KEY-----\n`,
  };
}

const ok = okVia((p: string, body: object, token: string) => callVueapi(service, p, body, token));
const call = (p: string, body: object, token: string) => callVueapi(service, p, body, token);

async function person(prefix: string, enterprise = false) {
  const id = await insertedUser(service, uniqueName(prefix));
  if (enterprise)
    await service.services.db
      .update(users)
      .set({
        userType: 2,
        companyName: "Did Test Co., Ltd.",
        creditCode: "91110108MA01D1DT0D",
        country: "China",
        certState: 10,
      })
      .where(eq(users.id, id));
  return { id, token: await sessionOf(service, id) };
}

/** Resolves a DID with did-resolver + web-did-resolver in a child process (its own trust store). */
async function resolveInChild(did: string, trust: boolean) {
  const script = `
    import { Resolver } from "did-resolver";
    import { getResolver } from "web-did-resolver";
    const r = await new Resolver(getResolver()).resolve(process.argv[1]);
    process.stdout.write(JSON.stringify(r));`;
  const env = { ...process.env, NODE_EXTRA_CA_CERTS: trust ? certFile : "" };
  const { stdout } = await promisify(execFile)(process.execPath, ["--input-type=module", "-e", script, did], {
    env,
    cwd: process.cwd(),
    timeout: 30_000,
  });
  return JSON.parse(stdout) as { didDocument: any; didResolutionMetadata: any };
}

beforeAll(async () => {
  const { cert, key } = await selfSigned();
  const dir = scratchDir("bsn-did-tls-");
  certFile = path.join(dir, "cert.pem");
  writeFileSync(certFile, cert);
  https = createServer({ cert, key }, (req, res) => {
    void service
      .serveEndpoint(new Request(`${base}${req.url}`, { method: req.method }))
      .then(async (r) => {
        res.writeHead(r.status, Object.fromEntries(r.headers));
        res.end(Buffer.from(await r.arrayBuffer()));
      })
      .catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => https.listen(0, "127.0.0.1", resolve));
  base = `https://127.0.0.1:${(https.address() as AddressInfo).port}`;
  service = await openVueapi(
    "did",
    {
      DATABASE_URL: process.env.DATABASE_URL,
      PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
      PUBLIC_URL: base,
      DEMO: "0",
      TEST_FIXTURES: "1",
      JOBS_INTERVAL_MS: "0",
    },
    () => new Date(Date.now() + shiftMs),
  );
}, 120_000);
afterAll(async () => {
  https?.close();
  await service?.close();
});

describe("DIDs (issue 18)", () => {
  it("creates did:key (Ed25519, secp256k1) and did:web with portal-held keys, never showing a private key", async () => {
    const me = await person("didk");
    const ed = await ok(
      "/sys/did/identifiers/create",
      { label: "Signing", method: "key", custody: "portal", keyType: "Ed25519" },
      me.token,
    );
    expect(ed.did).toMatch(/^did:key:z6Mk/);
    const k1 = await ok(
      "/sys/did/identifiers/create",
      { label: "Wallet", method: "key", custody: "portal", keyType: "secp256k1" },
      me.token,
    );
    expect(k1.did).toMatch(/^did:key:zQ3s/);
    const web = await ok(
      "/sys/did/identifiers/create",
      { label: "Web", method: "web", custody: "portal", keyType: "Ed25519" },
      me.token,
    );
    expect(web.did).toBe(`did:web:127.0.0.1%3A${new URL(base).port}:users:${web.documentUrl.split("/")[4]}`);
    const detail = await ok("/sys/did/identifiers/detail", { didId: k1.didId }, me.token);
    expect(detail.document.id).toBe(k1.did);
    expect(JSON.stringify(detail)).not.toMatch(/privateKey|"d":/);
    const list = await ok("/sys/did/identifiers/list", {}, me.token);
    expect(list.page.total).toBe(3);
  });

  it("takes a user-held public key (JWK or multibase) and refuses a private JWK or a bad key", async () => {
    const me = await person("didu");
    const { publicKey, privateKey } = (await webcrypto.subtle.generateKey({ name: "Ed25519" }, true, [
      "sign",
      "verify",
    ])) as unknown as CryptoKeyPair;
    const jwk = await webcrypto.subtle.exportKey("jwk", publicKey);
    const fromJwk = await ok(
      "/sys/did/identifiers/create",
      { label: "Mine", method: "key", custody: "user", keyType: "secp256k1", publicKey: JSON.stringify(jwk) },
      me.token,
    );
    expect(fromJwk.keyType).toBe("Ed25519");
    expect(fromJwk.custody).toBe("user");
    const again = await call(
      "/sys/did/identifiers/create",
      { label: "Again", method: "key", custody: "user", keyType: "Ed25519", publicKey: fromJwk.publicKeyMultibase },
      me.token,
    );
    expect(again.message).toBe(Msg.DID_EXISTS);
    const web = await ok(
      "/sys/did/identifiers/create",
      { label: "Mine web", method: "web", custody: "user", keyType: "Ed25519", publicKey: fromJwk.publicKeyMultibase },
      me.token,
    );
    expect(web.publicKeyMultibase).toBe(fromJwk.publicKeyMultibase);
    const secret = await webcrypto.subtle.exportKey("jwk", privateKey);
    const refused = await call(
      "/sys/did/identifiers/create",
      { label: "Oops", method: "key", custody: "user", keyType: "Ed25519", publicKey: JSON.stringify(secret) },
      me.token,
    );
    expect(refused.data.fieldErrors.publicKey).toEqual([Msg.DID_PRIVATE_KEY_GIVEN]);
    const bad = await call(
      "/sys/did/identifiers/create",
      { label: "Bad", method: "key", custody: "user", keyType: "Ed25519", publicKey: "z6MkNOTAKEY" },
      me.token,
    );
    expect(bad.data.fieldErrors.publicKey).toEqual([Msg.DID_KEY_INVALID]);
    const missing = await call(
      "/sys/did/identifiers/create",
      { label: "None", method: "key", custody: "user", keyType: "Ed25519" },
      me.token,
    );
    expect(missing.data.fieldErrors.publicKey).toEqual(["did:form.publicKeyRequired"]);
  });

  it("a user cannot see another user's DIDs", async () => {
    const a = await person("dida");
    const b = await person("didb");
    const theirs = await ok(
      "/sys/did/identifiers/create",
      { label: "B's", method: "web", custody: "portal", keyType: "Ed25519" },
      b.token,
    );
    expect((await call("/sys/did/identifiers/detail", { didId: theirs.didId }, a.token)).message).toBe(Msg.NOT_FOUND);
    expect((await ok("/sys/did/identifiers/list", {}, a.token)).page.total).toBe(0);
    expect(
      (await call("/sys/did/credentials/requestEnterprise", { subjectDidId: theirs.didId }, a.token)).message,
    ).toBe(Msg.NOT_FOUND);
  });

  it("serves did:web documents that the standard resolver reads over HTTPS (trusted through NODE_EXTRA_CA_CERTS)", async () => {
    const me = await person("didw");
    const web = await ok(
      "/sys/did/identifiers/create",
      { label: "Web", method: "web", custody: "portal", keyType: "secp256k1" },
      me.token,
    );
    const resolved = await resolveInChild(web.did, true);
    expect(resolved.didResolutionMetadata.error).toBeUndefined();
    expect(resolved.didDocument.id).toBe(web.did);
    expect(resolved.didDocument.verificationMethod[0].publicKeyMultibase).toBe(web.publicKeyMultibase);
    // The platform's own did:web:<host> at /.well-known/did.json.
    const platform = await resolveInChild(`did:web:127.0.0.1%3A${new URL(base).port}`, true);
    expect(platform.didDocument.assertionMethod).toHaveLength(1);
    // Without the certificate trusted, the same resolution fails: it really went over TLS.
    const untrusted = await resolveInChild(web.did, false);
    expect(untrusted.didDocument).toBeNull();
    // Unknown handles and other shapes are not found.
    expect((await service.serveEndpoint(new Request(`${base}/users/${"0".repeat(20)}/did.json`))).status).toBe(404);
    expect((await service.serveEndpoint(new Request(`${base}/users/../did.json`))).status).toBe(404);
  }, 60_000);
});

describe("credentials (issue 18)", () => {
  it("the platform issues enterprise certified to a certified enterprise; it verifies; an individual is refused", async () => {
    const company = await person("dide", true);
    const subject = await ok(
      "/sys/did/identifiers/create",
      { label: "Company", method: "key", custody: "portal", keyType: "Ed25519" },
      company.token,
    );
    const vc = await ok("/sys/did/credentials/requestEnterprise", { subjectDidId: subject.didId }, company.token);
    expect(vc.issuerDid).toBe(`did:web:127.0.0.1%3A${new URL(base).port}`);
    expect(vc.mine).toBe(false);
    const result = await ok("/sys/did/verify", { jwt: vc.jwt }, company.token);
    expect(result).toMatchObject({
      verified: true,
      reason: null,
      issuer: vc.issuerDid,
      subject: subject.did,
      status: { revoked: false },
    });
    expect(result.claims.enterprise.name).toBe("Did Test Co., Ltd.");
    expect((await ok("/sys/did/credentials/received", {}, company.token)).page.total).toBe(1);
    const individual = await person("didi");
    const own = await ok(
      "/sys/did/identifiers/create",
      { label: "Me", method: "key", custody: "portal", keyType: "Ed25519" },
      individual.token,
    );
    expect(
      (await call("/sys/did/credentials/requestEnterprise", { subjectDidId: own.didId }, individual.token)).message,
    ).toBe(Msg.DID_NOT_CERTIFIED);
  });

  it("an operator revokes a platform-issued credential (audited); it then fails verification; a user is refused the path", async () => {
    const company = await person("didr", true);
    const subject = await ok(
      "/sys/did/identifiers/create",
      { label: "Company", method: "key", custody: "portal", keyType: "Ed25519" },
      company.token,
    );
    const vc = await ok("/sys/did/credentials/requestEnterprise", { subjectDidId: subject.didId }, company.token);
    const operatorId = await insertedUser(service, uniqueName("didop"), "operator");
    const operator = await sessionOf(service, operatorId);
    // The operators' list holds platform-issued credentials only, this one among them.
    const listed = await ok("/sys/ops/did/credentials", { pageIndex: 1, pageSize: 50 }, operator);
    expect(listed.page.rows.find((r: any) => r.credentialId === vc.credentialId)).toMatchObject({
      kind: "enterprise",
      issuerName: null,
      revokedAt: null,
    });
    expect(listed.page.rows.every((r: any) => r.issuerName === null)).toBe(true);
    // A user (even the holder) may not use the operator paths.
    for (const p of ["/sys/ops/did/credentials", "/sys/ops/did/revoke"])
      expect((await call(p, { credentialId: vc.credentialId }, company.token)).message).toBe(Msg.NO_PERMISSION);
    expect(await ok("/sys/did/verify", { jwt: vc.jwt }, company.token)).toMatchObject({
      verified: true,
      status: { revoked: false },
    });
    // The operator revokes: the platform's status list marks it, verification says revoked; once only; audited.
    const revoked = await ok("/sys/ops/did/revoke", { credentialId: vc.credentialId }, operator);
    expect(revoked).toMatchObject({ credentialId: vc.credentialId, revokedAt: expect.any(String) });
    expect(await ok("/sys/did/verify", { jwt: vc.jwt }, company.token)).toMatchObject({
      verified: false,
      reason: "revoked",
      status: { index: vc.statusIndex, revoked: true },
    });
    expect((await call("/sys/ops/did/revoke", { credentialId: vc.credentialId }, operator)).message).toBe(
      Msg.DID_ALREADY_REVOKED,
    );
    const entries = await service.services.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.actorId, operatorId), eq(auditLog.action, "credential.revoke")));
    expect(entries.map((e) => [e.targetType, e.targetId, e.decision])).toEqual([
      ["credential", String(vc.credentialId), "revoke"],
    ]);
    expect((await call("/sys/ops/did/revoke", { credentialId: 999_999_999 }, operator)).message).toBe(Msg.NOT_FOUND);
  });

  it("a publisher issues a role credential to a participant; it verifies, only the issuer revokes, then it fails verification", async () => {
    const publisher = await person("didp");
    const participant = await person("didq");
    const other = await person("didr");
    const svc = await ok("/test/services", { verState: 25, nodeCount: 2 }, publisher.token);
    const otherSvc = await ok("/test/services", { verState: 25, nodeCount: 2 }, other.token);
    const join = async (appId: number, verId: number, userId: number) => {
      const [role] = await service.services.db.select().from(appRoles).where(eq(appRoles.verId, verId));
      const [row] = await service.services.db
        .insert(appJoins)
        .values({ appId, verId, userId, roleId: role.id, auditState: 15, certificateMode: 3 })
        .returning();
      return { joinId: row.id, roleName: role.name };
    };
    const mine = await join(svc.appId, svc.appVerId, participant.id);
    const theirs = await join(otherSvc.appId, otherSvc.appVerId, participant.id);
    const issuer = await ok(
      "/sys/did/identifiers/create",
      { label: "Publisher", method: "web", custody: "portal", keyType: "Ed25519" },
      publisher.token,
    );
    const holder = await ok(
      "/sys/did/identifiers/create",
      { label: "Participant", method: "key", custody: "portal", keyType: "secp256k1" },
      participant.token,
    );
    const options = await ok("/sys/did/credentials/options", {}, publisher.token);
    expect(options.participants.map((p: any) => p.appJoinAuditId)).toEqual([mine.joinId]);

    // Not for another publisher's service; not with a user-held issuer key; not to another account's DID.
    expect(
      (
        await call(
          "/sys/did/credentials/issueRole",
          { issuerDidId: issuer.didId, appJoinAuditId: theirs.joinId, subjectDid: holder.did },
          publisher.token,
        )
      ).message,
    ).toBe(Msg.NOT_FOUND);
    const offline = await ok(
      "/sys/did/identifiers/create",
      { label: "Offline", method: "web", custody: "user", keyType: "Ed25519", publicKey: issuer.publicKeyMultibase },
      publisher.token,
    );
    expect(
      (
        await call(
          "/sys/did/credentials/issueRole",
          { issuerDidId: offline.didId, appJoinAuditId: mine.joinId, subjectDid: holder.did },
          publisher.token,
        )
      ).message,
    ).toBe(Msg.DID_NOT_PORTAL_HELD);
    const stranger = await ok(
      "/sys/did/identifiers/create",
      { label: "Stranger", method: "key", custody: "portal", keyType: "Ed25519" },
      other.token,
    );
    expect(
      (
        await call(
          "/sys/did/credentials/issueRole",
          { issuerDidId: issuer.didId, appJoinAuditId: mine.joinId, subjectDid: stranger.did },
          publisher.token,
        )
      ).message,
    ).toBe(Msg.DID_SUBJECT_OTHER_USER);

    const vc = await ok(
      "/sys/did/credentials/issueRole",
      { issuerDidId: issuer.didId, appJoinAuditId: mine.joinId, subjectDid: holder.did, validDays: 30 },
      publisher.token,
    );
    expect(vc).toMatchObject({
      kind: "role",
      issuerDid: issuer.did,
      subjectDid: holder.did,
      mine: true,
      claims: { role: mine.roleName },
    });
    const payload = decodeJWT(vc.jwt).payload as any;
    expect(payload.vc.credentialStatus).toMatchObject({
      type: "StatusList2021Entry",
      statusListIndex: String(vc.statusIndex),
      statusListCredential: vc.statusListUrl,
    });
    expect(await ok("/sys/did/verify", { jwt: vc.jwt }, other.token)).toMatchObject({
      verified: true,
      issuer: issuer.did,
      subject: holder.did,
      status: { index: vc.statusIndex, revoked: false },
    });
    // The holder sees it; a stranger does not.
    expect((await ok("/sys/did/credentials/detail", { credentialId: vc.credentialId }, participant.token)).jwt).toBe(
      vc.jwt,
    );
    expect((await call("/sys/did/credentials/detail", { credentialId: vc.credentialId }, other.token)).message).toBe(
      Msg.NOT_FOUND,
    );

    // Only the issuer revokes: not the holder, not a stranger, not an operator (a user-issued credential is not the platform's).
    const operator = await sessionOf(service, await insertedUser(service, uniqueName("didop"), "operator"));
    expect((await call("/sys/ops/did/revoke", { credentialId: vc.credentialId }, operator)).message).toBe(
      Msg.NOT_FOUND,
    );
    expect(
      (await ok("/sys/ops/did/credentials", { pageIndex: 1, pageSize: 50 }, operator)).page.rows.some(
        (r: any) => r.credentialId === vc.credentialId,
      ),
    ).toBe(false);
    expect(
      (await call("/sys/did/credentials/revoke", { credentialId: vc.credentialId }, participant.token)).message,
    ).toBe(Msg.NOT_FOUND);
    expect((await call("/sys/did/credentials/revoke", { credentialId: vc.credentialId }, other.token)).message).toBe(
      Msg.NOT_FOUND,
    );
    expect((await ok("/sys/did/verify", { jwt: vc.jwt }, other.token)).verified).toBe(true);
    const revoked = await ok("/sys/did/credentials/revoke", { credentialId: vc.credentialId }, publisher.token);
    expect(revoked.revokedAt).not.toBeNull();
    expect(
      (await call("/sys/did/credentials/revoke", { credentialId: vc.credentialId }, publisher.token)).message,
    ).toBe(Msg.DID_ALREADY_REVOKED);
    expect(await ok("/sys/did/verify", { jwt: vc.jwt }, other.token)).toMatchObject({
      verified: false,
      reason: "revoked",
      status: { revoked: true },
    });

    // The published list says so too, signed by the issuer: read over HTTPS as anyone would.
    const list = await service.serveEndpoint(new Request(vc.statusListUrl));
    expect(list.status).toBe(200);
    const listPayload = decodeJWT(await list.text()).payload as any;
    expect(listPayload.iss).toBe(issuer.did);
    expect(listPayload.vc.credentialSubject.type).toBe("StatusList2021");
  });

  it("verification names why a credential fails: malformed, bad signature, expired, unknown DID", async () => {
    const company = await person("didv", true);
    const subject = await ok(
      "/sys/did/identifiers/create",
      { label: "Company", method: "key", custody: "portal", keyType: "Ed25519" },
      company.token,
    );
    const vc = await ok("/sys/did/credentials/requestEnterprise", { subjectDidId: subject.didId }, company.token);
    const verify = async (jwt: string) => ok("/sys/did/verify", { jwt }, company.token);
    expect((await verify("not a jwt")).reason).toBe("malformed");
    const [h, p, s] = vc.jwt.split(".");
    const tampered = JSON.parse(Buffer.from(p, "base64url").toString());
    tampered.vc.credentialSubject.enterprise.name = "Mallory Ltd.";
    expect((await verify(`${h}.${Buffer.from(JSON.stringify(tampered)).toString("base64url")}.${s}`)).reason).toBe(
      "badSignature",
    );
    const unknown = { ...tampered, iss: `did:web:127.0.0.1%3A${new URL(base).port}:users:${"0".repeat(20)}` };
    expect((await verify(`${h}.${Buffer.from(JSON.stringify(unknown)).toString("base64url")}.${s}`)).reason).toBe(
      "unknownDid",
    );
    // Expired: verified 400 days later (the credential is valid 365 days), by a session of then.
    shiftMs = 400 * 86_400_000;
    try {
      expect((await ok("/sys/did/verify", { jwt: vc.jwt }, await sessionOf(service, company.id))).reason).toBe(
        "expired",
      );
    } finally {
      shiftMs = 0;
    }
    expect((await call("/sys/did/verify", {}, company.token)).message).toBe(Msg.DID_NOTHING_TO_VERIFY);
  });
});
