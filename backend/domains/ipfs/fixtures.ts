import { eq } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload } from "#backend/http/router.ts";
import { ipfsServices } from "./tables.ts";
import { ownService, type Ctx } from "./handlers/shared.ts";

/** Tests only: a service's capacity in bytes. */
export async function setCapacityFixture(input: Payload<"/test/ipfs/capacity">, ctx: Ctx) {
  if (!ctx.deps.env.testFixtures) throw new ApiError(Msg.NOT_FOUND);
  const service = await ownService(ctx.deps.db, ctx.user.id, input.ipfsServiceId);
  await ctx.deps.db
    .update(ipfsServices)
    .set({ capacityBytes: input.capacityBytes })
    .where(eq(ipfsServices.id, service.id));
  return { ipfsServiceId: service.id, capacityBytes: input.capacityBytes };
}
