import { and, eq } from "drizzle-orm";
import { decodeFunctionResult, encodeFunctionData, parseAbi } from "viem";
import { generatePrivateKey, privateKeyToAccount } from "viem/accounts";
import { describe, expect, it } from "vitest";
import { BillType } from "#contract/billing-codes.ts";
import { CROSS_DELIVERY_ATTEMPTS } from "#contract/cross-chain-codes.ts";
import { makeCrossChainBills } from "#backend/domains/billing/jobs.ts";
import { bills } from "#backend/domains/billing/tables.ts";
import { weekStartOf } from "#backend/domains/billing/time.ts";
import chain from "#backend/domains/chain/index.ts";
import { appVersions } from "#backend/domains/services/tables.ts";
import { auditLog } from "#backend/db/tables.ts";
import { callVueapi, inProcessVueapi, insertedUser, ownDatabase, sessionOf } from "./in-process.ts";
import { dataOf } from "../support/envelope.ts";
import { waitFor } from "../support/wait.ts";

/** The operators' price of a successful call as the migration seeds it (docs/decisions/073). */
const CALL_PRICE_CENTS = 1;

// docs/decisions/048: two running FISCO services on chains of their own are opened to cross-chain and approved;
// the relayer delivers a message sent on the source chain to the target chain (both transactions real), a
// delivery to a reverting target fails with its reason after its retries, every §5/§8 refusal, deactivation
// through 4, the weekly bill, and another user's service is not found. In-process, so the test reads the chains
// and makes the weekly bill itself; on PostgreSQL on a database of its own.

const service = inProcessVueapi("cross-chain", {
  TEST_FIXTURES: "1",
  DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
  PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
});
const INBOX = parseAbi(["function count() view returns (uint256)", "function receiveMessage(string text)"]);
const NFT = parseAbi(["function balanceOf(address) view returns (uint256)"]);
const DEPOSIT = parseAbi(["function count() view returns (uint256)"]);
const BRIDGE = parseAbi([
  "function send(string appCode, string targetChain, address target, bytes data) returns (uint64)",
]);

async function as(userId: number, p: string, body: object = {}) {
  return callVueapi(service, p, body, await sessionOf(service, userId));
}
const ok = async (userId: number, p: string, body: object = {}) => dataOf(p, await as(userId, p, body));
const rpc = (chainName: string, method: string, params: unknown[] = []) =>
  chain.api.request(service.services, chainName, { method, params });
async function read(chainName: string, to: string, data: `0x${string}`) {
  return (await rpc(chainName, "eth_call", [{ to, data }, "latest"])) as `0x${string}`;
}

