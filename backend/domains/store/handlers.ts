import { escapeLike } from "#backend/kit/sql.ts";
import billing from "#backend/domains/billing/index.ts";
import services from "#backend/domains/services/index.ts";
import { and, asc, count, desc, eq, ilike, inArray, sql } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { toCents } from "#contract/rules.ts";
import { VerState } from "#contract/service-status.ts";
import {
  participationOf,
  ProductStatus,
  productTransition,
  type Product,
  type ProductEvent,
  type StoreService,
} from "#contract/store.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { messages, users } from "#backend/db/tables.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import { appJoins } from "#backend/domains/participation/tables.ts";
import { appComments, appRoles, apps, appVersions } from "#backend/domains/services/tables.ts";
import { appRatings, commentUseful, follows, products, productServices } from "./tables.ts";

type Q = Db | Tx;

const me = (ctx: SignedInContext) => ctx.user;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

/**
 * A service is in the app store when it is public and its current version runs (verState 25): SPEC §2
 * "services are already running and joinable" (docs/decisions/014).
 */
export const listedCondition = () => and(eq(apps.isPublic, true), eq(appVersions.verState, VerState.RUNNING));

/** The listed service (with its running version), or "not in the app store". */
export async function listedService(q: Q, appId: number) {
  const [row] = await q
    .select({ app: apps, version: appVersions, publisher: users.userName })
    .from(apps)
    .innerJoin(appVersions, eq(appVersions.id, apps.currentVerId))
    .innerJoin(users, eq(users.id, apps.userId))
    .where(and(eq(apps.id, appId), listedCondition()));
  if (!row) throw new ApiError(Msg.SERVICE_NOT_LISTED);
  return row;
}

/** The viewer's participation in each service (§4 App participation display). */
async function participationFor(q: Q, userId: number, appIds: number[]) {
  const out = new Map<number, ReturnType<typeof participationOf>>();
  if (appIds.length === 0) return out;
  const rows = await q
    .select({ appId: appJoins.appId, auditState: appJoins.auditState, disabledAt: appJoins.disabledAt })
    .from(appJoins)
    .where(and(eq(appJoins.userId, userId), inArray(appJoins.appId, appIds)));
  for (const id of appIds) {
    out.set(
      id,
      participationOf(
        rows.filter((r) => r.appId === id).map((r) => ({ auditState: r.auditState, disabled: r.disabledAt !== null })),
      ),
    );
  }
  return out;
}

/** Whether the user is a confirmed participant (audit 15, not disabled) of the service. */
export async function isParticipant(q: Q, userId: number, appId: number) {
  const rows = await q
    .select({ id: appJoins.id })
    .from(appJoins)
    .where(
      and(
        eq(appJoins.userId, userId),
        eq(appJoins.appId, appId),
        eq(appJoins.auditState, 15),
        sql`${appJoins.disabledAt} is null`,
      ),
    )
    .limit(1);
  return rows.length > 0;
}

async function ratingsFor(q: Q, appIds: number[]) {
  if (appIds.length === 0) return new Map<number, { avg: number | null; n: number }>();
  const rows = await q
    .select({ appId: appRatings.appId, avg: sql<string | null>`avg(${appRatings.score})`, n: count() })
    .from(appRatings)
    .where(inArray(appRatings.appId, appIds))
    .groupBy(appRatings.appId);
  return new Map(
    rows.map((r) => [r.appId, { avg: r.avg === null ? null : Math.round(Number(r.avg) * 10) / 10, n: Number(r.n) }]),
  );
}

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

type ListedRow = { app: typeof apps.$inferSelect; version: typeof appVersions.$inferSelect; publisher: string };

async function storeRows(q: Q, viewerId: number, list: ListedRow[]): Promise<StoreService[]> {
  const ids = list.map((r) => r.app.id);
  const [ratings, followers, participation] = await Promise.all([
    ratingsFor(q, ids),
    followersFor(q, "app", ids),
    participationFor(q, viewerId, ids),
  ]);
  return list.map(({ app, version, publisher }) => {
    const rating = ratings.get(app.id);
    return {
      appId: app.id,
      appCode: app.appCode,
      name: app.name,
      industry: app.industry,
      description: app.description,
      publisher,
      hasCover: app.coverFileId !== null,
      publishedAt: iso(version.publishedAt),
      ratingAverage: rating?.avg ?? null,
      ratingCount: rating?.n ?? 0,
      followers: followers.get(app.id) ?? 0,
      participation: participation.get(app.id) ?? "none",
      own: app.userId === viewerId,
    };
  });
}

