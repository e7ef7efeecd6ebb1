import { asc, desc, eq } from "drizzle-orm";
import { NEWS_SEARCH_KIND, localTimeToDate } from "#contract/community-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { users } from "#backend/db/tables.ts";
import type { Deps } from "#backend/deps.ts";
import { ApiError, fieldError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import { indexItem, removeItem } from "#backend/kit/search.ts";
import { communityPartners, communityPosts, communitySignups } from "#backend/domains/community/tables.ts";
import { ACTIVE_ANNOUNCEMENTS_KEY, allPartners, listPosts, page, postOut, takenSeats, type PostRow } from "./shared.ts";

/* ------------------------------------------------ operators ----------------------------------------------- */

export async function opsPosts(input: Payload<"/sys/ops/community/posts">, ctx: SignedInContext) {
  return listPosts(
    ctx.deps.db,
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
  const post = await anyPost(ctx.deps.db, input.postId);
  return postOut(post, await takenSeats(ctx.deps.db, post.id));
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
  const deps = ctx.deps;
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
  const deps = ctx.deps;
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
  const deps = ctx.deps;
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
  const { db } = ctx.deps;
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
  return allPartners(ctx.deps.db);
}

const LOGO_TYPES = ["image/png", "image/jpeg"];

export async function savePartner(input: Payload<"/sys/ops/community/savePartner">, ctx: SignedInContext) {
  const { db, files } = ctx.deps;
  const now = ctx.deps.now();
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
  const [row] = await ctx.deps.db
    .delete(communityPartners)
    .where(eq(communityPartners.id, input.partnerId))
    .returning({ id: communityPartners.id });
  if (!row) throw new ApiError(Msg.NOT_FOUND);
  return { partnerId: row.id };
}
