import { and, count, eq } from "drizzle-orm";
import type { CityNode } from "../../../contract/platform";
import { messages } from "../../db/tables";
import { cityNodeCatalogue, cityNodeCount } from "../../kit/constant-data";
import type { CallContext, SignedInContext } from "../../http/router";

export async function listCityNodes(_input: unknown, { services }: CallContext): Promise<CityNode[]> {
  const rows = await cityNodeCatalogue(services);
  return rows.map(({ id, ...rest }) => ({ nodeId: id, ...rest }));
}

/** The console home's account summary (/g/home/index). */
export async function homeSummary(_input: unknown, { services, user }: SignedInContext) {
  const me = user;
  const [[unread], nodes] = await Promise.all([
    services.db.select({ n: count() }).from(messages).where(and(eq(messages.userId, me.id), eq(messages.status, 0))),
    cityNodeCount(services),
  ]);
  return {
    unreadMessages: unread.n,
    cityNodes: nodes,
    lastLoginAt: me.lastLoginAt ? me.lastLoginAt.toISOString() : null,
    memberSince: me.createdAt.toISOString(),
  };
}
