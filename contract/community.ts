import type { DownloadSpec } from "./download-spec.ts";
import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { email, optionalText, required } from "./rules.ts";
import { uploadRefSchema } from "./uploads.ts";
import {
  BODY_MAX,
  CAPACITY_MAX,
  LOCAL_TIME_RE,
  LOCATION_MAX,
  PARTNER_DESCRIPTION_MAX,
  PARTNER_NAME_MAX,
  POST_KINDS,
  SEARCH_QUERY_MAX,
  SIGNUP_NAME_MAX,
  SIGNUP_NOTE_MAX,
  SIGNUP_ORG_MAX,
  TITLE_MAX,
  VERSION_MAX,
  localTimeToDate,
} from "./community-codes.ts";
export * from "./community-codes.ts";

/*
 * The developer community's content (issue 15; SPEC §1, §2 DeveloperCommunity, serviceNetworkLeague, system
 * announcements, §7 /api/devGame/h5queryAllList and /sys/devGame/saveSingUpInfo; docs/decisions/040): news and
 * events with sign-ups, release notes, announcements and partners, written by operators in both languages.
 */

const id = () => z.number().int().positive();

/** A post as readers and operators see it: both languages (the portal picks one, contract pickLanguage). */
export const postSchema = z.object({
  postId: z.number().int(),
  kind: z.enum(POST_KINDS),
  titleEn: z.string(),
  titleZh: z.string(),
  bodyEn: z.string(),
  bodyZh: z.string(),
  published: z.boolean(),
  publishedAt: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  /** Events: when it takes place, where, how many seats, until when one may sign up, how many did. */
  startsAt: z.string().nullable(),
  location: z.string(),
  capacity: z.number().int().nullable(),
  signupDeadline: z.string().nullable(),
  signups: z.number().int(),
  /** Release notes: the version. */
  version: z.string(),
  /** Announcements: the window in which the banner shows (start included, end excluded). */
  activeFrom: z.string().nullable(),
  activeTo: z.string().nullable(),
});
export type Post = z.infer<typeof postSchema>;

export const eventDetailSchema = postSchema.extend({
  /** Seats left (events; 0 when full). */
  seatsLeft: z.number().int().nullable(),
  /** The caller's sign-up, if any. */
  mySignup: z.object({ signupId: z.number().int(), createdAt: z.string() }).nullable(),
});

/** A post in the list; `q` searches titles and bodies in both languages (backend/kit/search.ts). */
export const newsListPayload = z.object({
  ...pagingFields,
  type: z.enum(["news", "event"]).optional(),
  /** Events only: upcoming (starts now or later) or past. */
  when: z.enum(["upcoming", "past"]).optional(),
  q: z.string().trim().max(SEARCH_QUERY_MAX).optional(),
});

/** SPEC §7 saveSingUpInfo: who signs up (the logged-in user), with a name and an address for the confirmation. */
export const signupSchema = z.object({
  eventId: z.coerce.number().int().positive(),
  name: required().pipe(z.string().max(SIGNUP_NAME_MAX, "validation.tooLong")),
  email: email(),
  organization: optionalText().pipe(z.string().max(SIGNUP_ORG_MAX, "validation.tooLong").optional()),
  note: optionalText().pipe(z.string().max(SIGNUP_NOTE_MAX, "validation.tooLong").optional()),
});

export const signupRowSchema = z.object({
  signupId: z.number().int(),
  userName: z.string(),
  name: z.string(),
  email: z.string(),
  organization: z.string(),
  note: z.string(),
  createdAt: z.string(),
});

const text = (max: number) => optionalText().pipe(z.string().max(max, "validation.tooLong").optional());
const localTime = () => optionalText().pipe(z.string().regex(LOCAL_TIME_RE, "community:validation.time").optional());

/**
 * The operators' form of a post, for every kind: the fields of other kinds are ignored. At least one language
 * has a title; a body needs the title of its language; an event needs its time, seats and a deadline no later
 * than its start; a release note its version; an announcement a window that ends after it starts. Times are
 * wall-clock times of UTC+8 (contract/community-codes.ts).
 */
