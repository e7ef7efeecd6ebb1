// Relayer latency, event to delivery, p50/p99 (issue 17; docs/decisions/048): `npm run bench:crosschain`.
// The backend in this process on a fresh embedded database (as the backend tests open it), two running FISCO
// services opened to cross-chain and approved, then BENCH_MESSAGES messages from A's chain to B's: half through
// the `send` path (which wakes the relayer), half sent straight to A's message contract from an account of the
// test's own (found by the relayer's polling). Latency is the call's delivery time minus the time its event was
// recorded (both the backend's clock), and the wall time from the source transaction to status 1 seen by a reader.
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq } from "drizzle-orm";
import { encodeFunctionData, parseAbi } from "viem";
import { privateKeyToAccount, generatePrivateKey } from "viem/accounts";
import { readBackendEnv } from "#backend/env.ts";
import { createVueapi } from "#backend/index.ts";
import { issueToken, markSecondFactorPassed, sha256 } from "#backend/http/auth.ts";
import { users } from "#backend/db/tables.ts";
import chain from "#backend/domains/chain/index.ts";
import { crossChainCalls } from "#backend/domains/cross-chain/tables.ts";

const MESSAGES = Number(process.env.BENCH_MESSAGES ?? 40);
/** Budget: the p99 of event → delivery stays under this (ms) on the embedded chain. */
const P99_BUDGET_MS = Number(process.env.BENCH_RELAYER_P99_MS ?? 2_000);

const dataDir = mkdtempSync(path.join(tmpdir(), "bsn-bench-xc-"));
process.once("exit", () => rmSync(dataDir, { recursive: true, force: true }));
const env = readBackendEnv({
  ...process.env,
  DATABASE_URL: undefined,
  DATA_DIR: dataDir,
  NODE_ENV: "test",
  RATE_LIMITS: "off",
  TEST_FIXTURES: "1",
  DEMO: "0",
  SESSION_SECRET: "bench-xc-secret",
});
const service = await createVueapi(env);
const deps = service.services;

async function user(role: string) {
  const [row] = await deps.db
    .insert(users)
    .values({
      userName: `bench${role}${Date.now()}`,
      passwordHash: "x",
      realName: "测试",
      email: `bench${role}${Date.now()}@example.com`,
      userType: 1,
      role,
      activatedAt: new Date(),
    })
    .returning({ id: users.id });
  const token = await issueToken(deps, row.id);
  if (role === "operator") await markSecondFactorPassed(deps.db, sha256(token), new Date());
  return token;
}
async function call(p: string, body: object, token: string) {
  const res = await service.handle(
    new Request(`http://bench.invalid/vueapi${p}`, {
      method: "POST",
      headers: { "Content-Type": "application/json", Authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    }),
    {},
  );
  const json = (await res.json()) as { code: number; data: any; message: string };
  if (json.code !== 0) throw new Error(`${p}: ${JSON.stringify(json).slice(0, 400)}`);
  return json.data;
}
const quantile = (xs: number[], q: number) =>
  [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(q * xs.length))];

try {
  const pub = await user("user");
  const op = await user("operator");
  const a = await call("/test/services", { verState: 25, framework: "fisco", nodeCount: 1 }, pub);
  const b = await call("/test/services", { verState: 25, framework: "fisco", nodeCount: 1 }, pub);
  for (const s of [a, b]) {
    await call("/sys/crossChain/dredge", { appId: s.appId, protocol: 1 }, pub);
    await call("/sys/ops/crossChain/review", { appId: s.appId, decision: "approve" }, op);
  }
  const detailA = await call("/sys/crossChain/detail", { appId: a.appId }, pub);
  const detailB = await call("/sys/crossChain/detail", { appId: b.appId }, pub);
  const hubA = detailA.contracts.find((c: any) => c.chainName === detailA.chainName && c.role === "messenger").address;
  const inboxB = detailB.contracts.find((c: any) => c.chainName === detailB.chainName && c.role === "inbox").address;
  // Warm-up: the first delivery funds the relayer on B's chain.
  await call(
    "/sys/crossChain/send",
    { appId: a.appId, target: detailB.chainName, kind: "message", text: "warm-up" },
    pub,
  );
  const ownKey = generatePrivateKey();
  await chain.api.fund(deps, detailA.chainName, privateKeyToAccount(ownKey).address, 10n ** 18n);
  const hub = parseAbi(["function send(string targetChain, address target, bytes data) returns (uint64)"]);
  const inbox = parseAbi(["function receiveMessage(string text)"]);
  const wall: Record<string, number[]> = { send: [], polled: [] };
  for (let i = 0; i < MESSAGES; i++) {
    const viaSend = i % 2 === 0;
    const t0 = performance.now();
    let callId: number | null = null;
    let sourceTxHash: string | null = null;
    if (viaSend)
      callId = (
        await call(
          "/sys/crossChain/send",
          { appId: a.appId, target: detailB.chainName, kind: "message", text: `bench ${i}` },
          pub,
        )
      ).callId;
    else {
      const data = encodeFunctionData({
        abi: hub,
        functionName: "send",
        args: [
          detailB.chainName,
          inboxB,
          encodeFunctionData({ abi: inbox, functionName: "receiveMessage", args: [`bench ${i}`] }),
        ],
      });
      sourceTxHash = await chain.api.send(deps, detailA.chainName, ownKey, { to: hubA, data });
    }
    for (;;) {
      const [row] = await deps.db
        .select()
        .from(crossChainCalls)
        .where(callId ? eq(crossChainCalls.id, callId) : eq(crossChainCalls.sourceTxHash, sourceTxHash!));
      if (row && row.status !== 0) {
        if (row.status !== 1) throw new Error(`call ${row.id} failed: ${row.reason}`);
        wall[viaSend ? "send" : "polled"].push(performance.now() - t0);
        break;
      }
      await new Promise((r) => setTimeout(r, 10));
    }
  }
  const delivered = (await deps.db.select().from(crossChainCalls)).filter((c) => c.status === 1 && c.deliveredAt);
  const recorded = delivered.map((c) => c.deliveredAt!.getTime() - c.createdAt.getTime());
  const rows = [
    {
      measure: "event recorded → delivered (backend clock)",
      n: recorded.length,
      "p50 ms": quantile(recorded, 0.5),
      "p99 ms": quantile(recorded, 0.99),
    },
    {
      measure: "send path: answer → status 1 seen",
      n: wall.send.length,
      "p50 ms": Math.round(quantile(wall.send, 0.5)),
      "p99 ms": Math.round(quantile(wall.send, 0.99)),
    },
    {
      measure: "own transaction → status 1 seen (polling)",
      n: wall.polled.length,
      "p50 ms": Math.round(quantile(wall.polled, 0.5)),
      "p99 ms": Math.round(quantile(wall.polled, 0.99)),
    },
  ];
  console.log(`\nrelayer latency, event to delivery, p50/p99 (${MESSAGES} messages, embedded chains)\n`);
  console.table(rows);
  if (quantile(recorded, 0.99) > P99_BUDGET_MS) {
    console.error(`relayer p99 over the ${P99_BUDGET_MS} ms budget`);
    process.exitCode = 1;
  }
} finally {
  await service.close();
}