describe("cross-chain services", () => {
  it(
    "opens two services under review, relays messages between their chains for real, refuses what §5/§8 refuse, and bills the calls",
    { timeout: 420_000 },
    async () => {
      const pub = await insertedUser(service, `xc${Date.now()}`);
      const other = await insertedUser(service, `xo${Date.now()}`);
      const op = await insertedUser(service, `xop${Date.now()}`, "operator");
      const a = await ok(pub, "/test/services", { verState: 25, framework: "fisco", nodeCount: 1 });
      const b = await ok(pub, "/test/services", { verState: 25, framework: "fisco", nodeCount: 2 });
      const onlyFirst = await ok(pub, "/test/services", { verState: 25, framework: "fisco", nodeCount: 4 });
      const fabric = await ok(pub, "/test/services", { verState: 25, framework: "fabric", nodeCount: 1 });

      // SelectService: the running services, each with whether it can be opened and why not.
      const selectable = await ok(pub, "/sys/crossChain/selectable");
      const byId = (id: number) => selectable.find((s: { appId: number }) => s.appId === id);
      expect(byId(a.appId)).toMatchObject({
        canOpen: true,
        reason: null,
        protocols: [1, 2],
        chainName: expect.stringMatching(/^svc-/),
      });
      expect(byId(onlyFirst.appId)).toMatchObject({ canOpen: true, protocols: [1] });
      expect(byId(fabric.appId)).toMatchObject({ canOpen: false, reason: "MSG_48105", chainName: null });

      // Refusals, each with its own message, re-checked by the server.
      expect((await as(pub, "/sys/crossChain/dredge", { appId: fabric.appId, protocol: 1 })).message).toBe("MSG_48105");
      const unsupported = await as(pub, "/sys/crossChain/dredge", {
        appId: onlyFirst.appId,
        protocol: 2,
        appCode: "ONLY-ONE",
      });
      expect(unsupported).toMatchObject({
        code: 1,
        message: "MSG_48103",
        data: { fieldErrors: { protocol: ["MSG_48103"] } },
      });
      const noAppCode = await as(pub, "/sys/crossChain/dredge", { appId: a.appId, protocol: 2 });
      expect(noAppCode.code).not.toBe(0);
      expect(noAppCode.data.fieldErrors.appCode).toEqual(["validation.required"]);
      const [upgrade] = await service.services.db
        .insert(appVersions)
        .values({ appId: a.appId, version: "9.9.9", verState: 1 })
        .returning();
      expect((await as(pub, "/sys/crossChain/dredge", { appId: a.appId, protocol: 2, appCode: "APP-A" })).message).toBe(
        "MSG_48102",
      );
      await service.services.db.delete(appVersions).where(eq(appVersions.id, upgrade.id));
      const [unpaid] = await service.services.db
        .insert(bills)
        .values({
          billNo: `XCU${Date.now()}`,
          userId: pub,
          serviceName: "Cross-chain calls",
          billType: BillType.CROSS_CHAIN,
          payMode: 2,
          cycle: 99,
          periodStart: new Date(),
          periodEnd: new Date(),
          createdAt: new Date(),
          deadline: new Date(),
          totalCents: 3,
          payCents: 3,
        })
        .returning();
      expect((await as(pub, "/sys/crossChain/dredge", { appId: a.appId, protocol: 2, appCode: "APP-A" })).message).toBe(
        "MSG_48104",
      );
      expect(
        (await ok(pub, "/sys/crossChain/selectable")).find((s: { appId: number }) => s.appId === a.appId).reason,
      ).toBe("MSG_48104");
      await service.services.db.update(bills).set({ payState: 15 }).where(eq(bills.id, unpaid.id));

      // Dredge → 3 pending activation; meanwhile the service's upgrade and its stop are refused.
      expect(await ok(pub, "/sys/crossChain/dredge", { appId: a.appId, protocol: 2, appCode: "APP-A" })).toEqual({
        appId: a.appId,
        crossStatus: 3,
      });
      expect(await ok(pub, "/sys/crossChain/dredge", { appId: b.appId, protocol: 2, appCode: "APP-B" })).toEqual({
        appId: b.appId,
        crossStatus: 3,
      });
      expect((await as(pub, "/sys/crossChain/dredge", { appId: a.appId, protocol: 2, appCode: "APP-A" })).message).toBe(
        "MSG_48106",
      );
      expect((await as(pub, "/sys/chainAppInfo/wizard/draft", { appState: "update", appId: a.appId })).message).toBe(
        "MSG_48109",
      );
      expect((await as(pub, "/sys/chainAppInfo/deactivate", { appVerId: a.appVerId })).message).toBe("MSG_48107");
      expect(
        (await ok(pub, "/sys/crossChain/list", { status: 3 })).page.rows.map((r: { appId: number }) => r.appId).sort(),
      ).toEqual([a.appId, b.appId].sort());

      // The operators' queue and review (a user may not; rejecting needs comments).
      expect((await as(pub, "/sys/ops/crossChain/pending", {})).code).not.toBe(0);
      const queue = await ok(op, "/sys/ops/crossChain/pending", { status: 3 });
      expect(queue.page.rows.filter((r: { appId: number }) => r.appId === a.appId || r.appId === b.appId)).toHaveLength(
        2,
      );
      expect((await as(op, "/sys/ops/crossChain/review", { appId: a.appId, decision: "reject" })).code).not.toBe(0);
      expect(await ok(op, "/sys/ops/crossChain/review", { appId: a.appId, decision: "approve" })).toEqual({
        appId: a.appId,
        crossStatus: 1,
      });
      expect(await ok(op, "/sys/ops/crossChain/review", { appId: b.appId, decision: "approve" })).toEqual({
        appId: b.appId,
        crossStatus: 1,
      });
      // Audited by the handler, in the transaction that moved the status.
      const entries = await service.services.db
        .select()
        .from(auditLog)
        .where(and(eq(auditLog.action, "crossChain.review"), eq(auditLog.targetId, String(a.appId))));
      expect(entries).toHaveLength(1);
      expect(entries[0]).toMatchObject({
        actorId: op,
        targetType: "crossChainService",
        decision: "approve",
        path: "/sys/ops/crossChain/review",
        details: { from: 3, outcome: { appId: a.appId, crossStatus: 1 } },
      });

      // The live state: contracts on the service's chain and on open-alliance, the relayer; the targets.
      const detailA = await ok(pub, "/sys/crossChain/detail", { appId: a.appId });
      const detailB = await ok(pub, "/sys/crossChain/detail", { appId: b.appId });
      expect(detailA).toMatchObject({
        crossStatus: 1,
        protocol: 2,
        crossAppCode: "APP-A",
        relayerAddress: expect.stringMatching(/^0x[0-9a-fA-F]{40}$/),
        unitPriceCents: CALL_PRICE_CENTS,
      });
      const roles = (d: typeof detailA, chainName: string) =>
        d.contracts
          .filter((c: { chainName: string }) => c.chainName === chainName)
          .map((c: { role: string }) => c.role)
          .sort();
      expect(roles(detailA, detailA.chainName)).toEqual(["deposit", "inbox", "messenger", "nft"]);
      expect(roles(detailA, "open-alliance")).toEqual(["deposit", "inbox", "messenger", "nft"]);
      const contractOf = (d: typeof detailA, chainName: string, role: string) =>
        d.contracts.find((c: { chainName: string; role: string }) => c.chainName === chainName && c.role === role)
          .address as `0x${string}`;
      const targets = await ok(pub, "/sys/crossChain/targets", { appId: a.appId });
      expect(targets.map((t: { chainName: string }) => t.chainName)).toEqual(["open-alliance", detailB.chainName]);
      expect(
        (await as(pub, "/sys/crossChain/send", { appId: a.appId, target: "test-network", kind: "message", text: "x" }))
          .message,
      ).toBe("MSG_48110");

      // A message from A's chain is delivered on B's chain: status 1, both transactions real on their chains.
      const sent = await ok(pub, "/sys/crossChain/send", {
        appId: a.appId,
        target: detailB.chainName,
        kind: "message",
        text: "hello from A",
      });
      expect(sent).toMatchObject({
        status: 0,
        kind: "message",
        sourceChain: detailA.chainName,
        targetChain: detailB.chainName,
        sourceTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      const delivered = await waitFor(
        "the delivery",
        () => ok(pub, "/sys/crossChain/calls", { appId: a.appId }),
        (p) => p.page.rows.find((r: { callId: number }) => r.callId === sent.callId)?.status !== 0,
      );
      const call = delivered.page.rows.find((r: { callId: number }) => r.callId === sent.callId);
      expect(call).toMatchObject({
        status: 1,
        attempts: 1,
        reason: null,
        feeCents: CALL_PRICE_CENTS,
        targetTxHash: expect.stringMatching(/^0x[0-9a-f]{64}$/),
      });
      expect(await rpc(detailA.chainName, "eth_getTransactionReceipt", [call.sourceTxHash])).toMatchObject({
        status: "0x1",
      });
      expect(await rpc(detailB.chainName, "eth_getTransactionReceipt", [call.targetTxHash])).toMatchObject({
        status: "0x1",
      });
      expect(await rpc(detailA.chainName, "eth_getTransactionReceipt", [call.targetTxHash])).toBeNull();
      const inboxB = contractOf(detailB, detailB.chainName, "inbox");
      expect(
        decodeFunctionResult({
          abi: INBOX,
          functionName: "count",
          data: await read(detailB.chainName, inboxB, encodeFunctionData({ abi: INBOX, functionName: "count" })),
        }),
      ).toBe(1n);

      // A delivery to a reverting target (an empty message) fails with the target's reason, after its retries.
      const failing = await ok(pub, "/sys/crossChain/send", {
        appId: a.appId,
        target: detailB.chainName,
        kind: "call",
        to: inboxB,
        data: encodeFunctionData({ abi: INBOX, functionName: "receiveMessage", args: [""] }),
      });
      const failed = await waitFor(
        "the failed delivery",
        () => ok(pub, "/sys/crossChain/calls", { appId: a.appId, status: 2 }),
        (p) => p.page.rows.some((r: { callId: number }) => r.callId === failing.callId),
      );
      expect(failed.page.rows.find((r: { callId: number }) => r.callId === failing.callId)).toMatchObject({
        status: 2,
        attempts: CROSS_DELIVERY_ATTEMPTS,
        reason: "empty message",
        targetTxHash: null,
        feeCents: 0,
      });

      // Protocol 2's samples: an NFT locked on A's chain and minted on B's; a deposit recorded on open-alliance.
      const nft = await ok(pub, "/sys/crossChain/send", { appId: a.appId, target: detailB.chainName, kind: "nft" });
      const deposit = await ok(pub, "/sys/crossChain/send", {
        appId: a.appId,
        target: "open-alliance",
        kind: "deposit",
        text: "invoice 42",
      });
      await waitFor(
        "the samples",
        () => ok(pub, "/sys/crossChain/calls", { appId: a.appId, status: 1 }),
        (p) => [nft.callId, deposit.callId].every((id) => p.page.rows.some((r: { callId: number }) => r.callId === id)),
      );
      const nftB = contractOf(detailB, detailB.chainName, "nft");
      const sender = (await ok(pub, "/sys/crossChain/detail", { appId: a.appId })).senderAddress as `0x${string}`;
      expect(
        decodeFunctionResult({
          abi: NFT,
          functionName: "balanceOf",
          data: await read(
            detailB.chainName,
            nftB,
            encodeFunctionData({ abi: NFT, functionName: "balanceOf", args: [sender] }),
          ),
        }),
      ).toBe(1n);
      const depositOpen = contractOf(detailA, "open-alliance", "deposit");
      expect(
        decodeFunctionResult({
          abi: DEPOSIT,
          functionName: "count",
          data: await read("open-alliance", depositOpen, encodeFunctionData({ abi: DEPOSIT, functionName: "count" })),
        }),
      ).toBeGreaterThanOrEqual(1n);

      // A message sent by the user's own tool straight to A's bridge is found by the relayer's polling and delivered;
      // one naming another APPCode is recorded as a failure with its reason and not delivered.
      const ownKey = generatePrivateKey();
      await chain.api.fund(service.services, detailA.chainName, privateKeyToAccount(ownKey).address, 10n ** 18n);
      const bridgeA = contractOf(detailA, detailA.chainName, "messenger");
      const viaBridge = (appCode: string, text: string) =>
        chain.api.send(service.services, detailA.chainName, ownKey, {
          to: bridgeA,
          data: encodeFunctionData({
            abi: BRIDGE,
            functionName: "send",
            args: [
              appCode,
              detailB.chainName,
              inboxB,
              encodeFunctionData({ abi: INBOX, functionName: "receiveMessage", args: [text] }),
            ],
          }),
        });
      const ownTx = await viaBridge("APP-A", "from my own tool");
      const wrongTx = await viaBridge("NOT-A", "wrong APPCode");
      // The relayer records each message of a block in the round that reads it and delivers in the same round, so
      // the own tool's message may be delivered before the refused one (a block later) is read: wait for both.
      const seen = await waitFor(
        "the own tool's message delivered and the other APPCode's recorded",
        () => ok(pub, "/sys/crossChain/calls", { appId: a.appId, pageSize: 50 }),
        (p) =>
          p.page.rows.some(
            (r: { sourceTxHash: string; status: number }) => r.sourceTxHash === ownTx && r.status === 1,
          ) && p.page.rows.some((r: { sourceTxHash: string }) => r.sourceTxHash === wrongTx),
      );
      expect(seen.page.rows.find((r: { sourceTxHash: string }) => r.sourceTxHash === ownTx)).toMatchObject({
        kind: "call",
        status: 1,
        targetChain: detailB.chainName,
      });
      expect(seen.page.rows.find((r: { sourceTxHash: string }) => r.sourceTxHash === wrongTx)).toMatchObject({
        status: 2,
        attempts: 0,
        reason: "the APPCode NOT-A is not the service's",
        targetTxHash: null,
      });
      expect(
        decodeFunctionResult({
          abi: INBOX,
          functionName: "count",
          data: await read(detailB.chainName, inboxB, encodeFunctionData({ abi: INBOX, functionName: "count" })),
        }),
      ).toBe(2n);

      // Filters and paging of the calls table (the CSV export pages through all with pageSize up to 1000).
      const all = await ok(pub, "/sys/crossChain/calls", { appId: a.appId, pageSize: 1000 });
      expect(all.page.total).toBe(6);
      expect((await ok(pub, "/sys/crossChain/calls", { appId: a.appId, target: "open-alliance" })).page.total).toBe(1);
      const today = new Date(Date.now() + 8 * 3_600_000).toISOString().slice(0, 10);
      const tomorrow = new Date(Date.now() + 32 * 3_600_000).toISOString().slice(0, 10);
      expect((await ok(pub, "/sys/crossChain/calls", { appId: a.appId, from: today, to: today })).page.total).toBe(6);
      expect((await ok(pub, "/sys/crossChain/calls", { appId: a.appId, from: tomorrow })).page.total).toBe(0);
      expect(
        (await ok(pub, "/sys/crossChain/calls", { appId: a.appId, status: 1, pageSize: 2, pageIndex: 2 })).page,
      ).toMatchObject({ total: 4, pageIndex: 2, pageSize: 2 });
      expect((await as(pub, "/sys/crossChain/calls", { appId: a.appId, pageSize: 1001 })).code).not.toBe(0);

      // One call record by its id, only within its own service: another user's, another service's or an unknown id is not found.
      expect(await ok(pub, "/sys/crossChain/call", { appId: a.appId, callId: sent.callId })).toEqual(
        all.page.rows.find((r: { callId: number }) => r.callId === sent.callId),
      );
      expect((await as(other, "/sys/crossChain/call", { appId: a.appId, callId: sent.callId })).message).toBe(
        "MSG_10002",
      );
      expect((await as(pub, "/sys/crossChain/call", { appId: b.appId, callId: sent.callId })).message).toBe(
        "MSG_10002",
      );
      expect((await as(pub, "/sys/crossChain/call", { appId: a.appId, callId: 2_000_000_000 })).message).toBe(
        "MSG_10002",
      );
      const othersService = await ok(other, "/test/services", { verState: 25, framework: "fisco", nodeCount: 1 });
      const othersCall = await ok(other, "/test/crossChain/call", { appId: othersService.appId });
      expect(
        await ok(other, "/sys/crossChain/call", { appId: othersService.appId, callId: othersCall.callId }),
      ).toEqual(othersCall);
      expect((await as(pub, "/sys/crossChain/call", { appId: a.appId, callId: othersCall.callId })).message).toBe(
        "MSG_10002",
      );
      expect((await as(pub, "/test/crossChain/call", { appId: othersService.appId })).message).toBe("MSG_10002");

      // Another user's service is not found, whatever the path.
      for (const p of [
        "/sys/crossChain/detail",
        "/sys/crossChain/calls",
        "/sys/crossChain/targets",
        "/sys/crossChain/deactivate",
        "/sys/crossChain/close",
      ]) {
        expect((await as(other, p, { appId: a.appId })).message, p).toBe("MSG_10002");
      }
      expect(
        (
          await as(other, "/sys/crossChain/send", {
            appId: a.appId,
            target: "open-alliance",
            kind: "message",
            text: "x",
          })
        ).message,
      ).toBe("MSG_10002");

      // Deactivating goes through 4 (the upgrade refused meanwhile), then 0 on approval; closing then → 2.
      expect((await as(pub, "/sys/crossChain/close", { appId: a.appId })).message).toBe("MSG_48106");
      expect(await ok(pub, "/sys/crossChain/deactivate", { appId: a.appId })).toEqual({
        appId: a.appId,
        crossStatus: 4,
      });
      expect((await as(pub, "/sys/chainAppInfo/wizard/draft", { appState: "update", appId: a.appId })).message).toBe(
        "MSG_48109",
      );
      expect(
        await ok(op, "/sys/ops/crossChain/review", {
          appId: a.appId,
          decision: "reject",
          comments: "Calls are still expected.",
        }),
      ).toEqual({ appId: a.appId, crossStatus: 1 });
      expect(await ok(pub, "/sys/crossChain/deactivate", { appId: a.appId })).toEqual({
        appId: a.appId,
        crossStatus: 4,
      });
      expect(await ok(op, "/sys/ops/crossChain/review", { appId: a.appId, decision: "approve" })).toEqual({
        appId: a.appId,
        crossStatus: 0,
      });
      expect(
        (await as(pub, "/sys/crossChain/send", { appId: a.appId, target: "open-alliance", kind: "message", text: "x" }))
          .message,
      ).toBe("MSG_48111");
      const [again] = await service.services.db
        .insert(appVersions)
        .values({ appId: a.appId, version: "9.9.8", verState: 5 })
        .returning();
      expect((await as(pub, "/sys/crossChain/close", { appId: a.appId })).message).toBe("MSG_48108");
      await service.services.db.delete(appVersions).where(eq(appVersions.id, again.id));
      expect(await ok(pub, "/sys/crossChain/close", { appId: a.appId })).toEqual({ appId: a.appId, crossStatus: 2 });
      // The weekly bill counts the successful calls at the unit price, once.
      const now = new Date();
      expect(await makeCrossChainBills(service.services.db, weekStartOf(now), now, [pub])).toBe(1);
      expect(await makeCrossChainBills(service.services.db, weekStartOf(now), now, [pub])).toBe(0);
      const [bill] = await service.services.db
        .select()
        .from(bills)
        .where(and(eq(bills.userId, pub), eq(bills.billType, BillType.CROSS_CHAIN), eq(bills.payState, 1)));
      expect(bill).toMatchObject({ totalCents: 4 * CALL_PRICE_CENTS });
      expect(bill.detail.dataUsage).toEqual([
        {
          nodeCode: detailA.chainName,
          usedGb: 4,
          pricePerGbCents: CALL_PRICE_CENTS,
          amountCents: 4 * CALL_PRICE_CENTS,
        },
      ]);

      // The unpaid weekly bill now blocks opening again.
      expect((await as(pub, "/sys/crossChain/dredge", { appId: a.appId, protocol: 1 })).message).toBe("MSG_48104");
    },
  );
});
