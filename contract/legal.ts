import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { LEGAL_BODY_MAX, LEGAL_INTRO_MAX, LEGAL_PAGES, LEGAL_TITLE_MAX } from "./legal-codes.ts";
export * from "./legal-codes.ts";

/*
 * The legal and contact texts (issue 30 item 16; docs/decisions/089): operators write the privacy policy, the
 * privacy statement, the service agreement and the contact page in both languages, and the contact addresses. A
 * page nobody saved yet shows the draft the product ships (locales/<lang>/pages.json), marked as not reviewed.
 */

const text = (max: number) =>
  z.string({ error: "validation.required" }).trim().min(1, "validation.required").max(max, "validation.tooLong");

/** An operator's form for one page (one schema: the portal's action, Conform and the backend): both languages. */
export const legalTextFormSchema = z.object({
  titleEn: text(LEGAL_TITLE_MAX),
  titleZh: text(LEGAL_TITLE_MAX),
  introEn: text(LEGAL_INTRO_MAX),
  introZh: text(LEGAL_INTRO_MAX),
  bodyEn: text(LEGAL_BODY_MAX),
  bodyZh: text(LEGAL_BODY_MAX),
});
export type LegalTextForm = z.infer<typeof legalTextFormSchema>;

/** An address, or nothing: the contact page then says that none is configured. */
const optionalEmail = () =>
  z
    .string()
    .trim()
    .max(100, "validation.email.format")
    .optional()
    .transform((v) => v ?? "")
    .refine((v) => v === "" || z.email().safeParse(v).success, "validation.email.format");

export const contactAddressesFormSchema = z.object({
  supportEmail: optionalEmail(),
  partnersEmail: optionalEmail(),
});
export type ContactAddressesForm = z.infer<typeof contactAddressesFormSchema>;

const reviewSchema = z.object({
  /** When an operator saved it; null: nobody has, the page shows the shipped draft. */
  updatedAt: z.string().nullable(),
  /** The operator's username. */
  updatedBy: z.string().nullable(),
});

export const legalTextSchema = z.object({
  page: z.enum(LEGAL_PAGES),
  titleEn: z.string(),
  titleZh: z.string(),
  introEn: z.string(),
  introZh: z.string(),
  bodyEn: z.string(),
  bodyZh: z.string(),
  updatedAt: z.string(),
  updatedBy: z.string().nullable(),
});
export type LegalText = z.infer<typeof legalTextSchema>;

export const contactAddressesSchema = z.object({
  /** Empty: not configured. */
  supportEmail: z.string(),
  partnersEmail: z.string(),
});

export const legalPaths = {
  /** A page's saved text (null: nobody saved it, show the shipped draft) and the contact addresses. */
  "/anon/legal/page": {
    auth: "anon",
    payload: z.object({ page: z.enum(LEGAL_PAGES) }),
    data: z.object({ text: legalTextSchema.nullable(), contact: contactAddressesSchema }),
  },
  /** Operations: each page's review state and the contact addresses with theirs. */
  "/sys/ops/legal/list": {
    auth: "operator",
    payload: z.object({}),
    data: z.object({
      pages: z.array(reviewSchema.extend({ page: z.enum(LEGAL_PAGES) })),
      contact: contactAddressesSchema.extend(reviewSchema.shape),
    }),
  },
  "/sys/ops/legal/detail": {
    auth: "operator",
    payload: z.object({ page: z.enum(LEGAL_PAGES) }),
    data: legalTextSchema.nullable(),
  },
  /** Saves a page's text in both languages: from now on the public page shows it, no longer marked as a draft. */
  "/sys/ops/legal/save": {
    auth: "operator",
    payload: z.object({ page: z.enum(LEGAL_PAGES), form: legalTextFormSchema }),
    data: z.object({ page: z.enum(LEGAL_PAGES) }),
  },
  /** Saves the contact addresses (an empty one: the contact page says none is configured). */
  "/sys/ops/legal/contact": {
    auth: "operator",
    payload: z.object({ form: contactAddressesFormSchema }),
    data: contactAddressesSchema,
  },
} satisfies Record<string, PathSpec>;
