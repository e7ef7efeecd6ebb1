import { and, asc, desc, eq, gt, gte, inArray, lt, type SQL } from "drizzle-orm";
import { NEWS_SEARCH_KIND } from "#contract/community-codes.ts";
import { Msg } from "#contract/messages.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { CallContext, DownloadInput, Payload } from "#backend/http/router.ts";
import { searchItems } from "#backend/kit/search.ts";
import { communityPartners, communityPosts } from "#backend/domains/community/tables.ts";
import { ACTIVE_ANNOUNCEMENTS_KEY, allPartners, listPosts, page, postOut, publishedPost } from "./shared.ts";

/* ------------------------------------------------- readers ------------------------------------------------ */

/** How many search hits a query may have (the list pages through them). */
const SEARCH_LIMIT = 100;
/** How many entries a feed carries. */
const FEED_ROWS = 50;

/** SPEC §7 h5queryAllList: published news and events with filters and a search in both languages. */
export async function queryAllList(input: Payload<"/api/devGame/h5queryAllList">, ctx: CallContext) {
  const { db } = ctx.deps;
  const now = ctx.deps.now();
  const where: (SQL | undefined)[] = [
    eq(communityPosts.published, true),
    inArray(communityPosts.kind, input.type ? [input.type] : ["news", "event"]),
  ];
  if (input.when) {
    where.push(eq(communityPosts.kind, "event"));
    where.push(input.when === "upcoming" ? gte(communityPosts.startsAt, now) : lt(communityPosts.startsAt, now));
  }
  if (input.q) {
    const hits = await searchItems(db, { kind: NEWS_SEARCH_KIND, query: input.q, limit: SEARCH_LIMIT });
    const ids = [...new Set(hits.map((h) => h.itemId))];
    if (!ids.length) return page([], 0, input.pageIndex, input.pageSize);
    where.push(inArray(communityPosts.id, ids));
  }
  const order =
    input.when === "upcoming"
      ? [asc(communityPosts.startsAt), asc(communityPosts.id)]
      : [desc(communityPosts.publishedAt), desc(communityPosts.id)];
  return listPosts(db, and(...where), order, input.pageIndex, input.pageSize);
}

export async function releaseNotes(input: Payload<"/api/devGame/releaseNotes">, ctx: CallContext) {
  const where = and(eq(communityPosts.published, true), eq(communityPosts.kind, "release"));
  return listPosts(
    ctx.deps.db,
    where,
    [desc(communityPosts.publishedAt), desc(communityPosts.id)],
    input.pageIndex,
    input.pageSize,
  );
}

/** The feeds' rows (docs/decisions/040), counted per client address ("feed.ip", docs/decisions/067). */
export async function feedRows(input: Payload<"/anon/community/feed">, ctx: CallContext) {
  await ctx.deps.limits.consume("feed.ip", ctx.deps.limits.subjectOf(ctx.clientAddress));
  if (input.feed === "news") return queryAllList({ pageIndex: 1, pageSize: FEED_ROWS }, ctx);
  return releaseNotes({ pageIndex: 1, pageSize: FEED_ROWS }, ctx);
}

export async function announcements(input: Payload<"/anon/community/announcements">, ctx: CallContext) {
  const where = and(eq(communityPosts.published, true), eq(communityPosts.kind, "announcement"));
  return listPosts(
    ctx.deps.db,
    where,
    [desc(communityPosts.activeFrom), desc(communityPosts.id)],
    input.pageIndex,
    input.pageSize,
  );
}

export async function announcement(input: Payload<"/anon/community/announcement">, ctx: CallContext) {
  return postOut(await publishedPost(ctx.deps.db, input.postId, ["announcement"]));
}

/**
 * The banner's announcements: published and not ended when read. Read through the constant-data kit, so a page
 * costs no query while the list is kept (cleared by this process's writes; with DATABASE_URL also re-read after
 * CONSTANT_DATA_TTL_MS). The portal shows those whose window holds the current time.
 */
export function activeAnnouncements(_input: Payload<"/anon/community/activeAnnouncements">, ctx: CallContext) {
  const { db, constants } = ctx.deps;
  return constants.get(ACTIVE_ANNOUNCEMENTS_KEY, async () => {
    const rows = await db
      .select()
      .from(communityPosts)
      .where(
        and(
          eq(communityPosts.published, true),
          eq(communityPosts.kind, "announcement"),
          gt(communityPosts.activeTo, ctx.deps.now()),
        ),
      )
      .orderBy(asc(communityPosts.activeFrom), asc(communityPosts.id))
      .limit(20);
    return rows.map((p) => ({
      postId: p.id,
      titleEn: p.titleEn,
      titleZh: p.titleZh,
      activeFrom: p.activeFrom!.toISOString(),
      activeTo: p.activeTo!.toISOString(),
    }));
  });
}

export async function partners(_input: Payload<"/anon/community/partners">, ctx: CallContext) {
  return allPartners(ctx.deps.db);
}

export async function partnerLogo(input: DownloadInput<"partner-logo">, ctx: CallContext) {
  const { db } = ctx.deps;
  const [p] = await db
    .select({ logoFileId: communityPartners.logoFileId })
    .from(communityPartners)
    .where(eq(communityPartners.id, input.partnerId));
  if (!p?.logoFileId) throw new ApiError(Msg.NOT_FOUND);
  return { fileId: p.logoFileId, disposition: "inline" as const };
}
