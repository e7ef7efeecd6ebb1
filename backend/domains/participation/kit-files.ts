import { readFileSync } from "node:fs";
import path from "node:path";
import type { Language } from "#backend/mail.ts";

/**
 * The files of the access kit that are not read from the database (docs/decisions/070): its two sample scripts,
 * its package.json and its README in the participant's language (locales/<lng>/participation.json `kitReadme`).
 */

type KitNode = { code: string; name: string; nameZh: string; endpoint: string };
type KitBase = { appCode: string; name: string; userCode: string; certificateMode: number; version: string };
export type KitFacts = KitBase &
  (
    | {
        kind: "fabric";
        gateway: string;
        nodes: KitNode[];
        channel: string;
        chaincode: string;
        mspId: string;
        functions: { name: string; call: "submit" | "evaluate"; args: string }[];
      }
    | {
        kind: "evm";
        chainId: number;
        chainName: string;
        nodes: KitNode[];
        contracts: { packageName: string; contractName: string; address: string; abiFile: string }[];
      }
  );

/** The client libraries at the versions the product itself runs (tests/unit/access-kit.test.ts checks them against package.json). */
export const KIT_DEPENDENCIES = {
  evm: { viem: "2.57.20" },
  fabric: { "@hyperledger/fabric-gateway": "1.10.1", "@grpc/grpc-js": "1.14.7" },
} as const;

export function kitPackageJson(facts: KitFacts): string {
  const manifest = {
    name: `${facts.appCode.toLowerCase()}-access-kit`,
    private: true,
    type: "module",
    engines: { node: ">=20" },
    scripts: { sample: "node sample.mjs" },
    dependencies: KIT_DEPENDENCIES[facts.kind],
  };
  return JSON.stringify(manifest, null, 2) + "\n";
}

/** Shared by both scripts: the key (mode 2: decrypted with the certificate password), checked against the certificate. */
const LOAD_KEY = `import { X509Certificate, createPrivateKey } from "node:crypto";
import { readFileSync } from "node:fs";
import path from "node:path";
import { createInterface } from "node:readline/promises";
import { fileURLToPath } from "node:url";

const here = path.dirname(fileURLToPath(import.meta.url));
const kit = JSON.parse(readFileSync(path.join(here, "kit.json"), "utf8"));
const certificatePem = readFileSync(path.join(here, "certificate.pem"));

function fail(message) {
  console.error(message);
  process.exit(1);
}

/** The private key at \`file\`; an encrypted one (certificate mode 2) is opened with KIT_KEY_PASSWORD or a prompt. */
async function loadKey(file) {
  if (!file) fail(USAGE);
  const pem = readFileSync(file, "utf8");
  let passphrase;
  if (pem.includes("ENCRYPTED PRIVATE KEY")) {
    passphrase = process.env.KIT_KEY_PASSWORD;
    if (passphrase === undefined) {
      const rl = createInterface({ input: process.stdin, output: process.stderr });
      passphrase = await rl.question("Certificate password: ");
      rl.close();
    }
  }
  let key;
  try {
    key = createPrivateKey({ key: pem, format: "pem", passphrase });
  } catch (error) {
    fail(\`Cannot read the key \${file}: \${error.message}\`);
  }
  if (!new X509Certificate(certificatePem).checkPrivateKey(key))
    fail(\`The key \${file} is not the key of certificate.pem.\`);
  return key;
}
`;

export const FABRIC_SAMPLE = `// The access kit's sample for a Fabric service: npm i, then
// node sample.mjs <key.pem> [submit|evaluate] <function> [args...]
// Without a function it lists the chaincode's functions (kit.json) and checks the key against the certificate.
import * as grpc from "@grpc/grpc-js";
import { connect, hash, signers } from "@hyperledger/fabric-gateway";
${LOAD_KEY}
const USAGE = "usage: node sample.mjs <key.pem> [submit|evaluate] <function> [args...]";
const [keyPath, ...rest] = process.argv.slice(2);
const key = await loadKey(keyPath);
let call;
if (rest[0] === "submit" || rest[0] === "evaluate") call = rest.shift();
const fn = rest.shift();
if (!fn) {
  console.log(\`The key matches certificate.pem. \${kit.channel}/\${kit.chaincode} functions:\`);
  for (const f of kit.functions) console.log(\`  \${f.call} \${f.name} \${f.args}\`);
  console.log(USAGE);
  process.exit(0);
}
call ??= kit.functions.find((f) => f.name === fn)?.call ?? "evaluate";

const target = new URL(kit.gateway);
const client = new grpc.Client(target.host, grpc.credentials.createSsl(readFileSync(path.join(here, "tls-ca.pem"))));
const gateway = connect({
  client,
  identity: { mspId: kit.mspId, credentials: certificatePem },
  signer: signers.newPrivateKeySigner(key),
  hash: hash.sha256,
});
try {
  const contract = gateway.getNetwork(kit.channel).getContract(kit.chaincode);
  const bytes =
    call === "submit" ? await contract.submitTransaction(fn, ...rest) : await contract.evaluateTransaction(fn, ...rest);
  console.log(\`\${call} \${fn}: ok\`);
  const text = new TextDecoder().decode(bytes);
  if (text) console.log(text);
} catch (error) {
  const details = (error.details ?? []).map((d) => \` \${d.address}: \${d.message}\`).join("");
  fail(\`\${call} \${fn} failed: \${error.message}\${details}\`);
} finally {
  gateway.close();
  client.close();
}
`;

