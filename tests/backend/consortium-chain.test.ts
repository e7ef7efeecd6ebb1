import { createPublicClient, createWalletClient, http, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, inject, it } from "vitest";
import { activeUser, call } from "./client.ts";
import { join, ok, operator } from "./security/world.ts";
import { waitFor } from "../support/wait.ts";

// Little of each node, so that the run's other running services (one shared database) never leave too little.
const SMALL = { tps: 1, capacityGb: 1 };

// docs/decisions/038: a FISCO BCOS service's Solidity packages are deployed by the deploy job (24 → 25) on the
// service's own chain; the publisher and an approved participant call the contract through
// /chain/service/<key> with viem; a participant who loses access, an unknown key and a stopped service are refused.

const base = () => inject("baseUrl");
const LEDGER = parseAbi([
  "function values(string) view returns (uint256)",
  "function CreateAsset(string key, uint256 value)",
]);

async function rpc(path: string, body: unknown) {
  const res = await fetch(`${base()}${path}`, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify(body),
  });
  return {
    status: res.status,
    body: (await res.json()) as { result?: unknown; error?: { code: number; message: string } },
  };
}

describe("consortium services on their own chain", () => {
  it(
    "deploys the Solidity packages for real; the publisher and an approved participant call them; a lost access stops the key",
    { timeout: 240_000 },
    async () => {
      const pub = await activeUser("cc");
      const svc = await ok("/test/services", { verState: 25, framework: "fisco", nodeCount: 1, ...SMALL }, pub.token);
      const detail = await ok("/sys/chainAppInfo/publishedDetail", { appId: svc.appId }, pub.token);
      expect(detail.verState).toBe(25);
      const chain = detail.chain;
      expect(chain).toMatchObject({
        chainName: expect.stringMatching(/^svc-app[0-9a-f]+$/),
        chainId: expect.any(Number),
      });
      expect(chain.endpointPath).toMatch(/^\/chain\/service\/[A-Za-z0-9_-]{43}$/);
      expect(chain.contracts.map((c: { packageName: string }) => c.packageName)).toEqual(["asset_cc", "audit_cc"]);
      const asset = chain.contracts[0];
      expect(asset).toMatchObject({
        contractName: "Ledger",
        address: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        txHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });

      // The publisher's key: the contract is there, it answers, and a transaction through the same endpoint changes it.
      const viaPublisher = createPublicClient({ transport: http(`${base()}${chain.endpointPath}`) });
      expect(await viaPublisher.getChainId()).toBe(chain.chainId);
      expect((await viaPublisher.getCode({ address: asset.address }))?.length).toBeGreaterThan(100);
      expect(
        await viaPublisher.readContract({
          address: asset.address,
          abi: LEDGER,
          functionName: "values",
          args: ["pallet-7"],
        }),
      ).toBe(0n);
      const account = privateKeyToAccount(generatePrivateKey());
      expect(
        (
          await rpc(`/chain/test-rpc/${chain.chainName}/fund`, {
            address: account.address,
            wei: (10n ** 18n).toString(),
          })
        ).status,
      ).toBe(200);
      const wallet = createWalletClient({
        account,
        transport: http(`${base()}${chain.endpointPath}`),
        chain: {
          id: chain.chainId,
          name: chain.chainName,
          nativeCurrency: { name: "Gas", symbol: "GAS", decimals: 18 },
          rpcUrls: { default: { http: [`${base()}${chain.endpointPath}`] } },
        },
      });
      const hash = await wallet.writeContract({
        address: asset.address,
        abi: LEDGER,
        functionName: "CreateAsset",
        args: ["pallet-7", 7n],
      });
      expect((await viaPublisher.waitForTransactionReceipt({ hash, pollingInterval: 100 })).status).toBe("success");

      // An approved participant gets a key of their own and reads the same state.
      await ok("/test/participation/service", { appId: svc.appId, certificateMode: 1 }, pub.token);
      const link = await ok("/sys/chainAppInfo/invite", { appVerId: svc.appVerId, language: "en" }, pub.token);
      const participant = await activeUser("ccp");
      const joined = await join(participant.token, new URL(`http://x${link.path}`).searchParams);
      expect(
        (await call("/sys/chainAppInfo/getJoinParamList", { appJoinAuditId: joined.joinId }, participant.token))
          .message,
      ).toBe("MSG_39008");
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
      const mine = (params.data as { chain: typeof chain }).chain;
      expect(mine.chainId).toBe(chain.chainId);
      expect(mine.endpointPath).not.toBe(chain.endpointPath);
      expect(mine.contracts[0].address).toBe(asset.address);
      const viaParticipant = createPublicClient({ transport: http(`${base()}${mine.endpointPath}`) });
      expect(
        await viaParticipant.readContract({
          address: asset.address,
          abi: LEDGER,
          functionName: "values",
          args: ["pallet-7"],
        }),
      ).toBe(7n);

      // The publisher disables the participant: the key stops working at once. Unknown and malformed keys are refused.
      await ok(
        "/sys/chainAppInfo/disableJoin",
        { appJoinAuditId: joined.joinId, comments: "Left the consortium." },
        pub.token,
      );
      const refused = await rpc(mine.endpointPath, { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] });
      expect(refused).toMatchObject({ status: 403, body: { error: { code: -32003 } } });
      expect(
        (
          await rpc(`/chain/service/${"x".repeat(43)}`, {
            jsonrpc: "2.0",
            id: 1,
            method: "eth_blockNumber",
            params: [],
          })
        ).status,
      ).toBe(401);
      expect(
        (await rpc("/chain/service/short", { jsonrpc: "2.0", id: 1, method: "eth_blockNumber", params: [] })).status,
      ).toBe(401);
      // Another user sees nothing of the chain: the detail is not found.
      expect((await call("/sys/chainAppInfo/publishedDetail", { appId: svc.appId }, participant.token)).message).toBe(
        "MSG_10002",
      );
    },
  );

  it("a Fabric service keeps the booking and has no chain of its own", { timeout: 60_000 }, async () => {
    const pub = await activeUser("ccf");
    const svc = await ok("/test/services", { verState: 25, framework: "fabric", nodeCount: 1, ...SMALL }, pub.token);
    expect((await ok("/sys/chainAppInfo/publishedDetail", { appId: svc.appId }, pub.token)).chain).toBeNull();
  });
});