export const postFormSchema = z
  .object({
    postId: z.coerce.number().int().positive().optional(),
    kind: z.enum(POST_KINDS),
    titleEn: text(TITLE_MAX),
    titleZh: text(TITLE_MAX),
    bodyEn: text(BODY_MAX),
    bodyZh: text(BODY_MAX),
    startsAt: localTime(),
    location: text(LOCATION_MAX),
    capacity: z.coerce
      .number({ error: "community:validation.capacity" })
      .int("community:validation.capacity")
      .min(1, "community:validation.capacity")
      .max(CAPACITY_MAX, "community:validation.capacity")
      .optional(),
    signupDeadline: localTime(),
    version: text(VERSION_MAX),
    activeFrom: localTime(),
    activeTo: localTime(),
  })
  .superRefine((v, ctx) => {
    const issue = (path: string, message: string) => ctx.addIssue({ code: "custom", path: [path], message });
    if (!v.titleEn && !v.titleZh) issue("titleEn", "community:validation.titleOneLanguage");
    if (v.bodyEn && !v.titleEn) issue("titleEn", "community:validation.titleForBody");
    if (v.bodyZh && !v.titleZh) issue("titleZh", "community:validation.titleForBody");
    const time = (name: "startsAt" | "signupDeadline" | "activeFrom" | "activeTo") => {
      const raw = v[name];
      if (!raw) return (issue(name, "validation.required"), null);
      const at = localTimeToDate(raw);
      if (!at) issue(name, "community:validation.time");
      return at;
    };
    if (v.kind === "event") {
      const starts = time("startsAt");
      const deadline = time("signupDeadline");
      if (v.capacity === undefined) issue("capacity", "community:validation.capacity");
      if (starts && deadline && deadline.getTime() > starts.getTime())
        issue("signupDeadline", "community:validation.deadlineAfterStart");
    }
    if (v.kind === "release" && !v.version) issue("version", "validation.required");
    if (v.kind === "announcement") {
      const from = time("activeFrom");
      const to = time("activeTo");
      if (from && to && to.getTime() <= from.getTime()) issue("activeTo", "community:validation.windowOrder");
    }
  });
export type PostForm = z.infer<typeof postFormSchema>;

/** Publish or withdraw a post (a withdrawn post is invisible to readers; its sign-ups are kept). */
export const publishSchema = z.object({
  postId: z.coerce.number().int().positive(),
  decision: z.enum(["publish", "unpublish"]),
});

export const partnerSchema = z.object({
  partnerId: z.number().int(),
  nameEn: z.string(),
  nameZh: z.string(),
  descriptionEn: z.string(),
  descriptionZh: z.string(),
  link: z.string(),
  sortOrder: z.number().int(),
  hasLogo: z.boolean(),
});
export type Partner = z.infer<typeof partnerSchema>;

/** The operators' form of a partner: a name in at least one language, an https link, a place in the order. */
export const partnerFormSchema = z
  .object({
    partnerId: z.coerce.number().int().positive().optional(),
    nameEn: text(PARTNER_NAME_MAX),
    nameZh: text(PARTNER_NAME_MAX),
    descriptionEn: text(PARTNER_DESCRIPTION_MAX),
    descriptionZh: text(PARTNER_DESCRIPTION_MAX),
    link: optionalText().pipe(
      z
        .url({ protocol: /^https?$/, error: "community:validation.link" })
        .max(500, "validation.tooLong")
        .optional(),
    ),
    sortOrder: z.coerce
      .number({ error: "validation.invalid" })
      .int("validation.invalid")
      .min(0, "validation.invalid")
      .max(9999, "validation.invalid"),
    /** Removes the current logo (a new upload replaces it anyway). */
    removeLogo: z.enum(["on"]).optional(),
  })
  .superRefine((v, ctx) => {
    if (!v.nameEn && !v.nameZh)
      ctx.addIssue({ code: "custom", path: ["nameEn"], message: "community:validation.nameOneLanguage" });
  });

export const activeAnnouncementSchema = z.object({
  postId: z.number().int(),
  titleEn: z.string(),
  titleZh: z.string(),
  activeFrom: z.string(),
  activeTo: z.string(),
});

const postRef = z.object({ postId: id() });

