import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { pageOf, pagingFields } from "./platform.ts";
import { DOC_BODY_MAX, DOC_LANGS, DOC_QUERY_MAX, DOC_SLUG_MAX, DOC_SLUG_RE, DOC_TITLE_MAX } from "./docs-codes.ts";
export * from "./docs-codes.ts";

/*
 * The documentation and help manual (SPEC §1 developer community, §2 documentation / help manual; issue 15;
 * docs/decisions/042): bilingual Markdown pages in a tree (parent and position give the table of contents),
 * published by operators, searchable in both languages. The manual the product ships is written at start.
 */

const id = () => z.number().int().positive();

export const docEntrySchema = z.object({
  docId: z.number().int(),
  slug: z.string(),
  parentId: z.number().int().nullable(),
  position: z.number().int(),
  titleEn: z.string(),
  titleZh: z.string(),
});
export type DocEntry = z.infer<typeof docEntrySchema>;

export const docPageSchema = docEntrySchema.extend({
  bodyEn: z.string(),
  bodyZh: z.string(),
  published: z.boolean(),
  /** The key of the manual page the product shipped (null for an operator's own page). */
  shippedKey: z.string().nullable(),
  /** An operator changed it: the product's newer text no longer replaces it at start. */
  operatorEdited: z.boolean(),
  updatedAt: z.string(),
});
export type DocPage = z.infer<typeof docPageSchema>;

/** An operator's list row: the entry with its state. */
export const docAdminRowSchema = docEntrySchema.extend({
  published: z.boolean(),
  shippedKey: z.string().nullable(),
  operatorEdited: z.boolean(),
  updatedAt: z.string(),
});

export const docHitSchema = docEntrySchema.extend({
  /** The language the words were found in. */
  lang: z.enum(DOC_LANGS),
  /** The start of the matching language's text, without markup. */
  snippet: z.string(),
});

/** A parent page's id as a form posts it (digits; empty: top level). */
const optionalId = () =>
  z
    .string()
    .trim()
    .regex(/^([1-9][0-9]{0,9})?$/, "validation.invalid")
    .optional()
    .transform((v) => (v ? Number(v) : undefined));
const textMax = (max: number) =>
  z
    .string()
    .trim()
    .max(max, "validation.tooLong")
    .optional()
    .transform((v) => v ?? "");

/**
 * An operator's page form (one schema: the portal's action, Conform and the backend). Each language is
 * complete (title and text) or empty; at least one is complete.
 */
export const docFormSchema = z
  .object({
    slug: z
      .string({ error: "validation.required" })
      .trim()
      .min(1, "validation.required")
      .max(DOC_SLUG_MAX, "validation.tooLong")
      .regex(DOC_SLUG_RE, "docs:validation.slug"),
    parentId: optionalId(),
    titleEn: textMax(DOC_TITLE_MAX),
    titleZh: textMax(DOC_TITLE_MAX),
    bodyEn: textMax(DOC_BODY_MAX),
    bodyZh: textMax(DOC_BODY_MAX),
    published: z.literal("on").optional(),
  })
  .superRefine((v, ctx) => {
    for (const [t, b] of [
      ["titleEn", "bodyEn"],
      ["titleZh", "bodyZh"],
    ] as const) {
      if (v[t] && !v[b]) ctx.addIssue({ code: "custom", path: [b], message: "docs:validation.bodyWithTitle" });
      if (!v[t] && v[b]) ctx.addIssue({ code: "custom", path: [t], message: "docs:validation.titleWithBody" });
    }
    if (!v.titleEn && !v.titleZh && !v.bodyEn && !v.bodyZh)
      ctx.addIssue({ code: "custom", path: ["titleEn"], message: "docs:validation.oneLanguage" });
  });
export type DocForm = z.infer<typeof docFormSchema>;

export const docSearchSchema = z.object({
  q: z.string().trim().min(1, "validation.required").max(DOC_QUERY_MAX, "validation.tooLong"),
  /** Only this language's text; absent: both. */
  lang: z.enum(DOC_LANGS).optional(),
  limit: z.number().int().min(1).max(50).default(20),
});

export const docPaths = {
  /** The table of contents: the published pages (tree order is parentId, position). */
  "/anon/docs/toc": { auth: "anon", payload: z.object({}), data: z.array(docEntrySchema) },
  /** A published page by its slug; an unpublished or unknown one is not found. */
  "/anon/docs/page": {
    auth: "anon",
    payload: z.object({ slug: z.string().trim().min(1).max(DOC_SLUG_MAX) }),
    data: docPageSchema,
  },
  /** Pages holding every word of the query, best first; a Chinese query finds Chinese text (Intl.Segmenter words). */
  "/anon/docs/search": { auth: "anon", payload: docSearchSchema, data: z.object({ rows: z.array(docHitSchema) }) },
  /** Operations: every page, published or not, in tree order. */
  "/sys/ops/docs/list": {
    auth: "operator",
    payload: z.object({ ...pagingFields, pageSize: z.number().int().min(1).max(200).default(200) }),
    data: pageOf(docAdminRowSchema),
  },
  "/sys/ops/docs/detail": { auth: "operator", payload: z.object({ docId: id() }), data: docPageSchema },
  /** Creates (without docId) or changes a page; its search index is rewritten in the same transaction. */
  "/sys/ops/docs/save": {
    auth: "operator",
    payload: z.object({ docId: id().optional(), form: docFormSchema }),
    data: z.object({ docId: z.number().int(), slug: z.string() }),
  },
  /** Moves a page one place up or down among its siblings. */
  "/sys/ops/docs/move": {
    auth: "operator",
    payload: z.object({ docId: id(), direction: z.enum(["up", "down"]) }),
    data: z.object({ docId: z.number().int(), position: z.number().int() }),
  },
  "/sys/ops/docs/publish": {
    auth: "operator",
    payload: z.object({ docId: id(), published: z.boolean() }),
    data: z.object({ docId: z.number().int(), published: z.boolean() }),
  },
  /** Deletes a page without sub-pages (MSG_46203 otherwise); a shipped page is not written again at start. */
  "/sys/ops/docs/delete": {
    auth: "operator",
    payload: z.object({ docId: id() }),
    data: z.object({ docId: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;
