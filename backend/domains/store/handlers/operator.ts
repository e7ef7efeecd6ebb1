import { count, eq } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { ProductStatus } from "#contract/store.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import { products } from "#backend/domains/store/tables.ts";
import { me, requireCertified, rowsOf, withOwner } from "./shared.ts";
import { allowed } from "./publisher.ts";
import inbox from "#backend/domains/inbox/index.ts";

/** Products waiting for approval (status 1), oldest first (operators only). */
export async function opsProducts(input: Payload<"/sys/ops/products/list">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const where = eq(products.status, ProductStatus.PENDING_APPROVAL);
  const [{ total }] = await db.select({ total: count() }).from(products).where(where);
  const list = await withOwner(db)
    .where(where)
    .orderBy(products.updatedAt, products.id)
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return {
    page: { rows: await rowsOf(db, me(ctx).id, list), total, pageIndex: input.pageIndex, pageSize: input.pageSize },
  };
}

/**
 * The operator approves (1 → 2, listed now) or rejects with comments (1 → 3, editable again); the owner
 * gets a message either way. Approving a company product re-checks the owner's enterprise account.
 */
export async function decideProduct(input: Payload<"/sys/ops/products/decide">, ctx: SignedInContext) {
  const operator = me(ctx);
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    const [p] = await tx.select().from(products).where(eq(products.id, input.productId)).for("update");
    if (!p) throw new ApiError(Msg.NOT_FOUND);
    if (p.status !== ProductStatus.PENDING_APPROVAL) throw new ApiError(Msg.ALREADY_REVIEWED);
    const comments = input.comments?.trim() || null;
    if (input.decision === "reject") {
      if (!comments) throw new ApiError(Msg.COMMENTS_REQUIRED);
      const to = allowed(p.status, "reject", "operator");
      await tx
        .update(products)
        .set({ status: to, reviewedBy: operator.id, reviewedAt: now, reviewComments: comments, updatedAt: now })
        .where(eq(products.id, p.id));
      await inbox.api.notify(tx, {
        userId: p.userId,
        textKey: "messages.product.rejected",
        params: { name: p.name, comments },
        ref: { kind: "product", id: p.id },
        at: now,
      });
      return { status: to };
    }
    if (p.company) {
      await requireCertified(tx, p.userId);
    }
    const to = allowed(p.status, "approve", "operator");
    await tx
      .update(products)
      .set({
        status: to,
        listedAt: now,
        reviewedBy: operator.id,
        reviewedAt: now,
        reviewComments: comments,
        updatedAt: now,
      })
      .where(eq(products.id, p.id));
    await inbox.api.notify(tx, {
      userId: p.userId,
      textKey: "messages.product.approved",
      params: { name: p.name },
      ref: { kind: "product", id: p.id },
      at: now,
    });
    return { status: to };
  });
}