/** §2 App store, all services: running, public; search by name, filter by industry, newest first. */
export async function storeServices(input: Payload<"/sys/store/services">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const where = and(
    listedCondition(),
    input.name ? ilike(apps.name, `%${escapeLike(input.name)}%`) : undefined,
    input.industry ? eq(apps.industry, input.industry) : undefined,
  );
  const [{ total }] = await db
    .select({ total: count() })
    .from(apps)
    .innerJoin(appVersions, eq(appVersions.id, apps.currentVerId))
    .where(where);
  const list = await db
    .select({ app: apps, version: appVersions, publisher: users.userName })
    .from(apps)
    .innerJoin(appVersions, eq(appVersions.id, apps.currentVerId))
    .innerJoin(users, eq(users.id, apps.userId))
    .where(where)
    .orderBy(sql`${appVersions.publishedAt} desc nulls last`, desc(apps.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const rows = await storeRows(db, me(ctx).id, list);
  return { page: { rows, total, pageIndex: input.pageIndex, pageSize: input.pageSize } };
}

const COMMENTS_PER_PAGE = 20;

/** A listed service with its roles, comments (20 a page), the viewer's follow and rating. */
export async function storeService(input: Payload<"/sys/store/service">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const viewer = me(ctx);
  const row = await listedService(db, input.appId);
  const [base] = await storeRows(db, viewer.id, [row]);
  const roles = await db.select().from(appRoles).where(eq(appRoles.verId, row.version.id)).orderBy(asc(appRoles.id));
  const [{ total }] = await db.select({ total: count() }).from(appComments).where(eq(appComments.appId, row.app.id));
  const comments = await db
    .select({ c: appComments, userName: users.userName })
    .from(appComments)
    .innerJoin(users, eq(users.id, appComments.userId))
    .where(eq(appComments.appId, row.app.id))
    .orderBy(desc(appComments.createdAt), desc(appComments.id))
    .limit(COMMENTS_PER_PAGE)
    .offset((input.commentPage - 1) * COMMENTS_PER_PAGE);
  const marked = comments.length
    ? await db
        .select({ id: commentUseful.commentId })
        .from(commentUseful)
        .where(
          and(
            eq(commentUseful.userId, viewer.id),
            inArray(
              commentUseful.commentId,
              comments.map((c) => c.c.id),
            ),
          ),
        )
    : [];
  const markedIds = new Set(marked.map((m) => m.id));
  const [rating] = await db
    .select({ score: appRatings.score })
    .from(appRatings)
    .where(and(eq(appRatings.appId, row.app.id), eq(appRatings.userId, viewer.id)));
  const following = (await followingOf(db, viewer.id, "app", [row.app.id])).has(row.app.id);
  return {
    ...base,
    introduction: row.app.introduction,
    framework: row.app.framework,
    version: row.version.version,
    roles: roles.map((r) => ({ roleId: r.id, name: r.name, description: r.description })),
    comments: comments.map(({ c, userName }) => ({
      commentId: c.id,
      userName,
      text: c.text,
      reply: c.reply,
      repliedAt: iso(c.repliedAt),
      usefulCount: c.usefulCount,
      markedByMe: markedIds.has(c.id),
      createdAt: c.createdAt.toISOString(),
    })),
    commentsTotal: Number(total),
    following,
    myRating: rating?.score ?? null,
  };
}

/** Follow or unfollow a listed service or product (unfollowing is always possible). */
export async function follow(input: Payload<"/sys/store/follow">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const viewer = me(ctx);
  if (input.follow) {
    if (input.targetKind === "app") await listedService(db, input.targetId);
    else {
      const [p] = await db.select({ status: products.status }).from(products).where(eq(products.id, input.targetId));
      if (!p || p.status !== 2) throw new ApiError(Msg.PRODUCT_NOT_LISTED);
    }
    await db
      .insert(follows)
      .values({
        userId: viewer.id,
        targetKind: input.targetKind,
        targetId: input.targetId,
        createdAt: ctx.services.now(),
      })
      .onConflictDoNothing();
  } else {
    await db
      .delete(follows)
      .where(
        and(
          eq(follows.userId, viewer.id),
          eq(follows.targetKind, input.targetKind),
          eq(follows.targetId, input.targetId),
        ),
      );
  }
  const followers = (await followersFor(db, input.targetKind, [input.targetId])).get(input.targetId) ?? 0;
  return { following: input.follow, followers };
}

/** Rate a listed service 1-5: confirmed participants only; rating again replaces the score. */
export async function rate(input: Payload<"/sys/store/rate">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const viewer = me(ctx);
  const { app } = await listedService(db, input.appId);
  if (!(await isParticipant(db, viewer.id, app.id))) throw new ApiError(Msg.PARTICIPANTS_ONLY);
  const now = ctx.services.now();
  await db
    .insert(appRatings)
    .values({ appId: app.id, userId: viewer.id, score: input.score, createdAt: now })
    .onConflictDoUpdate({ target: [appRatings.appId, appRatings.userId], set: { score: input.score, createdAt: now } });
  const r = (await ratingsFor(db, [app.id])).get(app.id);
  return { ratingAverage: r?.avg ?? null, ratingCount: r?.n ?? 0 };
}

/** SPEC §7 /sys/chainAppInfo/addComment: participants of a listed service, at most 150 characters (§5). */
export async function addComment(input: Payload<"/sys/chainAppInfo/addComment">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const viewer = me(ctx);
  const { app } = await listedService(db, input.appId);
  if (!(await isParticipant(db, viewer.id, app.id))) throw new ApiError(Msg.PARTICIPANTS_ONLY);
  const [row] = await db
    .insert(appComments)
    .values({ appId: app.id, userId: viewer.id, text: input.text, createdAt: ctx.services.now() })
    .returning({ id: appComments.id });
  return { commentId: row.id };
}

/**
 * §3 "marked useful": once per user and comment, on a listed service; the mark and the comment's count
 * change in one transaction, so the count always equals the marks.
 */
export async function markUseful(input: Payload<"/sys/store/markUseful">, ctx: SignedInContext) {
  const viewer = me(ctx);
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
    const [comment] = await tx.select().from(appComments).where(eq(appComments.id, input.commentId)).for("update");
    if (!comment) throw new ApiError(Msg.NOT_FOUND);
    await listedService(tx, comment.appId);
    const inserted = await tx
      .insert(commentUseful)
      .values({ commentId: comment.id, userId: viewer.id, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: commentUseful.commentId });
    if (inserted.length === 0) throw new ApiError(Msg.ALREADY_MARKED_USEFUL);
    const [updated] = await tx
      .update(appComments)
      .set({ usefulCount: sql`${appComments.usefulCount} + 1` })
      .where(eq(appComments.id, comment.id))
      .returning({ usefulCount: appComments.usefulCount });
    return { usefulCount: updated.usefulCount };
  });
}