export const communityPaths = {
  /** SPEC §7: published news and events, newest first (events by start); filters, search in both languages. */
  "/api/devGame/h5queryAllList": { auth: "anon", payload: newsListPayload, data: pageOf(postSchema) },
  /** SPEC §2 News_EventsDetail (eventId): a published news item or event with the caller's sign-up. */
  "/sys/devGame/detail": {
    auth: "user",
    permission: "read",
    payload: z.object({ eventId: id() }),
    data: eventDetailSchema,
  },
  /** SPEC §7 saveSingUpInfo: signs the caller up (capacity, deadline, once per event) and mails a confirmation. */
  "/sys/devGame/saveSingUpInfo": {
    auth: "user",
    permission: "write",
    payload: signupSchema,
    data: z.object({ signupId: z.number().int(), seatsLeft: z.number().int() }),
  },
  /** SPEC §2 ReleaseNotes: published release notes, newest first. */
  "/api/devGame/releaseNotes": { auth: "anon", payload: z.object({ ...pagingFields }), data: pageOf(postSchema) },
  /**
   * The feeds (RSS and Atom, docs/decisions/040): the 50 newest published news and events, or release notes;
   * counted per client address ("feed.ip", docs/decisions/067), 429 past it.
   */
  "/anon/community/feed": {
    auth: "anon",
    payload: z.object({ feed: z.enum(["news", "releaseNotes"]) }),
    data: pageOf(postSchema),
  },
  /** System announcements (public): published ones, newest first. */
  "/anon/community/announcements": { auth: "anon", payload: z.object({ ...pagingFields }), data: pageOf(postSchema) },
  "/anon/community/announcement": { auth: "anon", payload: postRef, data: postSchema },
  /** The banner: published announcements whose window has not ended (the portal shows those whose window holds now). */
  "/anon/community/activeAnnouncements": {
    auth: "anon",
    payload: z.object({}),
    data: z.array(activeAnnouncementSchema),
  },
  /** SPEC §2 serviceNetworkLeague: the partners in their order. */
  "/anon/community/partners": { auth: "anon", payload: z.object({}), data: z.array(partnerSchema) },
  /** Operations: posts of one kind, published or not, newest first. */
  "/sys/ops/community/posts": {
    auth: "operator",
    payload: z.object({ ...pagingFields, kind: z.enum(POST_KINDS) }),
    data: pageOf(postSchema),
  },
  "/sys/ops/community/post": { auth: "operator", payload: postRef, data: postSchema },
  /** Operations: creates (no postId) or edits a post; a new post is unpublished. */
  "/sys/ops/community/savePost": {
    auth: "operator",
    payload: postFormSchema,
    data: z.object({ postId: z.number().int() }),
  },
  "/sys/ops/community/publishPost": {
    auth: "operator",
    payload: publishSchema,
    data: z.object({ postId: z.number().int(), published: z.boolean() }),
  },
  /** Operations: deletes a post (an event with its sign-ups). */
  "/sys/ops/community/deletePost": { auth: "operator", payload: postRef, data: z.object({ postId: z.number().int() }) },
  /** Operations: an event's sign-ups, in the order they came. */
  "/sys/ops/community/signups": {
    auth: "operator",
    payload: z.object({
      eventId: id(),
      pageIndex: z.number().int().min(1).default(1),
      pageSize: z.number().int().min(1).max(CAPACITY_MAX).default(10),
    }),
    data: pageOf(signupRowSchema),
  },
  "/sys/ops/community/partners": { auth: "operator", payload: z.object({}), data: z.array(partnerSchema) },
  /** Operations: creates or edits a partner; a logo is an uploaded image (kind "cover"). */
  "/sys/ops/community/savePartner": {
    auth: "operator",
    payload: z.object({ partner: partnerFormSchema, logo: uploadRefSchema.nullable().optional() }),
    data: z.object({ partnerId: z.number().int() }),
  },
  "/sys/ops/community/deletePartner": {
    auth: "operator",
    payload: z.object({ partnerId: id() }),
    data: z.object({ partnerId: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;

/** A partner's logo as bytes (public; docs/decisions/053). */
export const communityDownloads = {
  "partner-logo": { auth: "anon", payload: z.object({ partnerId: id() }) },
} satisfies Record<string, DownloadSpec>;
