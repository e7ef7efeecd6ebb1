import { and, eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { BillType } from "#contract/billing.ts";
import billing from "#backend/domains/billing/index.ts";
import { bills, usageDaily } from "#backend/domains/billing/tables.ts";
import { weekEnd, weekStartOf } from "#backend/domains/billing/time.ts";
import { writeCityNode } from "#backend/domains/platform/catalogue.ts";
import { cityNodes } from "#backend/db/tables.ts";
import { callVueapi, inProcessVueapi, insertedUser, ownDatabase, sessionOf } from "./in-process.ts";
import { dataOf } from "../support/envelope.ts";
import { waitFor } from "../support/wait.ts";

// docs/decisions/057 (issue 28, slice 2): real calls on a FISCO BCOS service's endpoints, by its publisher and by
// an approved participant, are metered per service, participant, city node, method and day; the weekly traffic
// job bills the publisher for all of it at each city node's price per GB on bytes in + out, to the cent, and the
// participant sees its own use. In-process, so the test moves the clock to the bill run; on PostgreSQL on a
// database of its own.

let clock: Date | null = null;
const service = inProcessVueapi(
  "metering",
  {
    TEST_FIXTURES: "1",
    DEMO: "0",
    JOBS_INTERVAL_MS: "0",
    DATABASE_URL: await ownDatabase(process.env.DATABASE_URL),
    PAYMENT_WEBHOOK_SECRET: "backend-test-webhook-secret",
  },
  () => clock ?? new Date(),
);
const GIB = 1024 ** 3;

async function as(userId: number, p: string, body: object = {}) {
  return callVueapi(service, p, body, await sessionOf(service, userId));
}
const ok = async (userId: number, p: string, body: object = {}) => dataOf(p, await as(userId, p, body));

/** One POST to a chain endpoint; answers the status and the bytes that went in and came out. */
async function rpc(path: string, body: unknown) {
  const text = JSON.stringify(body);
  const res = await service.serveEndpoint(
    new Request(`http://test.invalid${path}`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: text,
    }),
  );
  const answer = await res.text();
  return { status: res.status, bytesIn: Buffer.byteLength(text), bytesOut: Buffer.byteLength(answer) };
}
const call = (method: string, id = 1, params: unknown[] = []) => ({ jsonrpc: "2.0", id, method, params });

