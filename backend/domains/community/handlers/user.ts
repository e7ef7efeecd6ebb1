import { and, eq } from "drizzle-orm";
import { pickLanguage } from "#contract/community-codes.ts";
import { Msg } from "#contract/messages.ts";
import type { Db, Tx } from "#backend/db/client.ts";
import { ApiError } from "#backend/http/errors.ts";
import type { Payload, SignedInContext } from "#backend/http/router.ts";
import { seatsLeft, signupRefusal } from "#backend/domains/community/rules.ts";
import { communitySignups } from "#backend/domains/community/tables.ts";
import { postOut, publishedPost, takenSeats, type PostRow } from "./shared.ts";

/** SPEC §2 News_EventsDetail: a published news item or event, with its seats and the caller's sign-up. */
export async function eventDetail(input: Payload<"/sys/devGame/detail">, ctx: SignedInContext) {
  const { db } = ctx.deps;
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
  const { db, limits, mailer, env } = ctx.deps;
  const now = ctx.deps.now();
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
  const permit = await limits.mailPermit("eventSignup", input.email, ctx.clientAddress);
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
