import { and, count, eq, inArray } from "drizzle-orm";
import { type Product } from "#contract/store.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import type { SignedInContext } from "#backend/http/router.ts";
import { ApiError } from "#backend/http/errors.ts";
import accounts from "#backend/domains/accounts/index.ts";
import { apps } from "#backend/domains/services/tables.ts";
import { follows, products, productServices } from "#backend/domains/store/tables.ts";

export type Q = Db | Tx;

export const me = (ctx: SignedInContext) => ctx.user;

export const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

type ProductRow = typeof products.$inferSelect;

/**
 * §1/§6: enterprise certification = an enterprise account whose certification an operator approved
 * (docs/decisions/071). Throws the refusal: MSG_40001 for an individual, MSG_49001 while pending or rejected.
 */
export async function requireCertified(db: Q, userId: number): Promise<void> {
  const refusal = await accounts.api.companyFeatureRefusal(db, userId);
  if (refusal) throw new ApiError(refusal);
}

export async function rowsOf(
  q: Q,
  viewerId: number,
  list: { p: ProductRow; owner: string }[],
  withServices = false,
): Promise<Product[]> {
  const ids = list.map((r) => r.p.id);
  const [followers, following] = await Promise.all([
    followersFor(q, "product", ids),
    followingOf(q, viewerId, "product", ids),
  ]);
  const mine =
    withServices && ids.length
      ? await q
          .select({ productId: productServices.productId, appId: apps.id, name: apps.name })
          .from(productServices)
          .innerJoin(apps, eq(apps.id, productServices.appId))
          .where(
            and(
              eq(productServices.userId, viewerId),
              eq(apps.userId, viewerId),
              inArray(productServices.productId, ids),
            ),
          )
      : [];
  return list.map(({ p, owner }) => ({
    productId: p.id,
    name: p.name,
    productType: p.productType,
    hasCover: p.coverFileId !== null,
    brief: p.brief,
    description: p.description,
    suggestedPriceCents: p.suggestedPriceCents,
    payMode: p.payMode,
    company: p.company,
    status: p.status,
    listedAt: iso(p.listedAt),
    followers: followers.get(p.id) ?? 0,
    owner,
    own: p.userId === viewerId,
    following: following.has(p.id),
    createdAt: p.createdAt.toISOString(),
    // The review outcome is the owner's business only.
    reviewedAt: p.userId === viewerId ? iso(p.reviewedAt) : null,
    reviewComments: p.userId === viewerId ? p.reviewComments : null,
    myServices: mine.filter((m) => m.productId === p.id).map((m) => ({ appId: m.appId, name: m.name })),
  }));
}

export const withOwner = (q: Q) =>
  q.select({ p: products, owner: users.userName }).from(products).innerJoin(users, eq(users.id, products.userId));

export async function followersFor(q: Q, kind: "app" | "product", ids: number[]) {
  if (ids.length === 0) return new Map<number, number>();
  const rows = await q
    .select({ id: follows.targetId, n: count() })
    .from(follows)
    .where(and(eq(follows.targetKind, kind), inArray(follows.targetId, ids)))
    .groupBy(follows.targetId);
  return new Map(rows.map((r) => [r.id, Number(r.n)]));
}

export async function followingOf(q: Q, userId: number, kind: "app" | "product", ids: number[]) {
  if (ids.length === 0) return new Set<number>();
  const rows = await q
    .select({ id: follows.targetId })
    .from(follows)
    .where(and(eq(follows.userId, userId), eq(follows.targetKind, kind), inArray(follows.targetId, ids)));
  return new Set(rows.map((r) => r.id));
}