describe("the meter of consortium traffic", () => {
  it(
    "meters the publisher's and a participant's calls per node and method, and the next weekly bill is their bytes in + out at each node's price, to the cent",
    { timeout: 240_000 },
    async () => {
      const pub = await insertedUser(service, `mp${Date.now()}`);
      const participant = await insertedUser(service, `mq${Date.now()}`);
      const op = await insertedUser(service, `mo${Date.now()}`, "operator");
      const svc = await ok(pub, "/test/services", { verState: 25, framework: "fisco", nodeCount: 2 });
      const detail = await ok(pub, "/sys/chainAppInfo/publishedDetail", { appId: svc.appId });
      const key = detail.chain.key as string;
      const codes: string[] = detail.contents.nodes.map((n: { code: string }) => n.code);
      const nodes = await service.services.db.select().from(cityNodes);
      const nodeOf = (code: string) => nodes.find((n) => n.code === code)!;
      // The plain endpoint is metered on the first booked node (the lowest id).
      codes.sort((a, b) => nodeOf(a).id - nodeOf(b).id);
      // Prices high enough that a few kilobytes come to cents (the bill's rule is the same at any price).
      await writeCityNode(service.services, nodeOf(codes[0]).id, { trafficPricePerGbCents: 9_000_000 });
      await writeCityNode(service.services, nodeOf(codes[1]).id, { trafficPricePerGbCents: 7_000_000 });
      const price: Record<string, number> = { [codes[0]]: 9_000_000, [codes[1]]: 7_000_000 };

      // An approved participant with an endpoint of its own on one node.
      await ok(pub, "/test/participation/service", { appId: svc.appId, certificateMode: 1 });
      const link = await ok(pub, "/sys/chainAppInfo/invite", { appVerId: svc.appVerId, language: "en" });
      const invite = new URL(`http://x${link.path}`).searchParams;
      const info = await ok(participant, "/sys/chainAppInfo/applyJoinApp", {
        appId: svc.appId,
        token: invite.get("c"),
        expiry: invite.get("d"),
        language: invite.get("e"),
      });
      const page = { pageSize: 50, pageIndex: 1, condition: { appId: svc.appId, ticket: info.ticket } };
      const roles = await ok(participant, "/sys/chainAppInfo/queryRolesForAppList", { page });
      const cities = await ok(participant, "/sys/chainAppInfo/queryReleaseCitysForAppList", { page });
      const joined = await ok(participant, "/sys/chainAppInfo/joinApp", {
        appId: svc.appId,
        ticket: info.ticket,
        roleId: roles.page.rows[0].roleId,
        cityNodeIds: [cities.page.rows.find((c: { released: boolean }) => c.released).cityNodeId],
        certificateMode: 1,
      });
      const joinId = joined.appJoinAuditId as number;
      await ok(pub, "/sys/chainAppInfo/auditAppJoined", { appJoinAuditId: joinId, auditState: 1 });
      await ok(op, "/sys/ops/participations/decide", { appJoinAuditId: joinId, decision: "approve" });
      const params = await waitFor(
        "the participant's endpoint",
        async () => {
          await service.runJobs();
          return as(participant, "/sys/chainAppInfo/getJoinParamList", { appJoinAuditId: joinId });
        },
        (r) => r.code === 0 && r.data.gateways.some((g: { gatewayUrl: string | null }) => g.gatewayUrl),
      );
      const gateway = new URL(params.data.gateways.find((g: { gatewayUrl: string | null }) => g.gatewayUrl).gatewayUrl)
        .pathname;
      const participantCode = gateway.split("/")[3].toUpperCase();

      // The calls, counted here as they go: bytes in and out per node for the publisher (who pays for all of it).
      const sent = new Map<string, number>();
      const count = (code: string, r: { status: number; bytesIn: number; bytesOut: number }) => {
        expect(r.status).toBe(200);
        sent.set(code, (sent.get(code) ?? 0) + r.bytesIn + r.bytesOut);
        return r;
      };
      // The publisher's plain endpoint is the first booked node; a batch counts a call per method.
      for (let i = 0; i < 3; i++) count(codes[0], await rpc(detail.chain.endpointPath, call("eth_blockNumber", i)));
      count(
        codes[0],
        await rpc(detail.chain.endpointPath, [
          call("eth_chainId", 1),
          call("eth_blockNumber", 2),
          call("eth_chainId", 3),
        ]),
      );
      const contract = detail.chain.contracts[0].address;
      for (let i = 0; i < 2; i++)
        count(
          codes[1],
          await rpc(`/chain/service/${codes[1].toLowerCase()}/${key}`, call("eth_getCode", i, [contract, "latest"])),
        );
      // The participant's calls through its own endpoint, one of them a megabyte.
      let participantBytes = 0;
      for (const body of [
        call("eth_blockNumber", 1),
        { ...call("eth_blockNumber", 2), pad: "x".repeat(1024 * 1024) },
      ]) {
        const r = count(participantCode, await rpc(gateway, body));
        participantBytes += r.bytesIn + r.bytesOut;
      }
      // Refused calls are not metered.
      expect((await rpc(`/chain/service/${"A".repeat(43)}`, call("eth_blockNumber"))).status).toBe(401);
      expect((await rpc(`/chain/service/xx-nowhere-01/${key}`, call("eth_blockNumber"))).status).toBe(404);

      // The rows, once written: per node, service, participant and method, with the calls.
      await billing.api.flushTraffic(service.services);
      const rows = await service.services.db
        .select()
        .from(usageDaily)
        .where(eq(usageDaily.userId, pub))
        .orderBy(usageDaily.cityNodeId, usageDaily.joinId, usageDaily.method);
      const summary = rows.map((r) => ({
        code: nodes.find((n) => n.id === r.cityNodeId)!.code,
        appId: r.appId,
        joinId: r.joinId,
        callerId: r.callerId,
        method: r.method,
        calls: r.calls,
      }));
      expect(summary).toEqual(
        expect.arrayContaining([
          { code: codes[0], appId: svc.appId, joinId: 0, callerId: null, method: "eth_blockNumber", calls: 4 },
          { code: codes[0], appId: svc.appId, joinId: 0, callerId: null, method: "eth_chainId", calls: 2 },
          { code: codes[1], appId: svc.appId, joinId: 0, callerId: null, method: "eth_getCode", calls: 2 },
          {
            code: participantCode,
            appId: svc.appId,
            joinId,
            callerId: participant,
            method: "eth_blockNumber",
            calls: 2,
          },
        ]),
      );
      expect(rows).toHaveLength(4);
      const counted = new Map<string, number>();
      for (const r of rows) {
        const code = nodes.find((n) => n.id === r.cityNodeId)!.code;
        counted.set(code, (counted.get(code) ?? 0) + r.bytesIn + r.bytesOut);
      }
      expect(counted).toEqual(sent);

      // The service's traffic view on its detail: today's calls and bytes, all callers together.
      const view = await ok(pub, "/sys/chainAppInfo/publishedDetail", { appId: svc.appId });
      expect(view.traffic).toHaveLength(7);
      const today = view.traffic.at(-1);
      expect(today.calls).toBe(rows.reduce((n, r) => n + r.calls, 0));
      expect(today.bytesIn + today.bytesOut).toBe([...sent.values()].reduce((n, b) => n + b, 0));

      // The participant sees its own use (today on its home chart), not the publisher's.
      const mine = await ok(participant, "/main/home/dashboard");
      expect(mine.usage7.at(-1).mb).toBe(Math.round((participantBytes / 1024 / 1024) * 1000) / 1000);

      // The weekly run after this week ends bills the publisher, per node, on bytes in + out, to the cent.
      const week = weekStartOf(new Date());
      clock = new Date(weekEnd(week).getTime() + 2 * 3_600_000);
      await service.runJobs();
      const [bill] = await service.services.db
        .select()
        .from(bills)
        .where(and(eq(bills.userId, pub), eq(bills.billType, BillType.DATA_TRAFFIC)));
      const expected = [...sent].map(([code, bytes]) => ({ code, cents: Math.round((bytes * price[code]) / GIB) }));
      expect(bill.dedupeKey).toBe(`traffic:${pub}:${week}`);
      expect(bill.totalCents).toBe(expected.reduce((s, e) => s + e.cents, 0));
      expect(
        bill.detail
          .dataUsage!.map((l) => ({ code: l.nodeCode, cents: l.amountCents }))
          .sort((a, b) => a.code.localeCompare(b.code)),
      ).toEqual(expected.sort((a, b) => a.code.localeCompare(b.code)));
      // The participant pays nothing for it.
      const theirs = await service.services.db.select().from(bills).where(eq(bills.userId, participant));
      expect(theirs.filter((b) => b.billType === BillType.DATA_TRAFFIC)).toEqual([]);
    },
  );
});