export const EVM_SAMPLE = `// The access kit's sample for an EVM service (FISCO BCOS, CITA, XuperChain): npm i, then
// node sample.mjs <key.pem> [contract] [function] [args...]
// It checks the key against the certificate, asks every node for the chain id and height, then calls a read-only
// function (eth_call): the one named, or the contract's first without inputs.
import { createPublicClient, http } from "viem";
${LOAD_KEY}
const USAGE = "usage: node sample.mjs <key.pem> [contract] [function] [args...]";
const [keyPath, contractName, functionName, ...args] = process.argv.slice(2);
await loadKey(keyPath);
if (kit.nodes.length === 0) fail("The service has no endpoint yet.");
const clients = kit.nodes.map((node) => ({ node, client: createPublicClient({ transport: http(node.endpoint) }) }));
for (const { node, client } of clients) {
  const chainId = await client.getChainId();
  if (chainId !== kit.chainId) fail(\`\${node.code}: chain id \${chainId}, expected \${kit.chainId}\`);
  console.log(\`\${node.code}: chain \${chainId}, block \${await client.getBlockNumber()}\`);
}
const contract = contractName ? kit.contracts.find((c) => c.contractName === contractName) : kit.contracts[0];
if (!contract) fail(contractName ? \`No contract \${contractName} in kit.json.\` : "The service has no contract.");
const abi = JSON.parse(readFileSync(path.join(here, contract.abiFile), "utf8"));
const readable = abi.filter((f) => f.type === "function" && ["view", "pure"].includes(f.stateMutability));
const chosen = functionName ?? readable.find((f) => f.inputs.length === 0)?.name;
if (!chosen) {
  const names = readable.map((f) => \`\${f.name}(\${f.inputs.map((i) => i.type).join(", ")})\`);
  console.log(\`\${contract.contractName} read-only functions: \${names.join(", ")}\`);
  console.log(USAGE);
  process.exit(0);
}
const parsed = args.map((a) => (/^\\d+$/.test(a) ? BigInt(a) : a));
try {
  const result = await clients[0].client.readContract({ address: contract.address, abi, functionName: chosen, args: parsed });
  console.log(\`\${contract.contractName}.\${chosen}(\${args.join(", ")}) = \${typeof result === "bigint" ? result.toString() : JSON.stringify(result, (_k, v) => (typeof v === "bigint" ? v.toString() : v))}\`);
} catch (error) {
  fail(\`\${contract.contractName}.\${chosen} failed: \${error.shortMessage ?? error.message}\`);
}
`;

type ReadmeTexts = Record<string, string>;
const readmes = new Map<Language, ReadmeTexts>();

function textsOf(language: Language): ReadmeTexts {
  const known = readmes.get(language);
  if (known) return known;
  const file = path.resolve(process.cwd(), "locales", language, "participation.json");
  const texts = (JSON.parse(readFileSync(file, "utf8")) as { kitReadme: ReadmeTexts }).kitReadme;
  readmes.set(language, texts);
  return texts;
}

/** The kit's README.md in `language`: what each file is, how to run the sample for the certificate's mode. */
export function kitReadme(facts: KitFacts, language: Language): string {
  const t = textsOf(language);
  const fill = (key: string, values: Record<string, string | number> = {}) =>
    (t[key] ?? key).replace(/\{\{(\w+)\}\}/g, (_m, k: string) => String(values[k] ?? ""));
  const zh = language === "zh-CN";
  const lines = [`# ${fill("title", { name: facts.name, appCode: facts.appCode })}`, "", fill("intro"), ""];
  lines.push(`## ${fill("endpointsTitle")}`, "");
  for (const n of facts.nodes) lines.push(`- ${zh ? n.nameZh || n.name : n.name} (${n.code}): \`${n.endpoint}\``);
  lines.push("");
  if (facts.kind === "fabric") {
    lines.push(fill("fabricFacts", { channel: facts.channel, chaincode: facts.chaincode, mspId: facts.mspId }), "");
    lines.push(fill("tlsFabric"), "");
    lines.push(`## ${fill("functionsTitle")}`, "");
    for (const f of facts.functions) lines.push(`- \`${f.name}\` (${f.call}) ${f.args}`);
  } else {
    lines.push(fill("evmFacts", { chainId: facts.chainId, chainName: facts.chainName }), "");
    lines.push(fill("tlsEvm"), "");
    lines.push(`## ${fill("contractsTitle")}`, "");
    for (const c of facts.contracts)
      lines.push(`- ${c.contractName} (${c.packageName}): \`${c.address}\`, ${c.abiFile}`);
  }
  lines.push("", `## ${fill("filesTitle")}`, "", fill("files"), "", `## ${fill("runTitle")}`, "");
  lines.push("```sh", "npm i", "node sample.mjs <key.pem>", "```", "");
  lines.push(fill(facts.kind === "fabric" ? "runFabric" : "runEvm"), "");
  lines.push(fill(`mode${facts.certificateMode}`), "", fill("noKey"), "");
  return lines.join("\n");
}
