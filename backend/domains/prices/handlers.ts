import { count, desc, eq } from "drizzle-orm";
import type { z } from "zod";
import { Msg } from "#contract/messages.ts";
import { PRICE_AREA_NAMES, PRICE_AREAS, type pricePaths } from "#contract/prices.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { AREA_STORES } from "./areas.ts";
import { priceChanges } from "./tables.ts";

type Payload<P extends keyof typeof pricePaths> = z.output<(typeof pricePaths)[P]["payload"]>;

export async function listPrices(_input: unknown, { deps }: SignedInContext) {
  const areas = [];
  for (const area of PRICE_AREA_NAMES) areas.push({ area, items: await AREA_STORES[area].items(deps.db) });
  return { areas };
}

export async function priceHistory(input: Payload<"/sys/ops/prices/history">, { deps }: SignedInContext) {
  const [{ total }] = await deps.db.select({ total: count() }).from(priceChanges);
  const rows = await deps.db
    .select({ c: priceChanges, author: users.userName })
    .from(priceChanges)
    .innerJoin(users, eq(users.id, priceChanges.authorId))
    .orderBy(desc(priceChanges.createdAt), desc(priceChanges.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const names = new Map<string, { name: string; nameZh: string }>();
  for (const area of new Set(rows.map((r) => r.c.area))) {
    const store = AREA_STORES[area as keyof typeof AREA_STORES];
    for (const item of store ? await store.items(deps.db) : []) names.set(`${area}:${item.itemId}`, item);
  }
  return {
    page: {
      rows: rows.map(({ c, author }) => ({
        changeId: c.id,
        area: c.area,
        itemId: c.itemId,
        itemName: names.get(`${c.area}:${c.itemId}`)?.name ?? String(c.itemId),
        itemNameZh: names.get(`${c.area}:${c.itemId}`)?.nameZh ?? String(c.itemId),
        field: c.field,
        oldCents: c.oldCents,
        newCents: c.newCents,
        author,
        createdAt: c.createdAt.toISOString(),
      })),
      total,
      pageIndex: input.pageIndex,
      pageSize: input.pageSize,
    },
  };
}

/**
 * Sets an item's prices: a field of another area, or an item that does not exist, is MSG_44009; only the
 * fields that change are written, each recorded with its author and time, in one transaction. Orders and
 * renewals read the catalogue when they are made, so bills already made keep their amounts.
 */
export async function setPrices(input: Payload<"/sys/ops/prices/set">, { deps, user }: SignedInContext) {
  const fields = PRICE_AREAS[input.area] as readonly string[];
  if (Object.keys(input.prices).some((f) => !fields.includes(f))) throw new ApiError(Msg.PRICE_ITEM_UNKNOWN);
  const now = deps.now();
  const store = AREA_STORES[input.area];
  const changed = await deps.db.transaction(async (tx) => {
    const current = await store.lock(tx, input.itemId);
    if (!current) throw new ApiError(Msg.PRICE_ITEM_UNKNOWN);
    const changes = Object.entries(input.prices).filter(
      (e): e is [string, number] => e[1] !== undefined && current[e[0]] !== e[1],
    );
    if (changes.length === 0) return 0;
    await store.write(tx, input.itemId, Object.fromEntries(changes));
    await tx.insert(priceChanges).values(
      changes.map(([field, cents]) => ({
        area: input.area,
        itemId: input.itemId,
        field,
        oldCents: current[field],
        newCents: cents,
        authorId: user.id,
        createdAt: now,
      })),
    );
    return changes.length;
  });
  if (changed > 0) {
    // The catalogue kept per process (docs/decisions/030) is read again by the next request.
    deps.constants.clear();
  }
  return { changed };
}
