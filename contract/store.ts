import type { DownloadSpec } from "./download-spec.ts";
import * as z from "zod";
import { nothing, type PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { decisionFields, decisionFormSchema, idempotencyKey, moneyAmount, required } from "./rules.ts";
import { COMMENT_MAX, commentSchema } from "./services.ts";
import { uploadSchema } from "./service-wizard.ts";
import {
  PRODUCT_TYPES,
  PAY_MODES,
  PRODUCT_NAME_MAX,
  PRODUCT_BRIEF_MAX,
  PRODUCT_DESCRIPTION_MAX,
} from "./store-codes.ts";
export * from "./store-codes.ts";

/* ------------------------------------------------------------------------------------------------
 * The app store (SPEC §1 Product buyer and the enterprise rule, §2 App store, §3 Comment, Product,
 * Service listing, §4 Product statuses and App participation display, §5 comments, §6, §7 addComment).
 * docs/decisions/014. Messages are i18n keys of the `store` namespace or §8 keys.
 * ---------------------------------------------------------------------------------------------- */

/** §4 App participation display, from the viewer's app_joins (docs/decisions/014). */
export const PARTICIPATION = ["participated", "reviewing", "none"] as const;
export type Participation = (typeof PARTICIPATION)[number];

/** §4 Participation audit: 15 confirmed = participated; 0-13 except the two rejections = reviewing. */
export function participationOf(joins: { auditState: number; disabled: boolean }[]): Participation {
  if (joins.some((j) => j.auditState === 15 && !j.disabled)) return "participated";
  if (joins.some((j) => j.auditState >= 0 && j.auditState <= 13 && j.auditState !== 2 && j.auditState !== 4))
    return "reviewing";
  return "none";
}

/** §4 Product: 0 pending submit, 1 pending approval, 2 displayed (listed), 3 approval failed, 4 removed. */

const text = (max: number) => required().max(max, "validation.tooLong");
const choice = <T extends readonly [string, ...string[]]>(values: T) =>
  z.enum(values, { error: "validation.required" });

/** The product form (create and edit), one schema for the portal's Conform and the backend. */
export const productFormSchema = z.object({
  name: text(PRODUCT_NAME_MAX),
  productType: choice(PRODUCT_TYPES),
  brief: text(PRODUCT_BRIEF_MAX),
  description: text(PRODUCT_DESCRIPTION_MAX),
  suggestedPrice: moneyAmount(),
  payMode: choice(PAY_MODES),
  /** A company product: needs an enterprise account (§1, §6). */
  company: z.literal("on").optional(),
});
export type ProductForm = z.infer<typeof productFormSchema>;

/** §5 "Comment max 150 characters" (and not empty). */
export const commentFormSchema = z.object({
  appId: z.coerce.number().int().positive(),
  text: required().max(COMMENT_MAX, "store:validation.commentTooLong"),
});

export const rateFormSchema = z.object({
  appId: z.coerce.number().int().positive(),
  score: z.coerce
    .number({ error: "store:validation.score" })
    .int("store:validation.score")
    .min(1, "store:validation.score")
    .max(5, "store:validation.score"),
});

/** Operator's decision on a product waiting for approval: comments are required to reject (§5). */
export const productDecisionSchema = decisionFormSchema({ productId: z.coerce.number().int().positive() });

/* ------------------------------------------ data shapes ------------------------------------------ */

/** §3 Service listing: display date, user rating, follower count, participation state. */
export const storeServiceSchema = z.object({
  appId: z.number().int(),
  appCode: z.string(),
  name: z.string(),
  industry: z.string(),
  description: z.string(),
  publisher: z.string(),
  hasCover: z.boolean(),
  publishedAt: z.string().nullable(),
  ratingAverage: z.number().nullable(),
  ratingCount: z.number().int(),
  followers: z.number().int(),
  participation: z.enum(PARTICIPATION),
  /** The viewer publishes this service (they do not join it). */
  own: z.boolean(),
});
export type StoreService = z.infer<typeof storeServiceSchema>;

/** A comment as the publisher sees it (contract/services.ts), and whether the viewer marked it useful. */
export const storeCommentSchema = commentSchema.extend({ markedByMe: z.boolean() });

export const storeServiceDetailSchema = storeServiceSchema.extend({
  introduction: z.string(),
  framework: z.string(),
  version: z.string(),
  roles: z.array(z.object({ roleId: z.number().int(), name: z.string(), description: z.string() })),
  comments: z.array(storeCommentSchema),
  commentsTotal: z.number().int(),
  following: z.boolean(),
  myRating: z.number().int().nullable(),
});
export type StoreServiceDetail = z.infer<typeof storeServiceDetailSchema>;

/** §3 Product: name, type, cover, brief, description, suggested price, payment mode, listing time, followers. */
export const productSchema = z.object({
  productId: z.number().int(),
  name: z.string(),
  productType: z.number().int(),
  hasCover: z.boolean(),
  brief: z.string(),
  description: z.string(),
  suggestedPriceCents: z.number().int(),
  payMode: z.number().int(),
  company: z.boolean(),
  status: z.number().int(),
  listedAt: z.string().nullable(),
  followers: z.number().int(),
  owner: z.string(),
  own: z.boolean(),
  following: z.boolean(),
  createdAt: z.string(),
  reviewedAt: z.string().nullable(),
  reviewComments: z.string().nullable(),
  /** Drafts the viewer made from this product (their services). */
  myServices: z.array(z.object({ appId: z.number().int(), name: z.string() })),
});
export type Product = z.infer<typeof productSchema>;

const coverRef = z.object({ kind: z.enum(["app", "product"]), id: z.number().int().positive() });

export const storePaths = {
  /** §2 App store, all services: running, public, joinable. */
  "/sys/store/services": {
    auth: "user",
    permission: "read",
    payload: z.object({
      ...pagingFields,
      name: z.string().trim().max(50).optional(),
      industry: z.string().trim().max(30).optional(),
    }),
    data: pageOf(storeServiceSchema),
  },
  "/sys/store/service": {
    auth: "user",
    permission: "read",
    payload: z.object({ appId: z.number().int().positive(), commentPage: z.number().int().min(1).default(1) }),
    data: storeServiceDetailSchema,
  },
  "/sys/store/follow": {
    auth: "user",
    permission: "services",
    payload: z.object({
      targetKind: z.enum(["app", "product"]),
      targetId: z.number().int().positive(),
      follow: z.boolean(),
    }),
    data: z.object({ following: z.boolean(), followers: z.number().int() }),
  },
  "/sys/store/rate": {
    auth: "user",
    permission: "services",
    payload: z.object({ appId: z.number().int().positive(), score: z.number().int().min(1).max(5) }),
    data: z.object({ ratingAverage: z.number().nullable(), ratingCount: z.number().int() }),
  },
  /** SPEC §7 /sys/chainAppInfo/addComment (payload not shown there: appId and text). */
  "/sys/chainAppInfo/addComment": {
    auth: "user",
    permission: "services",
    payload: z.object({
      appId: z.number().int().positive(),
      text: required().max(COMMENT_MAX, "store:validation.commentTooLong"),
    }),
    data: z.object({ commentId: z.number().int() }),
  },
  "/sys/store/markUseful": {
    auth: "user",
    permission: "services",
    payload: z.object({ commentId: z.number().int().positive() }),
    data: z.object({ usefulCount: z.number().int() }),
  },
  /** §2 App store, all products: the listed ones (status 2). */
  "/sys/product/list": {
    auth: "user",
    permission: "read",
    payload: z.object({
      ...pagingFields,
      name: z.string().trim().max(50).optional(),
      productType: z.number().int().min(1).max(9).optional(),
    }),
    data: pageOf(productSchema),
  },
  "/sys/product/mine": {
    auth: "user",
    permission: "read",
    payload: z.object(pagingFields),
    data: pageOf(productSchema),
  },
  "/sys/product/detail": {
    auth: "user",
    permission: "read",
    payload: z.object({ productId: z.number().int().positive() }),
    data: productSchema,
  },
  "/sys/product/save": {
    auth: "user",
    permission: "services",
    payload: z.object({
      productId: z.number().int().positive().optional(),
      product: productFormSchema,
      cover: uploadSchema.optional(),
    }),
    data: z.object({ productId: z.number().int() }),
  },
  "/sys/product/submit": {
    auth: "user",
    permission: "services",
    payload: z.object({ productId: z.number().int().positive() }),
    data: z.object({ status: z.number().int() }),
  },
  "/sys/product/remove": {
    auth: "user",
    permission: "services",
    payload: z.object({ productId: z.number().int().positive() }),
    data: z.object({ status: z.number().int() }),
  },
  /** §1 A buyer publishes a product: a new service draft of theirs, prefilled from it. */
  "/sys/product/publish": {
    auth: "user",
    permission: "services",
    payload: z.object({ productId: z.number().int().positive(), idempotencyKey: idempotencyKey() }),
    data: z.object({ appId: z.number().int(), replayed: z.boolean() }),
  },
  "/sys/ops/products/list": { auth: "operator", payload: z.object(pagingFields), data: pageOf(productSchema) },
  "/sys/ops/products/decide": {
    auth: "operator",
    payload: z.object({ productId: z.number().int().positive(), ...decisionFields() }),
    data: z.object({ status: z.number().int() }),
  },
  /** Tests only (TEST_FIXTURES=1): make the caller's service public, or give the caller a join in a given audit state. */
  "/test/store": {
    auth: "user",
    permission: "services",
    payload: z.object({
      appId: z.number().int().positive(),
      makePublic: z.boolean().default(false),
      joinState: z.number().int().min(0).max(15).optional(),
    }),
    data: nothing,
  },
} satisfies Record<string, PathSpec>;

/** A cover image of a listed service or product (or of the caller's own product), as bytes (docs/decisions/053). */
export const storeDownloads = {
  "store-cover": { auth: "user", permission: "read", payload: coverRef },
} satisfies Record<string, DownloadSpec>;
