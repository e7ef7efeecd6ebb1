import { createHash } from "node:crypto";
import { CrossCallStatus, CrossProtocol } from "#contract/cross-chain.ts";
import { Msg } from "#contract/messages.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { crossChainCalls } from "./tables.ts";
import { callView, chainOf, ownApp, type Ctx } from "./handlers/shared.ts";

/** Tests only (TEST_FIXTURES=1): a delivered call record of the caller's service, with made-up hashes and no chain. */
export async function callFixture(input: Payload<"/test/crossChain/call">, ctx: Ctx) {
  const deps = ctx.deps;
  if (!deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const app = await ownApp(deps.db, ctx.user.id, input.appId);
  const own = await chainOf(deps.db, app.id);
  const now = deps.now();
  const hash = () => `0x${createHash("sha256").update(`${app.id}:${now.getTime()}:${Math.random()}`).digest("hex")}`;
  const [row] = await deps.db
    .insert(crossChainCalls)
    .values({
      appId: app.id,
      userId: app.userId,
      protocol: app.crossProtocol ?? CrossProtocol.ENTERPRISE,
      kind: "message",
      sourceChain: own?.chainName ?? `fixture-${app.id}`,
      sourceChainId: own?.chainId ?? 0,
      sourceContract: "0x0000000000000000000000000000000000000000",
      sequence: now.getTime() * 1000 + Math.floor(Math.random() * 1000),
      sender: "0x0000000000000000000000000000000000000000",
      targetChain: "open-alliance",
      targetChainId: 0,
      targetAddress: "0x0000000000000000000000000000000000000000",
      data: "0x",
      status: CrossCallStatus.SUCCESS,
      sourceTxHash: hash(),
      sourceBlock: 0,
      targetTxHash: hash(),
      attempts: 1,
      nextAttemptAt: now,
      createdAt: now,
      deliveredAt: now,
    })
    .returning();
  return callView(row!);
}
