import { execFile } from "node:child_process";
import { X509Certificate, createPrivateKey } from "node:crypto";
import { mkdtempSync, mkdirSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { strFromU8, unzipSync } from "fflate";
import { createPublicClient, custom } from "viem";
import { describe, expect, it } from "vitest";
import { Msg } from "#contract/messages.ts";
import { KIT_DEPENDENCIES } from "#backend/domains/participation/kit-files.ts";
import {
  callVueapi,
  downloadedBytes,
  inProcessVueapi,
  insertedUser,
  ownDatabase,
  refusedDownload,
  sessionOf,
} from "./in-process.ts";
import { joinedParticipant } from "./fabric-support.ts";
import { dataOf } from "../support/envelope.ts";

// The participant's access kit (issue 28 item 7; docs/decisions/070): what a participant of a running EVM service
// (certificate mode 1) and of a running Fabric service (mode 2) downloads; a stranger's 404; no private key inside;
// the Fabric kit's own sample script, run with node against the gateway with the key the participant downloaded.

const service = inProcessVueapi("access-kit", {
  TEST_FIXTURES: "1",
  DEMO: "0",
  JOBS_INTERVAL_MS: "0",
  DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
  PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
});
const KIT = "participant-access-kit";
const PASSWORD = "Secret42";

async function as(userId: number, p: string, body: object = {}) {
  return callVueapi(service, p, body, await sessionOf(service, userId));
}
const ok = async (userId: number, p: string, body: object = {}) => dataOf(p, await as(userId, p, body));

/** A running service of `framework` and an approved participant of it with certificate `mode` (1 or 2). */
async function participation(framework: "fisco" | "fabric", mode: 1 | 2) {
  const tag = `${framework[0]}${Date.now()}`;
  const pub = await insertedUser(service, `kp${tag}`);
  const svc = await ok(pub, "/test/services", { verState: 25, framework, nodeCount: 2 });
  const { participant, joinId, certificateId } = await joinedParticipant(service, {
    pub,
    appId: svc.appId,
    appVerId: svc.appVerId,
    mode,
    tag: `k${framework[0]}`,
    nodes: "all",
    password: PASSWORD,
    // Before approval: no kit.
    beforeApproval: async (joined) =>
      expect(
        (
          await refusedDownload(
            service,
            KIT,
            { appJoinAuditId: joined.joinId },
            await sessionOf(service, joined.participant),
          )
        ).message,
      ).toBe(Msg.ACCESS_NOT_AVAILABLE),
  });
  const keyPem = (await ok(participant, "/sys/chainAppInfo/certificateFile", { certificateId, kind: "key" }))
    .pem as string;
  return { pub, participant, joinId, keyPem, appId: svc.appId as number };
}

/** The kit's files by their name inside its folder. */
async function kitOf(userId: number, joinId: number) {
  const zip = await downloadedBytes(service, KIT, { appJoinAuditId: joinId }, await sessionOf(service, userId));
  const entries = unzipSync(new Uint8Array(zip));
  const names = Object.keys(entries);
  const folder = names[0]!.split("/")[0]!;
  expect(names.every((n) => n.startsWith(`${folder}/`))).toBe(true);
  const files = Object.fromEntries(names.map((n) => [n.slice(folder.length + 1), strFromU8(entries[n]!)]));
  // Never a private key, in any file.
  for (const [name, text] of Object.entries(files)) expect(text, name).not.toMatch(/PRIVATE KEY-----/);
  return { folder, files, kit: JSON.parse(files["kit.json"]!) };
}

/** The kit unpacked in a temporary folder whose node_modules is the repository's (as `npm i` would give it). */
function unpacked(files: Record<string, string>) {
  const dir = mkdtempSync(path.join(tmpdir(), "bsn-kit-"));
  for (const [name, text] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), text);
  }
  symlinkSync(path.resolve("node_modules"), path.join(dir, "node_modules"), "dir");
  return dir;
}

