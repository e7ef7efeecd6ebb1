import { and, count, eq, sql } from "drizzle-orm";
import { MessageStatus } from "#contract/message-codes.ts";
import type { z } from "zod";
import type { CityNode, desktopLinkPayloadSchema } from "#contract/platform.ts";
import { messages } from "#backend/db/tables.ts";
import { cityNodeCatalogue, cityNodeCount } from "#backend/kit/constant-data.ts";
import type { CallContext, SignedInContext } from "#backend/http/router.ts";
import type { Db } from "#backend/db/client.ts";
import { preparedPerDb } from "#backend/kit/sql.ts";

export async function listCityNodes(_input: unknown, { deps }: CallContext): Promise<CityNode[]> {
  const rows = await cityNodeCatalogue(deps);
  return rows.map(({ id, ...rest }) => ({ nodeId: id, ...rest }));
}

/** A user's unread messages: every console page asks (the shell's badge). */
const unreadCount = preparedPerDb((db: Db) =>
  db
    .select({ n: count() })
    .from(messages)
    .where(and(eq(messages.userId, sql.placeholder("userId")), eq(messages.status, MessageStatus.UNREAD)))
    .prepare("home_unread_count"),
);

/** The console home's account summary (/g/home/index). */
export async function homeSummary(_input: unknown, { deps, user }: SignedInContext) {
  const me = user;
  const [[unread], nodes] = await Promise.all([unreadCount(deps.db).execute({ userId: me.id }), cityNodeCount(deps)]);
  return {
    unreadMessages: unread.n,
    cityNodes: nodes,
    lastLoginAt: me.lastLoginAt ? me.lastLoginAt.toISOString() : null,
    memberSince: me.createdAt.toISOString(),
  };
}

/**
 * /anon/platform/desktopLink: mails a console page's link to open on a desktop (the desktop-only page on a
 * phone, SPEC §2). The mail limits apply (3 a quarter-hour per recipient from one caller, 10 an hour per caller: a 429).
 */
export async function mailDesktopLink(
  input: z.output<typeof desktopLinkPayloadSchema>,
  { deps, language, clientAddress }: CallContext,
) {
  const permit = await deps.limits.mailPermit("desktopLink", input.email, clientAddress);
  await deps.mailer.send(permit, "desktopLink", language, { link: `${deps.env.publicUrl}${input.path}` });
  return null;
}
