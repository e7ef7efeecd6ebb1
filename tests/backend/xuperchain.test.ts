import { strToU8, zipSync } from "fflate";
import { createPublicClient, http, parseAbi } from "viem";
import { describe, expect, inject, it } from "vitest";
import { activeUser, call, raw, upload } from "./client.ts";
import { join, ok, operator } from "./security/world.ts";
import { wizardBasic } from "./wizard-basic.ts";
import { tinyPng } from "../fixtures/files.ts";
import { waitFor } from "../support/wait.ts";

// Little of each node, so that the run's other running services (one shared database) never leave too little.
const SMALL = { tps: 1, capacityGb: 1 };

// docs/decisions/052 (issue 28, slice 1): a XuperChain service runs its Solidity packages on its own EVM chain as
// FISCO BCOS and CITA do; each booked city node is an endpoint /chain/service/<city node code>/<key> on that chain;
// "Deployment per node" lists the nodes with the chain's height and no made-up address; an approved participant
// gets a real endpoint per node with a key of their own; a language that cannot run is refused at the field.

const base = () => inject("baseUrl");
const LEDGER = parseAbi(["function values(string) view returns (uint256)"]);
const BLOCK = { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] };

async function rpc(path: string, body: unknown) {
  const res = await fetch(`${base()}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as { result?: unknown; error?: { code: number } } };
}

type Node = { code: string; height: number | null; endpoint: string | null; status: string };

describe("XuperChain services on the EVM, with a node per city node", () => {
  it(
    "deploys the Solidity packages; the per-node endpoints and a participant's endpoint answer viem; no address without code",
    { timeout: 240_000 },
    async () => {
      const pub = await activeUser("xc");
      const svc = await ok(
        "/test/services",
        { verState: 25, framework: "xuperchain", nodeCount: 2, ...SMALL },
        pub.token,
      );
      const detail = await ok("/sys/chainAppInfo/publishedDetail", { appId: svc.appId }, pub.token);
      expect(detail).toMatchObject({ verState: 25, framework: "xuperchain" });
      const chain = detail.chain;
      expect(chain.contracts.map((c: { packageName: string }) => c.packageName)).toEqual(["asset_cc", "audit_cc"]);
      const asset = chain.contracts[0].address as `0x${string}`;

      // Deployment per node: two city nodes, each running, with the chain's height and its own endpoint.
      const nodes = detail.deployment as Node[];
      expect(nodes).toHaveLength(2);
      const codes = detail.contents.nodes.map((n: { code: string }) => n.code);
      for (const [i, n] of nodes.entries()) {
        expect(n).toMatchObject({ code: codes[i], status: "running", height: expect.any(Number) });
        expect(Object.keys(n)).not.toContain("contractAddress");
        expect(n.endpoint).toBe(`${base()}/chain/service/${n.code.toLowerCase()}/${chain.key}`);
      }
      // Every address the page shows holds code.
      const direct = createPublicClient({ transport: http(`${base()}${chain.endpointPath}`) });
      for (const c of chain.contracts)
        expect((await direct.getCode({ address: c.address }))?.length).toBeGreaterThan(100);

      // Through each node's endpoint: the same chain, its height, the contract's state.
      for (const n of nodes) {
        const viaNode = createPublicClient({ transport: http(n.endpoint!) });
        expect(await viaNode.getChainId()).toBe(chain.chainId);
        expect(Number(await viaNode.getBlockNumber())).toBeGreaterThanOrEqual(n.height!);
        expect(await viaNode.readContract({ address: asset, abi: LEDGER, functionName: "values", args: ["x"] })).toBe(
          0n,
        );
      }
      // The plain endpoint still works; a node the service does not have is refused.
      expect((await rpc(chain.endpointPath, BLOCK)).status).toBe(200);
      expect((await rpc(`/chain/service/xx-nowhere-01/${chain.key}`, BLOCK)).status).toBe(404);

      // An approved participant: a real endpoint per chosen node, with a key of their own.
      await ok("/test/participation/service", { appId: svc.appId, certificateMode: 1 }, pub.token);
      const link = await ok("/sys/chainAppInfo/invite", { appVerId: svc.appVerId, language: "en" }, pub.token);
      const participant = await activeUser("xcp");
      const joined = await join(participant.token, new URL(`http://x${link.path}`).searchParams);
      await ok("/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: joined.joinId, auditState: 1 }, pub.token);
      await ok(
        "/sys/ops/participations/decide",
        { appJoinAuditId: joined.joinId, decision: "approve" },
        await operator(),
      );
      const params = await waitFor(
        "access parameters",
        () => call("/sys/chainAppInfo/getJoinParamList", { appJoinAuditId: joined.joinId }, participant.token),
        (r) => r.code === 0,
      );
      const gateways = params.data.gateways as { gatewayUrl: string | null }[];
      expect(gateways.length).toBeGreaterThan(0);
      for (const g of gateways) {
        expect(g.gatewayUrl).toMatch(new RegExp(`^${base()}/chain/service/[a-z0-9-]+/[A-Za-z0-9_-]{43}$`));
        expect(g.gatewayUrl).not.toContain(chain.key);
        expect(g.gatewayUrl).not.toContain(".example");
        const viaParticipant = createPublicClient({ transport: http(g.gatewayUrl!) });
        expect(Number(await viaParticipant.getBlockNumber())).toBeGreaterThan(0);
        expect(
          await viaParticipant.readContract({ address: asset, abi: LEDGER, functionName: "values", args: ["x"] }),
        ).toBe(0n);
      }
      // Disabled: the participant's node endpoint stops at once.
      await ok("/sys/chainAppInfo/disableJoin", { appJoinAuditId: joined.joinId, comments: "Left." }, pub.token);
      expect(await rpc(new URL(gateways[0].gatewayUrl!).pathname, BLOCK)).toMatchObject({
        status: 403,
        body: { error: { code: -32003 } },
      });
    },
  );

  it(
    "a Fabric service's node is a peer of its channel on the embedded Fabric peer: its height and the gateway",
    { timeout: 60_000 },
    async () => {
      const pub = await activeUser("xcf");
      const svc = await ok("/test/services", { verState: 25, framework: "fabric", nodeCount: 1, ...SMALL }, pub.token);
      const detail = await ok("/sys/chainAppInfo/publishedDetail", { appId: svc.appId }, pub.token);
      // Deployed (with the reason in view when not): the chaincode installed, its Init committed.
      expect(detail.verState, JSON.stringify(detail.contents.deployReport)).toBe(25);
      expect(detail.chain).toBeNull();
      expect(detail.deployment).toEqual([
        expect.objectContaining({ status: "running", endpoint: expect.stringMatching(/^grpcs:\/\//) }),
      ]);
      expect(detail.deployment[0].height).toBeGreaterThan(1);
    },
  );

  it("refuses a package language that cannot run for the framework, at the field", async () => {
    const pub = await activeUser("xcl");
    const zip = async () =>
      (
        await upload(
          "chaincode",
          "c.zip",
          zipSync({ "contracts/Ledger.sol": strToU8("contract Ledger {}") }),
          pub.token,
        )
      ).data;
    const draft = async (framework: string) => {
      const basic = { ...wizardBasic(`Lang ${framework} ${Date.now().toString(36)}`), framework };
      const cover = (await upload("cover", "cover.png", tinyPng(), pub.token)).data;
      return (await ok("/sys/chainAppInfo/wizard/saveBasic", { appState: "add", basic, cover }, pub.token)).appId;
    };
    const addPackage = async (appId: number, language: string, mainPath: string) => {
      const res = await raw(
        "/sys/chainAppInfo/wizard/addPackage",
        { appState: "add", appId, pkg: { name: "ledger_cc", version: "1.0.0", language, mainPath }, file: await zip() },
        pub.token,
      );
      return { status: res.status, body: await res.json() };
    };
    const xuper = await draft("xuperchain");
    const go = await addPackage(xuper, "go", "chaincode/main.go");
    // The /vueapi envelope refuses it (never a 5xx); the portal's form answers 400 with it (e2e/xuperchain.spec.ts).
    expect(go.status).toBeLessThan(500);
    expect(go.body.code).not.toBe(0);
    expect(go.body).toMatchObject({ message: "MSG_37022", data: { fieldErrors: { "pkg.language": ["MSG_37022"] } } });
    expect((await addPackage(xuper, "solidity", "contracts/Ledger.sol")).body.code).toBe(0);

    // Fabric without a connected network (no FABRIC_PEER_ENDPOINT here): Go and Java refused, Node.js taken.
    const fabric = await draft("fabric");
    for (const language of ["go", "java"]) {
      const refused = await addPackage(fabric, language, "main");
      expect(refused.status).toBeLessThan(500);
      expect(refused.body.data.fieldErrors).toEqual({ "pkg.language": ["MSG_37023"] });
    }
    expect((await addPackage(fabric, "node", "lib/chaincode.js")).body.code).toBe(0);
    // The framework cannot become one that does not run the draft's Node.js package.
    const basic = { ...wizardBasic(`Lang switch ${Date.now().toString(36)}`), framework: "cita" };
    const switched = await raw(
      "/sys/chainAppInfo/wizard/saveBasic",
      { appState: "add", appId: fabric, basic },
      pub.token,
    );
    expect(switched.status).toBeLessThan(500);
    expect((await switched.json()).data.fieldErrors).toEqual({ "basic.framework": ["MSG_37022"] });
  });
});