describe("the participant's access kit", () => {
  it("EVM (mode 1): endpoints of every node with the participant's key, chain id, ABIs, the certificate chain, viem", async () => {
    const p = await participation("fisco", 1);
    const { files, kit } = await kitOf(p.participant, p.joinId);
    expect(kit).toMatchObject({ kind: "evm", certificateMode: 1 });
    expect(kit.nodes).toHaveLength(2);
    for (const n of kit.nodes) expect(n.endpoint).toMatch(/\/chain\/service\/[^/]+\/[A-Za-z0-9_-]{20,}$/);
    expect(kit.contracts.length).toBeGreaterThan(0);
    const abi = JSON.parse(files[kit.contracts[0].abiFile]!);
    expect(abi.some((f: { type: string }) => f.type === "function")).toBe(true);
    expect(JSON.parse(files["package.json"]!).dependencies).toEqual(KIT_DEPENDENCIES.evm);
    expect(files["sample.mjs"]).toContain('from "viem"');
    expect(files["README.md"]).toContain("HTTPS");
    expect(files["tls-ca.pem"]).toBeUndefined();
    // The chain of the certificate: the participant's (its key the one downloaded), then the service's CA.
    const leaf = new X509Certificate(files["certificate.pem"]!);
    expect(leaf.checkPrivateKey(createPrivateKey(p.keyPem))).toBe(true);
    expect(leaf.verify(new X509Certificate(files["ca.pem"]!).publicKey)).toBe(true);
    expect(files["certificate-chain.pem"]).toBe(`${files["certificate.pem"]}${files["ca.pem"]}`);
    // Each endpoint answers the kit's chain id and the first contract's code.
    for (const n of kit.nodes) {
      const client = createPublicClient({
        transport: custom({
          request: async ({ method, params }) => {
            const res = await service.serveEndpoint(
              new Request(n.endpoint, {
                method: "POST",
                headers: { "Content-Type": "application/json" },
                body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
              }),
            );
            const body = (await res!.json()) as { result?: unknown; error?: { message: string } };
            if (body.error) throw new Error(body.error.message);
            return body.result;
          },
        }),
      });
      expect(await client.getChainId()).toBe(kit.chainId);
      expect(await client.getCode({ address: kit.contracts[0].address })).not.toBe("0x");
    }
    // A stranger, and the publisher of the service itself, get the same 404 as an unknown id.
    const stranger = await insertedUser(service, `ks${Date.now()}`);
    for (const who of [stranger, p.pub]) {
      const refused = await refusedDownload(service, KIT, { appJoinAuditId: p.joinId }, await sessionOf(service, who));
      expect(refused.message).toBe(Msg.NOT_FOUND);
    }
  });

  it(
    "Fabric (mode 2): the gateway, channel, chaincode and functions, the gateway's TLS CA; its sample runs with the encrypted key",
    { timeout: 180_000 },
    async () => {
      const p = await participation("fabric", 2);
      const { files, kit } = await kitOf(p.participant, p.joinId);
      expect(kit).toMatchObject({ kind: "fabric", certificateMode: 2 });
      expect(kit.channel).toBe(kit.appCode.toLowerCase());
      expect(kit.chaincode).toBe(kit.appCode.toLowerCase());
      expect(kit.gateway).toMatch(/^grpcs:\/\/localhost:\d+$/);
      expect(kit.nodes).toHaveLength(2);
      expect(files["tls-ca.pem"]).toContain("BEGIN CERTIFICATE");
      expect(JSON.parse(files["package.json"]!).dependencies).toEqual(KIT_DEPENDENCIES.fabric);
      expect(files["README.md"]).toContain("KIT_KEY_PASSWORD");
      // The participant's language: a Chinese README for a zh-CN caller.
      const zh = await downloadedBytes(
        service,
        KIT,
        { appJoinAuditId: p.joinId, userLanguage: "zh-CN" },
        await sessionOf(service, p.participant),
      );
      const zhFiles = unzipSync(new Uint8Array(zh));
      const readme = Object.entries(zhFiles).find(([n]) => n.endsWith("README.md"))![1];
      expect(strFromU8(readme)).toContain("接入包");

      const dir = unpacked({ ...files, "my-key.pem": p.keyPem });
      try {
        const run = (args: string[], password = PASSWORD) =>
          promisify(execFile)(process.execPath, ["sample.mjs", "my-key.pem", ...args], {
            cwd: dir,
            env: { NODE_ENV: "production", PATH: process.env.PATH, KIT_KEY_PASSWORD: password },
            timeout: 60_000,
          });
        const listed = await run([]);
        expect(listed.stdout).toContain("The key matches certificate.pem.");
        const write = kit.functions.find((f: { call: string }) => f.call === "submit");
        expect(write).toBeDefined();
        for (const f of kit.functions) expect(listed.stdout).toContain(f.name);
        // A transaction submitted through the gateway with the participant's certificate and decrypted key.
        const submitted = await run(["submit", write.name, "lot-1", "7"]);
        expect(submitted.stdout).toContain(`submit ${write.name}: ok`);
        // A wrong password is the script's clear refusal, not a call.
        const wrong = await run([], "wrong-1").then(
          () => null,
          (e: { stderr: string }) => e.stderr,
        );
        expect(wrong).toContain("Cannot read the key");
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    },
  );
});
