import { and, count, desc, eq, ilike, inArray, sql } from "drizzle-orm";
import { Msg } from "../../../contract/messages";
import { toCents } from "../../../contract/rules";
import { coverProblem } from "../../../contract/service-wizard";
import { productTransition, ProductStatus, type Product, type ProductEvent } from "../../../contract/store";
import type { Db, Tx } from "../../db/client";
import { apps, appVersions } from "../services/tables";
import { files, messages, users } from "../../db/tables";
import { products, productServices } from "./tables";
import { ApiError, fieldError } from "../../http/errors";
import type { SignedInContext, Payload } from "../../http/router";
import { newAppCode } from "../services/build";
import { escapeLike, followersFor, followingOf } from "./listing";

type Q = Db | Tx;
type ProductRow = typeof products.$inferSelect;

const me = (ctx: SignedInContext) => ctx.user;
const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);
/** §1/§6: enterprise certification = an enterprise account (users.userType 2). */
const isEnterprise = (user: { userType: number }) => user.userType === 2;

async function rowsOf(q: Q, viewerId: number, list: { p: ProductRow; owner: string }[], withServices = false): Promise<Product[]> {
  const ids = list.map((r) => r.p.id);
  const [followers, following] = await Promise.all([followersFor(q, "product", ids), followingOf(q, viewerId, "product", ids)]);
  const mine =
    withServices && ids.length
      ? await q
          .select({ productId: productServices.productId, appId: apps.id, name: apps.name })
          .from(productServices)
          .innerJoin(apps, eq(apps.id, productServices.appId))
          .where(and(eq(productServices.userId, viewerId), eq(apps.userId, viewerId), inArray(productServices.productId, ids)))
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

const withOwner = (q: Q) => q.select({ p: products, owner: users.userName }).from(products).innerJoin(users, eq(users.id, products.userId));

/** §2 App store, all products: listed ones (status 2), searchable by name, filtered by type, newest listing first. */
export async function listProducts(input: Payload<"/sys/product/list">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const where = and(
    eq(products.status, ProductStatus.LISTED),
    input.name ? ilike(products.name, `%${escapeLike(input.name)}%`) : undefined,
    input.productType ? eq(products.productType, input.productType) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(products).where(where);
  const list = await withOwner(db).where(where).orderBy(desc(products.listedAt), desc(products.id)).limit(input.pageSize).offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: await rowsOf(db, me(ctx).id, list), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** My products: the caller's own, in every status but removed ones last. */
export async function myProducts(input: Payload<"/sys/product/mine">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const where = eq(products.userId, me(ctx).id);
  const [{ total }] = await db.select({ total: count() }).from(products).where(where);
  const list = await withOwner(db)
    .where(where)
    .orderBy(sql`${products.status} = 4`, desc(products.updatedAt), desc(products.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: await rowsOf(db, me(ctx).id, list), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/** A listed product, or one of the caller's own in any status (another's unlisted product is "not found"). */
export async function productDetail(input: Payload<"/sys/product/detail">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const [row] = await withOwner(db).where(eq(products.id, input.productId));
  if (!row || (row.p.status !== ProductStatus.LISTED && row.p.userId !== me(ctx).id)) throw new ApiError(Msg.NOT_FOUND);
  const [product] = await rowsOf(db, me(ctx).id, [row], true);
  return product;
}

/** The caller's own product, locked; another user's is "not found" (a user never edits another's product). */
async function ownProduct(tx: Tx, userId: number, productId: number) {
  const [p] = await tx.select().from(products).where(and(eq(products.id, productId), eq(products.userId, userId))).for("update");
  if (!p) throw new ApiError(Msg.NOT_FOUND);
  return p;
}

function allowed(status: number, event: ProductEvent, actor: "owner" | "operator") {
  const to = productTransition(status, event, actor);
  if (to === null) throw new ApiError(Msg.PRODUCT_ACTION_NOT_ALLOWED);
  return to;
}

function sniffImage(bytes: Buffer): "image/png" | "image/jpeg" | null {
  if (bytes.length >= 8 && bytes.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))) return "image/png";
  if (bytes.length >= 3 && bytes[0] === 0xff && bytes[1] === 0xd8 && bytes[2] === 0xff) return "image/jpeg";
  return null;
}

/**
 * Create (no productId) or edit a product of the caller's, in status 0 or 3 (§4). A company product needs
 * an enterprise account (§1, §6). The cover (png/jpg, 5 MB) is checked on its bytes.
 */
export async function saveProduct(input: Payload<"/sys/product/save">, ctx: SignedInContext) {
  const user = me(ctx);
  const now = ctx.services.now();
  const f = input.product;
  const company = f.company === "on";
  if (company && !isEnterprise(user)) throw new ApiError(Msg.ENTERPRISE_REQUIRED);
  let coverBytes: { bytes: Buffer; mime: string; name: string } | null = null;
  if (input.cover) {
    const bytes = Buffer.from(input.cover.dataBase64, "base64");
    const problem = coverProblem({ name: input.cover.name, size: bytes.byteLength });
    if (problem) throw fieldError("cover", problem, problem.includes("Type") ? Msg.FILE_TYPE_WRONG : Msg.INVALID_PARAMS);
    const mime = sniffImage(bytes);
    if (!mime) throw fieldError("cover", "wizard:validation.file.coverType", Msg.FILE_TYPE_WRONG);
    coverBytes = { bytes, mime, name: input.cover.name };
  }
  return ctx.services.db.transaction(async (tx) => {
    const existing = input.productId ? await ownProduct(tx, user.id, input.productId) : null;
    if (existing) allowed(existing.status, "edit", "owner");
    let coverFileId = existing?.coverFileId ?? null;
    if (coverBytes) {
      const [file] = await tx.insert(files).values({ name: coverBytes.name, mime: coverBytes.mime, size: coverBytes.bytes.byteLength, bytes: coverBytes.bytes, createdAt: now }).returning({ id: files.id });
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
    const [created] = await tx.insert(products).values({ ...fields, userId: user.id, status: ProductStatus.PENDING_SUBMIT, createdAt: now }).returning({ id: products.id });
    return { productId: created.id };
  });
}

/** 0 or 3 → 1 pending approval (the owner); a company product still needs an enterprise account. */
export async function submitProduct(input: Payload<"/sys/product/submit">, ctx: SignedInContext) {
  const user = me(ctx);
  return ctx.services.db.transaction(async (tx) => {
    const p = await ownProduct(tx, user.id, input.productId);
    const to = allowed(p.status, "submit", "owner");
    if (p.company && !isEnterprise(user)) throw new ApiError(Msg.ENTERPRISE_REQUIRED);
    await tx.update(products).set({ status: to, updatedAt: ctx.services.now() }).where(eq(products.id, p.id));
    return { status: to };
  });
}

/** 2 → 4 removed from the store (the owner). */
export async function removeProduct(input: Payload<"/sys/product/remove">, ctx: SignedInContext) {
  const user = me(ctx);
  return ctx.services.db.transaction(async (tx) => {
    const p = await ownProduct(tx, user.id, input.productId);
    const to = allowed(p.status, "remove", "owner");
    await tx.update(products).set({ status: to, updatedAt: ctx.services.now() }).where(eq(products.id, p.id));
    return { status: to };
  });
}

/** Products waiting for approval (status 1), oldest first (operators only). */
export async function opsProducts(input: Payload<"/sys/ops/products/list">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const where = eq(products.status, ProductStatus.PENDING_APPROVAL);
  const [{ total }] = await db.select({ total: count() }).from(products).where(where);
  const list = await withOwner(db).where(where).orderBy(products.updatedAt, products.id).limit(input.pageSize).offset((input.pageIndex - 1) * input.pageSize);
  return { page: { rows: await rowsOf(db, me(ctx).id, list), total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

/**
 * The operator approves (1 → 2, listed now) or rejects with comments (1 → 3, editable again); the owner
 * gets a message either way. Approving a company product re-checks the owner's enterprise account.
 */
export async function decideProduct(input: Payload<"/sys/ops/products/decide">, ctx: SignedInContext) {
  const operator = me(ctx);
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const [p] = await tx.select().from(products).where(eq(products.id, input.productId)).for("update");
    if (!p) throw new ApiError(Msg.NOT_FOUND);
    if (p.status !== ProductStatus.PENDING_APPROVAL) throw new ApiError(Msg.ALREADY_REVIEWED);
    const comments = input.comments?.trim() || null;
    if (input.decision === "reject") {
      if (!comments) throw new ApiError(Msg.COMMENTS_REQUIRED);
      const to = allowed(p.status, "reject", "operator");
      await tx.update(products).set({ status: to, reviewedBy: operator.id, reviewedAt: now, reviewComments: comments, updatedAt: now }).where(eq(products.id, p.id));
      await tx.insert(messages).values({ userId: p.userId, textKey: "messages.product.rejected", params: { name: p.name, comments }, createdAt: now });
      return { status: to };
    }
    if (p.company) {
      const [owner] = await tx.select({ userType: users.userType }).from(users).where(eq(users.id, p.userId));
      if (!owner || !isEnterprise(owner)) throw new ApiError(Msg.ENTERPRISE_REQUIRED);
    }
    const to = allowed(p.status, "approve", "operator");
    await tx.update(products).set({ status: to, listedAt: now, reviewedBy: operator.id, reviewedAt: now, reviewComments: comments, updatedAt: now }).where(eq(products.id, p.id));
    await tx.insert(messages).values({ userId: p.userId, textKey: "messages.product.approved", params: { name: p.name }, createdAt: now });
    return { status: to };
  });
}

/** A service name like the product's that no service has yet (names are unique, case-insensitive). */
async function freeServiceName(tx: Tx, base: string) {
  const trimmed = base.trim().slice(0, 50);
  for (let n = 1; n <= 50; n++) {
    const suffix = n === 1 ? "" : ` (${n})`;
    const name = `${trimmed.slice(0, 50 - suffix.length)}${suffix}`;
    const taken = await tx.select({ id: apps.id }).from(apps).where(sql`lower(${apps.name}) = lower(${name})`).limit(1);
    if (taken.length === 0) return name;
  }
  const suffix = ` ${newAppCode().slice(3, 9)}`;
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
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    // Serialises the buyer's submissions of this product, so the key check below sees the first one.
    const [p] = await tx.select().from(products).where(eq(products.id, input.productId)).for("update");
    const [done] = await tx
      .select({ appId: productServices.appId })
      .from(productServices)
      .where(and(eq(productServices.userId, buyer.id), eq(productServices.idempotencyKey, input.idempotencyKey)));
    if (done) return { appId: done.appId, replayed: true };
    if (!p || p.status !== ProductStatus.LISTED) throw new ApiError(Msg.PRODUCT_NOT_LISTED);
    // §1 Individuals cannot publish company services.
    if (p.company && !isEnterprise(buyer)) throw new ApiError(Msg.ENTERPRISE_REQUIRED);
    let coverFileId: number | null = null;
    if (p.coverFileId) {
      const [file] = await tx.select().from(files).where(eq(files.id, p.coverFileId));
      if (file) {
        const [copy] = await tx.insert(files).values({ name: file.name, mime: file.mime, size: file.size, bytes: file.bytes, createdAt: now }).returning({ id: files.id });
        coverFileId = copy.id;
      }
    }
    const [app] = await tx
      .insert(apps)
      .values({
        appCode: newAppCode(),
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
      })
      .returning({ id: apps.id });
    const [version] = await tx.insert(appVersions).values({ appId: app.id, version: "1.0.0", verState: 1, wizardStep: "basic", createdAt: now, updatedAt: now }).returning({ id: appVersions.id });
    await tx.update(apps).set({ currentVerId: version.id }).where(eq(apps.id, app.id));
    await tx.insert(productServices).values({ productId: p.id, appId: app.id, userId: buyer.id, idempotencyKey: input.idempotencyKey, createdAt: now });
    return { appId: app.id, replayed: false };
  });
}