/** A cover image: of a listed service, of a listed product, or of the caller's own product. */
export async function cover(input: Payload<"/sys/store/cover">, ctx: SignedInContext) {
  const db = ctx.services.db;
  let fileId: number | null = null;
  if (input.kind === "app") {
    const { app } = await listedService(db, input.id);
    fileId = app.coverFileId;
  } else {
    const [p] = await db.select().from(products).where(eq(products.id, input.id));
    if (!p || (p.status !== 2 && p.userId !== me(ctx).id)) throw new ApiError(Msg.NOT_FOUND);
    fileId = p.coverFileId;
  }
  if (!fileId) throw new ApiError(Msg.NOT_FOUND);
  const file = await ctx.services.files.read(db, fileId);
  if (!file) throw new ApiError(Msg.NOT_FOUND);
  return { mime: file.mime, dataBase64: file.bytes.toString("base64") };
}

type ProductRow = typeof products.$inferSelect;

/** §1/§6: enterprise certification = an enterprise account (users.userType 2). */
const isEnterprise = (user: { userType: number }) => user.userType === 2;

async function rowsOf(
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

const withOwner = (q: Q) =>
  q.select({ p: products, owner: users.userName }).from(products).innerJoin(users, eq(users.id, products.userId));

/** §2 App store, all products: listed ones (status 2), searchable by name, filtered by type, newest listing first. */
export async function listProducts(input: Payload<"/sys/product/list">, ctx: SignedInContext) {
  const db = ctx.services.db;
  const where = and(
    eq(products.status, ProductStatus.LISTED),
    input.name ? ilike(products.name, `%${escapeLike(input.name)}%`) : undefined,
    input.productType ? eq(products.productType, input.productType) : undefined,
  );
  const [{ total }] = await db.select({ total: count() }).from(products).where(where);
  const list = await withOwner(db)
    .where(where)
    .orderBy(desc(products.listedAt), desc(products.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  return {
    page: { rows: await rowsOf(db, me(ctx).id, list), total, pageIndex: input.pageIndex, pageSize: input.pageSize },
  };
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
  return {
    page: { rows: await rowsOf(db, me(ctx).id, list), total, pageIndex: input.pageIndex, pageSize: input.pageSize },
  };
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
  const [p] = await tx
    .select()
    .from(products)
    .where(and(eq(products.id, productId), eq(products.userId, userId)))
    .for("update");
  if (!p) throw new ApiError(Msg.NOT_FOUND);
  return p;
}

function allowed(status: number, event: ProductEvent, actor: "owner" | "operator") {
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
  const now = ctx.services.now();
  const f = input.product;
  const company = f.company === "on";
  if (company && !isEnterprise(user)) throw new ApiError(Msg.ENTERPRISE_REQUIRED);
  return ctx.services.db.transaction(async (tx) => {
    // SPEC §5 Blocking by bills: unpaid bills block new products.
    if (!input.productId && (await billing.api.hasBlockingBills(tx, user.id, 1, now)))
      throw new ApiError(Msg.UNPAID_BILLS);
    const existing = input.productId ? await ownProduct(tx, user.id, input.productId) : null;
    if (existing) allowed(existing.status, "edit", "owner");
    let coverFileId = existing?.coverFileId ?? null;
    if (input.cover) {
      // An image upload (kind "cover": png/jpg by its bytes, ≤ 5 MB, checked while it arrived), the caller's own.
      const file = await ctx.services.files.claim(tx, input.cover.uploadId, {
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
  return ctx.services.db.transaction(async (tx) => {
    const p = await ownProduct(tx, user.id, input.productId);
    const to = allowed(p.status, "submit", "owner");
    // SPEC §5 Blocking by bills: publishing a product (its submission for approval) is blocked too.
    if (await billing.api.hasBlockingBills(tx, user.id, 1, ctx.services.now())) throw new ApiError(Msg.UNPAID_BILLS);
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
  const now = ctx.services.now();
  return ctx.services.db.transaction(async (tx) => {
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
      await tx.insert(messages).values({
        userId: p.userId,
        textKey: "messages.product.rejected",
        params: { name: p.name, comments },
        refKind: "product",
        refId: p.id,
        createdAt: now,
      });
      return { status: to };
    }
    if (p.company) {
      const [owner] = await tx.select({ userType: users.userType }).from(users).where(eq(users.id, p.userId));
      if (!owner || !isEnterprise(owner)) throw new ApiError(Msg.ENTERPRISE_REQUIRED);
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
    await tx.insert(messages).values({
      userId: p.userId,
      textKey: "messages.product.approved",
      params: { name: p.name },
      refKind: "product",
      refId: p.id,
      createdAt: now,
    });
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
    // SPEC §5 Blocking by bills: the service it makes is a new service.
    if (await billing.api.hasBlockingBills(tx, buyer.id, 1, now)) throw new ApiError(Msg.UNPAID_BILLS);
    // §1 Individuals cannot publish company services.
    if (p.company && !isEnterprise(buyer)) throw new ApiError(Msg.ENTERPRISE_REQUIRED);
    let coverFileId: number | null = null;
    if (p.coverFileId) coverFileId = (await ctx.services.files.copy(tx, p.coverFileId, now))?.id ?? null;
    const [app] = await tx
      .insert(apps)
      .values({
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
      })
      .returning({ id: apps.id });
    const [version] = await tx
      .insert(appVersions)
      .values({ appId: app.id, version: "1.0.0", verState: 1, wizardStep: "basic", createdAt: now, updatedAt: now })
      .returning({ id: appVersions.id });
    await tx.update(apps).set({ currentVerId: version.id }).where(eq(apps.id, app.id));
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
