import { and, asc, count, desc, eq, gt, gte, inArray, lt, sql, type SQL } from "drizzle-orm";
import { NEWS_SEARCH_KIND, localTimeToDate, pickLanguage, type PostKind } from "#contract/community-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { CallContext, Payload, SignedInContext } from "#backend/http/router.ts";
import { indexItem, removeItem, searchItems } from "#backend/kit/search.ts";
import { seatsLeft, signupRefusal } from "./rules.ts";
import { communityPartners, communityPosts, communitySignups } from "./tables.ts";

/** The handlers of the community's content (contract/community.ts; docs/decisions/040). */

type PostRow = typeof communityPosts.$inferSelect;
type PartnerRow = typeof communityPartners.$inferSelect;
const iso = (d: Date | null) => (d ? d.toISOString() : null);

/** The banner's list, kept by the constant-data kit (cleared by every announcement write of this process). */
export const ACTIVE_ANNOUNCEMENTS_KEY = "community.activeAnnouncements";

const signupCount = sql<number>`(select count(*)::int from ${communitySignups} where ${communitySignups.postId} = ${communityPosts.id})`;

function postOut(p: PostRow, signups = 0) {
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

const page = <T>(rows: T[], total: number, pageIndex: number, pageSize: number) => ({
  page: { rows, total, pageIndex, pageSize },
});

async function listPosts(db: Db, where: SQL | undefined, order: SQL[], pageIndex: number, pageSize: number) {
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

/* ------------------------------------------------- readers ------------------------------------------------ */

/** How many search hits a query may have (the list pages through them). */
const SEARCH_LIMIT = 100;

/** SPEC §7 h5queryAllList: published news and events with filters and a search in both languages. */
export async function queryAllList(input: Payload<"/api/devGame/h5queryAllList">, ctx: CallContext) {
  const { db } = ctx.services;
  const now = ctx.services.now();
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

async function publishedPost(db: Db | Tx, postId: number, kinds: PostKind[], lock = false) {
  const q = db
    .select()
    .from(communityPosts)
    .where(and(eq(communityPosts.id, postId), eq(communityPosts.published, true), inArray(communityPosts.kind, kinds)));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

async function takenSeats(db: Db | Tx, postId: number) {
  const [{ n }] = await db.select({ n: count() }).from(communitySignups).where(eq(communitySignups.postId, postId));
  return n;
}

/** SPEC §2 News_EventsDetail: a published news item or event, with its seats and the caller's sign-up. */
export async function eventDetail(input: Payload<"/sys/devGame/detail">, ctx: SignedInContext) {
  const { db } = ctx.services;
  const post = await publishedPost(db, input.eventId, ["news", "event"]);
  const taken = await takenSeats(db, post.id);
  const [mine] = await db
    .select({ signupId: communitySignups.id, createdAt: communitySignups.createdAt })
    .from(communitySignups)
    .where(and(eq(communitySignups.postId, post.id), eq(communitySignups.userId, ctx.user.id)));
  return {
    ...postOut(post, taken),
    seatsLeft: post.kind === "event" ? seatsLeft(post.capacity, taken) : null,
    mySignup: mine ? { signupId: mine.signupId, createdAt: mine.createdAt.toISOString() } : null,
  };
}

const REFUSALS = {
  closed: Msg.COMMUNITY_SIGNUP_CLOSED,
  full: Msg.COMMUNITY_EVENT_FULL,
  already: Msg.COMMUNITY_ALREADY_SIGNED_UP,
} as const;

/**
 * SPEC §7 saveSingUpInfo: the event row is locked while the seats are counted, so two last sign-ups cannot both
 * take the last seat; the unique (event, user) index refuses a second sign-up even from two requests at once.
 * The confirmation goes out after the commit, in the caller's language.
 */
export async function saveSignup(input: Payload<"/sys/devGame/saveSingUpInfo">, ctx: SignedInContext) {
  const { db, limits, mailer, env } = ctx.services;
  const now = ctx.services.now();
  // The rules first, without the lock, so a refused sign-up takes no mail permit.
  const check = async (q: Db | Tx, post: PostRow) => {
    const taken = await takenSeats(q, post.id);
    const [mine] = await q
      .select({ id: communitySignups.id })
      .from(communitySignups)
      .where(and(eq(communitySignups.postId, post.id), eq(communitySignups.userId, ctx.user.id)));
    const refusal = signupRefusal({
      now,
      deadline: post.signupDeadline,
      startsAt: post.startsAt,
      capacity: post.capacity,
      taken,
      mine: !!mine,
    });
    if (refusal) throw new ApiError(REFUSALS[refusal]);
    return taken;
  };
  await check(db, await publishedPost(db, input.eventId, ["event"]));
  const permit = await limits.mailPermit(input.email, ctx.clientAddress);
  const { post, signupId, taken } = await db.transaction(async (tx) => {
    const post = await publishedPost(tx, input.eventId, ["event"], true);
    const taken = await check(tx, post);
    const [row] = await tx
      .insert(communitySignups)
      .values({
        postId: post.id,
        userId: ctx.user.id,
        name: input.name,
        email: input.email,
        organization: input.organization ?? "",
        note: input.note ?? "",
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: communitySignups.id });
    if (!row) throw new ApiError(Msg.COMMUNITY_ALREADY_SIGNED_UP);
    return { post, signupId: row.id, taken: taken + 1 };
  });
  const { title } = pickLanguage(post, ctx.language);
  const starts = post.startsAt
    ? new Intl.DateTimeFormat(ctx.language, {
        dateStyle: "long",
        timeStyle: "short",
        timeZone: "Asia/Shanghai",
      }).format(post.startsAt) + " (UTC+8)"
    : "";
  await mailer.send(permit, "eventSignup", ctx.language, {
    name: input.name,
    title,
    startsAt: starts,
    location: post.location || "-",
    link: `${env.publicUrl}/g/home/DeveloperCommunity/News_EventsDetail?eventId=${post.id}`,
  });
  return { signupId, seatsLeft: seatsLeft(post.capacity, taken) };
}

export async function releaseNotes(input: Payload<"/api/devGame/releaseNotes">, ctx: CallContext) {
  const where = and(eq(communityPosts.published, true), eq(communityPosts.kind, "release"));
  return listPosts(
    ctx.services.db,
    where,
    [desc(communityPosts.publishedAt), desc(communityPosts.id)],
    input.pageIndex,
    input.pageSize,
  );
}

export async function announcements(input: Payload<"/anon/community/announcements">, ctx: CallContext) {
  const where = and(eq(communityPosts.published, true), eq(communityPosts.kind, "announcement"));
  return listPosts(
    ctx.services.db,
    where,
    [desc(communityPosts.activeFrom), desc(communityPosts.id)],
    input.pageIndex,
    input.pageSize,
  );
}

export async function announcement(input: Payload<"/anon/community/announcement">, ctx: CallContext) {
  return postOut(await publishedPost(ctx.services.db, input.postId, ["announcement"]));
}

/**
 * The banner's announcements: published and not ended when read. Read through the constant-data kit, so a page
 * costs no query while the list is kept (cleared by this process's writes; with DATABASE_URL also re-read after
 * CONSTANT_DATA_TTL_MS). The portal shows those whose window holds the current time.
 */
export function activeAnnouncements(_input: Payload<"/anon/community/activeAnnouncements">, ctx: CallContext) {
  const { db, constants } = ctx.services;
  return constants.get(ACTIVE_ANNOUNCEMENTS_KEY, async () => {
    const rows = await db
      .select()
      .from(communityPosts)
      .where(
        and(
          eq(communityPosts.published, true),
          eq(communityPosts.kind, "announcement"),
          gt(communityPosts.activeTo, ctx.services.now()),
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

async function allPartners(db: Db) {
  return (
    await db.select().from(communityPartners).orderBy(asc(communityPartners.sortOrder), asc(communityPartners.id))
  ).map(partnerOut);
}

export async function partners(_input: Payload<"/anon/community/partners">, ctx: CallContext) {
  return allPartners(ctx.services.db);
}

export async function partnerLogo(input: Payload<"/anon/community/partnerLogo">, ctx: CallContext) {
  const { db, files } = ctx.services;
  const [p] = await db
    .select({ logoFileId: communityPartners.logoFileId })
    .from(communityPartners)
    .where(eq(communityPartners.id, input.partnerId));
  const file = p?.logoFileId ? await files.read(db, p.logoFileId) : null;
  if (!file) throw new ApiError(Msg.NOT_FOUND);
  return { mime: file.mime, dataBase64: file.bytes.toString("base64") };
}

/* ------------------------------------------------ operators ----------------------------------------------- */

export async function opsPosts(input: Payload<"/sys/ops/community/posts">, ctx: SignedInContext) {
  return listPosts(
    ctx.services.db,
    eq(communityPosts.kind, input.kind),
    [desc(communityPosts.createdAt), desc(communityPosts.id)],
    input.pageIndex,
    input.pageSize,
  );
}

async function anyPost(db: Db | Tx, postId: number, lock = false) {
  const q = db.select().from(communityPosts).where(eq(communityPosts.id, postId));
  const [row] = lock ? await q.for("update") : await q;
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return row;
}

export async function opsPost(input: Payload<"/sys/ops/community/post">, ctx: SignedInContext) {
  const post = await anyPost(ctx.services.db, input.postId);
  return postOut(post, await takenSeats(ctx.services.db, post.id));
}

/** News and events are searchable in both languages (backend/kit/search.ts, kind "news"). */
async function reindex(tx: Tx, post: PostRow) {
  if (post.kind !== "news" && post.kind !== "event") return;
  await indexItem(tx, { kind: NEWS_SEARCH_KIND, itemId: post.id, lang: "en", title: post.titleEn, body: post.bodyEn });
  await indexItem(tx, {
    kind: NEWS_SEARCH_KIND,
    itemId: post.id,
    lang: "zh-CN",
    title: post.titleZh,
    body: post.bodyZh,
  });
}

const forgetBanner = (deps: Deps, kind: string) => {
  if (kind === "announcement") deps.constants.clear(ACTIVE_ANNOUNCEMENTS_KEY);
};

export async function savePost(input: Payload<"/sys/ops/community/savePost">, ctx: SignedInContext) {
  const deps = ctx.services;
  const now = deps.now();
  const at = (v: string | undefined) => (v ? localTimeToDate(v) : null);
  const k = input.kind;
  const fields = {
    titleEn: input.titleEn ?? "",
    titleZh: input.titleZh ?? "",
    bodyEn: input.bodyEn ?? "",
    bodyZh: input.bodyZh ?? "",
    startsAt: k === "event" ? at(input.startsAt) : null,
    location: k === "event" ? (input.location ?? "") : "",
    capacity: k === "event" ? (input.capacity ?? null) : null,
    signupDeadline: k === "event" ? at(input.signupDeadline) : null,
    version: k === "release" ? (input.version ?? "") : "",
    activeFrom: k === "announcement" ? at(input.activeFrom) : null,
    activeTo: k === "announcement" ? at(input.activeTo) : null,
    updatedAt: now,
  };
  const post = await deps.db.transaction(async (tx) => {
    let row: PostRow;
    if (input.postId) {
      const old = await anyPost(tx, input.postId, true);
      if (old.kind !== k) throw new ApiError(Msg.COMMUNITY_KIND_CHANGED);
      if (k === "event" && fields.capacity !== null && fields.capacity < (await takenSeats(tx, old.id))) {
        throw fieldError(
          "capacity",
          `errors:${Msg.COMMUNITY_CAPACITY_BELOW_SIGNUPS}`,
          Msg.COMMUNITY_CAPACITY_BELOW_SIGNUPS,
        );
      }
      [row] = await tx.update(communityPosts).set(fields).where(eq(communityPosts.id, old.id)).returning();
    } else {
      [row] = await tx
        .insert(communityPosts)
        .values({ kind: k, ...fields, createdAt: now })
        .returning();
    }
    await reindex(tx, row);
    return row;
  });
  forgetBanner(deps, post.kind);
  return { postId: post.id };
}

export async function publishPost(input: Payload<"/sys/ops/community/publishPost">, ctx: SignedInContext) {
  const deps = ctx.services;
  const published = input.decision === "publish";
  const post = await anyPost(deps.db, input.postId);
  await deps.db
    .update(communityPosts)
    .set({
      published,
      publishedAt: published ? (post.publishedAt ?? deps.now()) : post.publishedAt,
      updatedAt: deps.now(),
    })
    .where(eq(communityPosts.id, post.id));
  forgetBanner(deps, post.kind);
  return { postId: post.id, published };
}

export async function deletePost(input: Payload<"/sys/ops/community/deletePost">, ctx: SignedInContext) {
  const deps = ctx.services;
  const post = await anyPost(deps.db, input.postId);
  await deps.db.transaction(async (tx) => {
    await removeItem(tx, NEWS_SEARCH_KIND, post.id);
    await tx.delete(communitySignups).where(eq(communitySignups.postId, post.id));
    await tx.delete(communityPosts).where(eq(communityPosts.id, post.id));
  });
  forgetBanner(deps, post.kind);
  return { postId: post.id };
}

export async function opsSignups(input: Payload<"/sys/ops/community/signups">, ctx: SignedInContext) {
  const { db } = ctx.services;
  const post = await anyPost(db, input.eventId);
  if (post.kind !== "event") throw new ApiError(Msg.NOT_FOUND);
  const total = await takenSeats(db, post.id);
  const rows = await db
    .select({ s: communitySignups, userName: users.userName })
    .from(communitySignups)
    .innerJoin(users, eq(users.id, communitySignups.userId))
    .where(eq(communitySignups.postId, post.id))
    .orderBy(asc(communitySignups.createdAt), asc(communitySignups.id))
    .limit(input.pageSize)
    .offset((input.pageIndex - 1) * input.pageSize);
  const out = rows.map(({ s, userName }) => ({
    signupId: s.id,
    userName,
    name: s.name,
    email: s.email,
    organization: s.organization,
    note: s.note,
    createdAt: s.createdAt.toISOString(),
  }));
  return page(out, total, input.pageIndex, input.pageSize);
}

export async function opsPartners(_input: Payload<"/sys/ops/community/partners">, ctx: SignedInContext) {
  return allPartners(ctx.services.db);
}

const LOGO_TYPES = ["image/png", "image/jpeg"];

export async function savePartner(input: Payload<"/sys/ops/community/savePartner">, ctx: SignedInContext) {
  const { db, files } = ctx.services;
  const now = ctx.services.now();
  const p = input.partner;
  const id = await db.transaction(async (tx) => {
    let logoFileId: number | null | undefined = p.removeLogo ? null : undefined;
    if (input.logo) {
      // An image upload (kind "cover": png or jpeg by its bytes, ≤ 5 MB, checked while it arrived), the caller's own.
      const file = await files.claim(tx, input.logo.uploadId, { kind: "cover", ownerId: ctx.user.id, at: now });
      if (!file || !LOGO_TYPES.includes(file.mime))
        throw fieldError("logo", `errors:${Msg.COMMUNITY_LOGO_INVALID}`, Msg.COMMUNITY_LOGO_INVALID);
      logoFileId = file.id;
    }
    const fields = {
      nameEn: p.nameEn ?? "",
      nameZh: p.nameZh ?? "",
      descriptionEn: p.descriptionEn ?? "",
      descriptionZh: p.descriptionZh ?? "",
      link: p.link ?? "",
      sortOrder: p.sortOrder,
      updatedAt: now,
      ...(logoFileId !== undefined ? { logoFileId } : {}),
    };
    if (p.partnerId) {
      const [row] = await tx
        .update(communityPartners)
        .set(fields)
        .where(eq(communityPartners.id, p.partnerId))
        .returning({ id: communityPartners.id });
      if (!row) throw new ApiError(Msg.NOT_FOUND);
      return row.id;
    }
    const [row] = await tx
      .insert(communityPartners)
      .values({ ...fields, createdAt: now })
      .returning({ id: communityPartners.id });
    return row.id;
  });
  return { partnerId: id };
}

export async function deletePartner(input: Payload<"/sys/ops/community/deletePartner">, ctx: SignedInContext) {
  const [row] = await ctx.services.db
    .delete(communityPartners)
    .where(eq(communityPartners.id, input.partnerId))
    .returning({ id: communityPartners.id });
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return { partnerId: row.id };
}
