import services from "#backend/domains/services/index.ts";
import { escapeLike } from "#backend/kit/sql.ts";
import { and, asc, count, desc, eq, ilike, inArray, sql } from "drizzle-orm";
import { Msg } from "#contract/messages.ts";
import { AuditState } from "#contract/participation-codes.ts";
import { VerState } from "#contract/service-status.ts";
import { participationOf, ProductStatus, type StoreService } from "#contract/store.ts";
import { users } from "#backend/db/tables.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { DownloadInput, Payload, SignedInContext } from "#backend/http/router.ts";
import { appJoins } from "#backend/domains/participation/tables.ts";
import { appComments, appRoles, apps, appVersions } from "#backend/domains/services/tables.ts";
import { appRatings, commentUseful, follows, products } from "#backend/domains/store/tables.ts";
import { type Q, me, iso, rowsOf, withOwner, followersFor, followingOf } from "./shared.ts";

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
        eq(appJoins.auditState, AuditState.CONFIRMED),
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
  const db = ctx.deps.db;
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
  const db = ctx.deps.db;
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
  const db = ctx.deps.db;
  const viewer = me(ctx);
  if (input.follow) {
    if (input.targetKind === "app") await listedService(db, input.targetId);
    else {
      const [p] = await db.select({ status: products.status }).from(products).where(eq(products.id, input.targetId));
      if (!p || p.status !== ProductStatus.LISTED) throw new ApiError(Msg.PRODUCT_NOT_LISTED);
    }
    await db
      .insert(follows)
      .values({
        userId: viewer.id,
        targetKind: input.targetKind,
        targetId: input.targetId,
        createdAt: ctx.deps.now(),
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
  const db = ctx.deps.db;
  const viewer = me(ctx);
  const { app } = await listedService(db, input.appId);
  if (!(await isParticipant(db, viewer.id, app.id))) throw new ApiError(Msg.PARTICIPANTS_ONLY);
  const now = ctx.deps.now();
  await db
    .insert(appRatings)
    .values({ appId: app.id, userId: viewer.id, score: input.score, createdAt: now })
    .onConflictDoUpdate({ target: [appRatings.appId, appRatings.userId], set: { score: input.score, createdAt: now } });
  const r = (await ratingsFor(db, [app.id])).get(app.id);
  return { ratingAverage: r?.avg ?? null, ratingCount: r?.n ?? 0 };
}

/** SPEC §7 /sys/chainAppInfo/addComment: participants of a listed service, at most 150 characters (§5). */
export async function addComment(input: Payload<"/sys/chainAppInfo/addComment">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const viewer = me(ctx);
  const { app } = await listedService(db, input.appId);
  if (!(await isParticipant(db, viewer.id, app.id))) throw new ApiError(Msg.PARTICIPANTS_ONLY);
  const row = await services.api.addServiceComment(db, {
    appId: app.id,
    userId: viewer.id,
    text: input.text,
    createdAt: ctx.deps.now(),
  });
  return { commentId: row.id };
}

/**
 * §3 "marked useful": once per user and comment, on a listed service; the mark and the comment's count
 * change in one transaction, so the count always equals the marks.
 */
export async function markUseful(input: Payload<"/sys/store/markUseful">, ctx: SignedInContext) {
  const viewer = me(ctx);
  const now = ctx.deps.now();
  return ctx.deps.db.transaction(async (tx) => {
    const [comment] = await tx.select().from(appComments).where(eq(appComments.id, input.commentId)).for("update");
    if (!comment) throw new ApiError(Msg.NOT_FOUND);
    await listedService(tx, comment.appId);
    const inserted = await tx
      .insert(commentUseful)
      .values({ commentId: comment.id, userId: viewer.id, createdAt: now })
      .onConflictDoNothing()
      .returning({ id: commentUseful.commentId });
    if (inserted.length === 0) throw new ApiError(Msg.ALREADY_MARKED_USEFUL);
    const updated = await services.api.countCommentUseful(tx, comment.id);
    return { usefulCount: updated.usefulCount };
  });
}

/** A cover image: of a listed service, of a listed product, or of the caller's own product. */
export async function cover(input: DownloadInput<"store-cover">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  let fileId: number | null = null;
  if (input.kind === "app") {
    const { app } = await listedService(db, input.id);
    fileId = app.coverFileId;
  } else {
    const [p] = await db.select().from(products).where(eq(products.id, input.id));
    if (!p || (p.status !== ProductStatus.LISTED && p.userId !== me(ctx).id)) throw new ApiError(Msg.NOT_FOUND);
    fileId = p.coverFileId;
  }
  if (!fileId) throw new ApiError(Msg.NOT_FOUND);
  return { fileId, disposition: "inline" as const };
}

/** §2 App store, all products: listed ones (status 2), searchable by name, filtered by type, newest listing first. */
export async function listProducts(input: Payload<"/sys/product/list">, ctx: SignedInContext) {
  const db = ctx.deps.db;
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

/** A listed product, or one of the caller's own in any status (another's unlisted product is "not found"). */
export async function productDetail(input: Payload<"/sys/product/detail">, ctx: SignedInContext) {
  const db = ctx.deps.db;
  const [row] = await withOwner(db).where(eq(products.id, input.productId));
  if (!row || (row.p.status !== ProductStatus.LISTED && row.p.userId !== me(ctx).id)) throw new ApiError(Msg.NOT_FOUND);
  const [product] = await rowsOf(db, me(ctx).id, [row], true);
  return product;
}
