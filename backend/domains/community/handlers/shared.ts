import { and, asc, count, eq, inArray, sql, type SQL } from "drizzle-orm";
import { type PostKind } from "#contract/community-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { ApiError } from "#backend/http/errors.ts";
import { communityPartners, communityPosts, communitySignups } from "#backend/domains/community/tables.ts";

/** The handlers of the community's content (contract/community.ts; docs/decisions/040). */

export type PostRow = typeof communityPosts.$inferSelect;

type PartnerRow = typeof communityPartners.$inferSelect;

const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The banner's list, kept by the constant-data kit (cleared by every announcement write of this process). */
export const ACTIVE_ANNOUNCEMENTS_KEY = "community.activeAnnouncements";

const signupCount = sql<number>`(select count(*)::int from ${communitySignups} where ${communitySignups.postId} = ${communityPosts.id})`;

export function postOut(p: PostRow, signups = 0) {
  return {
    postId: p.id,
    kind: p.kind as PostKind,
    titleEn: p.titleEn,
    titleZh: p.titleZh,
    bodyEn: p.bodyEn,
    bodyZh: p.bodyZh,
    published: p.published,
    publishedAt: iso(p.publishedAt),
    createdAt: p.createdAt.toISOString(),
    updatedAt: p.updatedAt.toISOString(),
    startsAt: iso(p.startsAt),
    location: p.location,
    capacity: p.capacity,
    signupDeadline: iso(p.signupDeadline),
    signups,
    version: p.version,
    activeFrom: iso(p.activeFrom),
    activeTo: iso(p.activeTo),
  };
}

export const page = <T>(rows: T[], total: number, pageIndex: number, pageSize: number) => ({
  page: { rows, total, pageIndex, pageSize },
});

export async function listPosts(db: Db, where: SQL | undefined, order: SQL[], pageIndex: number, pageSize: number) {
  const [{ total }] = await db.select({ total: count() }).from(communityPosts).where(where);
  const rows = await db
    .select({ p: communityPosts, signups: signupCount })
    .from(communityPosts)
    .where(where)
    .orderBy(...order)
    .limit(pageSize)
    .offset((pageIndex - 1) * pageSize);
  return page(
    rows.map((r) => postOut(r.p, r.signups)),
    total,
    pageIndex,
    pageSize,
  );
}

export async function publishedPost(db: Db | Tx, postId: number, kinds: PostKind[], lock = false) {
  const q = db
    .select()
    .from(communityPosts)
    .where(and(eq(communityPosts.id, postId), eq(communityPosts.published, true), inArray(communityPosts.kind, kinds)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

export async function takenSeats(db: Db | Tx, postId: number) {
  const [{ n }] = await db.select({ n: count() }).from(communitySignups).where(eq(communitySignups.postId, postId));
  return n;
}

const partnerOut = (p: PartnerRow) => ({
  partnerId: p.id,
  nameEn: p.nameEn,
  nameZh: p.nameZh,
  descriptionEn: p.descriptionEn,
  descriptionZh: p.descriptionZh,
  link: p.link,
  sortOrder: p.sortOrder,
  hasLogo: p.logoFileId !== null,
});

export async function allPartners(db: Db) {
  return (
    await db.select().from(communityPartners).orderBy(asc(communityPartners.sortOrder), asc(communityPartners.id))
  ).map(partnerOut);
}
