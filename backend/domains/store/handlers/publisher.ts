import billing from "#backend/domains/billing/index.ts";
import services from "#backend/domains/services/index.ts";
import { and, count, desc, eq, sql } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { toCents } from "#contract/rules.ts";
import { ProductStatus, productTransition, type ProductEvent } from "#contract/store.ts";
import type { Tx } from "#backend/db/client.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import { apps } from "#backend/domains/services/tables.ts";
import { products, productServices } from "#backend/domains/store/tables.ts";
import { me, requireCertified, rowsOf, withOwner } from "./shared.ts";

/** My products: the caller's own, in every status but removed ones last. */
export async function myProducts(input: Payload<"/sys/product/mine">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const where = eq(products.userId, me(ctx).id);
  const [{ total }] = await db.select({ total: count() }).from(products).where(where);
  const list = await withOwner(db)
    .where(where)
    .orderBy(sql`${products.status} = 4`, desc(products.updatedAt), desc(products.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return {
    page: { rows: await rowsOf(db, me(ctx).id, list), total, pageIndex: input.pageIndex, pageSize: input.pageSize },
  };
}

/** The caller's own product, locked; another user's is "not found" (a user never edits another's product). */
async function ownProduct(tx: Tx, userId: number, productId: number) {
  const [p] = await tx
    .select()
    .from(products)
    .where(and(eq(products.id, productId), eq(products.userId, userId)))
    .for("update");
  if (!p) throw new ApiError(Msg.NOT_FOUND);
  return p;
}

export function allowed(status: number, event: ProductEvent, actor: "owner" | "operator") {
  const to = productTransition(status, event, actor);
  if (to === null) throw new ApiError(Msg.PRODUCT_ACTION_NOT_ALLOWED);
  return to;
}

/**
 * Create (no productId) or edit a product of the caller's, in status 0 or 3 (§4). A company product needs
 * an enterprise account (§1, §6). The cover is an image upload (png/jpg, 5 MB), checked on its bytes as it arrived.
 */
export async function saveProduct(input: Payload<"/sys/product/save">, ctx: SignedInContext) {
  const user = me(ctx);
  const now = ctx.deps.now();
  const f = input.product;
  const company = f.company === "on";
  if (company) await requireCertified(ctx.deps.db, user.id);
  return ctx.deps.db.transaction(async (tx) => {
    // SPEC §5 Blocking by bills: unpaid bills block new products.
    if (!input.productId && (await billing.api.hasBlockingBills(tx, user.id, 1, now)))
      throw new ApiError(Msg.UNPAID_BILLS);
    const existing = input.productId ? await ownProduct(tx, user.id, input.productId) : null;
    if (existing) allowed(existing.status, "edit", "owner");
    let coverFileId = existing?.coverFileId ?? null;
    if (input.cover) {
      // An image upload (kind "cover": png/jpg by its bytes, ≤ 5 MB, checked while it arrived), the caller's own.
      const file = await ctx.deps.files.claim(tx, input.cover.uploadId, {
        kind: "cover",
        ownerId: user.id,
        at: now,
      });
      if (!file) throw fieldError("cover", `errors:${Msg.UPLOAD_FAILED}`, Msg.UPLOAD_FAILED);
      coverFileId = file.id;
    }
    const fields = {
      name: f.name,
      productType: Number(f.productType),
      brief: f.brief,
      description: f.description,
      suggestedPriceCents: toCents(f.suggestedPrice),
      payMode: Number(f.payMode),
      company,
      coverFileId,
      updatedAt: now,
    };
    if (existing) {
      await tx.update(products).set(fields).where(eq(products.id, existing.id));
      return { productId: existing.id };
    }
    const [created] = await tx
      .insert(products)
      .values({ ...fields, userId: user.id, status: ProductStatus.PENDING_SUBMIT, createdAt: now })
      .returning({ id: products.id });
    return { productId: created.id };
  });
}

/** 0 or 3 → 1 pending approval (the owner); a company product still needs an enterprise account. */
export async function submitProduct(input: Payload<"/sys/product/submit">, ctx: SignedInContext) {
  const user = me(ctx);
  return ctx.deps.db.transaction(async (tx) => {
    const p = await ownProduct(tx, user.id, input.productId);
    const to = allowed(p.status, "submit", "owner");
    // SPEC §5 Blocking by bills: publishing a product (its submission for approval) is blocked too.
    if (await billing.api.hasBlockingBills(tx, user.id, 1, ctx.deps.now())) throw new ApiError(Msg.UNPAID_BILLS);
    if (p.company) await requireCertified(tx, user.id);
    await tx.update(products).set({ status: to, updatedAt: ctx.deps.now() }).where(eq(products.id, p.id));
    return { status: to };
  });
}

/** 2 → 4 removed from the store (the owner). */
export async function removeProduct(input: Payload<"/sys/product/remove">, ctx: SignedInContext) {
  const user = me(ctx);
  return ctx.deps.db.transaction(async (tx) => {
    const p = await ownProduct(tx, user.id, input.productId);
    const to = allowed(p.status, "remove", "owner");
    await tx.update(products).set({ status: to, updatedAt: ctx.deps.now() }).where(eq(products.id, p.id));
    return { status: to };
  });
}

/** A service name like the product's that no service has yet (names are unique, case-insensitive). */
async function freeServiceName(tx: Tx, base: string) {
  const trimmed = base.trim().slice(0, 50);
  for (let n = 1; n <= 50; n++) {
    const suffix = n === 1 ? "" : ` (${n})`;
    const name = `${trimmed.slice(0, 50 - suffix.length)}${suffix}`;
    const taken = await tx
      .select({ id: apps.id })
      .from(apps)
      .where(sql`lower(${apps.name}) = lower(${name})`)
      .limit(1);
    if (taken.length === 0) return name;
  }
  const suffix = ` ${services.api.newAppCode().slice(3, 9)}`;
  return `${trimmed.slice(0, 50 - suffix.length)}${suffix}`;
}

/**
 * SPEC §1 "When a buyer publishes a product it becomes a service and the buyer becomes its publisher": a
 * new service draft of the caller's (an apps row with one version in verState 1, at the wizard's basic
 * step), prefilled from the listed product: a unique name, the brief as description, the description as
 * introduction, the cover copied as a new file, the buyer's contact details. Industry, framework and the
 * rest are chosen in the wizard. Nothing is charged now (docs/decisions/014): the service's publish bill
 * is paid through the normal lifecycle. The form key makes a double submission one draft.
 */
export async function publishProduct(input: Payload<"/sys/product/publish">, ctx: SignedInContext) {
  const buyer = me(ctx);
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    // Serialises the buyer's submissions of this product, so the key check below sees the first one.
    const [p] = await tx.select().from(products).where(eq(products.id, input.productId)).for("update");
    const [done] = await tx
      .select({ appId: productServices.appId })
      .from(productServices)
      .where(and(eq(productServices.userId, buyer.id), eq(productServices.idempotencyKey, input.idempotencyKey)));
    if (done) return { appId: done.appId, replayed: true };
    if (!p || p.status !== ProductStatus.LISTED) throw new ApiError(Msg.PRODUCT_NOT_LISTED);
    // SPEC §5 Blocking by bills: the service it makes is a new service.
    if (await billing.api.hasBlockingBills(tx, buyer.id, 1, now)) throw new ApiError(Msg.UNPAID_BILLS);
    // §1 Individuals cannot publish company services.
    if (p.company) await requireCertified(tx, buyer.id);
    let coverFileId: number | null = null;
    if (p.coverFileId) coverFileId = (await ctx.deps.files.copy(tx, p.coverFileId, now))?.id ?? null;
    const { app } = await services.api.createDraft(
      tx,
      {
        appCode: services.api.newAppCode(),
        userId: buyer.id,
        name: await freeServiceName(tx, p.name),
        description: p.brief.slice(0, 200),
        introduction: p.description.slice(0, 2000),
        coverFileId,
        contactName: buyer.contactName ?? buyer.realName,
        contactMobile: buyer.mobile ?? "",
        contactEmail: buyer.email,
        createdAt: now,
        updatedAt: now,
      },
      { version: "1.0.0", verState: 1, wizardStep: "basic" },
      now,
    );
    await tx.insert(productServices).values({
      productId: p.id,
      appId: app.id,
      userId: buyer.id,
      idempotencyKey: input.idempotencyKey,
      createdAt: now,
    });
    return { appId: app.id, replayed: false };
  });
}
