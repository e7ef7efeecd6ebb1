import * as z from "zod";
import { anyPayload, nothing, type PathSpec } from "./path-spec.ts";
import { pageOf, pageRequestSchema } from "./platform.ts";
import { email, mobile, optionalText, required } from "./rules.ts";

/* ------------------------------------------------------------------------------------------------
 * SPEC §3 Profile (basic information) and §5 Profile: self-introduction, company profile, detailed address
 * and contact name cannot be empty. §6: the notification email and mobile change only through support, so
 * they are not part of the update. Real name, company name and credit code were checked at registration
 * (real-name and enterprise certification, §1) and are shown, not edited (docs/decisions/009).
 * ---------------------------------------------------------------------------------------------- */

/** §9 Company term options: under 3 years, over 3 years, under 10, over 10. */
export const TERM_OPTIONS = ["1", "2", "3", "4"] as const;
/** §9 Staff options: under 100, 100 to 300, 300 to 500, over 500. */
export const STAFF_OPTIONS = ["1", "2", "3", "4"] as const;

const longText = (max: number) => required().max(max, "validation.tooLong");
const optionalLong = (max: number) =>
  optionalText().refine((v) => v === undefined || v.length <= max, "validation.tooLong");

/** A web address: http(s) only. */
const optionalUrl = () =>
  optionalText().refine(
    (v) => v === undefined || (v.length <= 200 && /^https?:\/\/[^\s/$.?#][^\s]*$/i.test(v)),
    "validation.url.format",
  );

/** Fax: digits with an optional leading + and separators. */
const optionalFax = () =>
  optionalText().refine((v) => v === undefined || /^\+?[0-9][0-9 -]{4,19}$/.test(v), "validation.fax.format");

const individualFields = {
  country: longText(60),
  selfIntroduction: longText(500),
};

export const individualProfileSchema = z.object(individualFields);

export const enterpriseProfileSchema = z.object({
  ...individualFields,
  termOfBusiness: z.enum(TERM_OPTIONS, { error: "validation.required" }),
  staffCount: z.enum(STAFF_OPTIONS, { error: "validation.required" }),
  businessInformation: optionalLong(500),
  mainBusiness: optionalLong(200),
  companyProfile: longText(1000),
  companyUrl: optionalUrl(),
  companyAddress: longText(200),
  contactName: longText(50),
  fax: optionalFax(),
});

export const profileSchema = z.object({
  userType: z.union([z.literal(1), z.literal(2)]),
  userName: z.string(),
  realName: z.string(),
  email: z.string(),
  mobile: z.string().nullable(),
  country: z.string().nullable(),
  selfIntroduction: z.string().nullable(),
  companyName: z.string().nullable(),
  creditCode: z.string().nullable(),
  termOfBusiness: z.string().nullable(),
  staffCount: z.string().nullable(),
  businessInformation: z.string().nullable(),
  mainBusiness: z.string().nullable(),
  companyProfile: z.string().nullable(),
  companyUrl: z.string().nullable(),
  companyAddress: z.string().nullable(),
  contactName: z.string().nullable(),
  fax: z.string().nullable(),
});
export type Profile = z.infer<typeof profileSchema>;

/* ------------------------------------------------------------------------------------------------
 * SPEC §3 contact and §5 Contacts: name, mobile, email, department required; invalid email and mobile
 * give their messages.
 * ---------------------------------------------------------------------------------------------- */
export const contactFormSchema = z.object({
  name: longText(50),
  mobile: mobile(),
  email: email(),
  department: longText(100),
});

export const contactSchema = z.object({
  contactId: z.number().int(),
  name: z.string(),
  mobile: z.string(),
  email: z.string(),
  department: z.string(),
  createdAt: z.string(),
});
export type Contact = z.infer<typeof contactSchema>;

/** At most this many contacts per account. */
export const MAX_CONTACTS = 50;

export const profilePaths = {
  "/sys/system/clientInfo/profile": { auth: "user", permission: "read", payload: anyPayload, data: profileSchema },
  /**
   * The fields of the caller's account type: `individualProfileSchema` or `enterpriseProfileSchema`. The
   * backend picks the schema from the token's user, so the payload is checked there, field by field.
   */
  "/sys/system/clientInfo/updateProfile": {
    auth: "user",
    permission: "account",
    payload: anyPayload,
    data: profileSchema,
  },
  "/sys/system/clientInfo/contactList": {
    auth: "user",
    permission: "read",
    payload: pageRequestSchema,
    data: pageOf(contactSchema),
  },
  "/sys/system/clientInfo/contactDetail": {
    auth: "user",
    permission: "read",
    payload: z.object({ contactId: z.number().int() }),
    data: contactSchema,
  },
  /** Adds a contact, or updates one when `contactId` is given. */
  "/sys/system/clientInfo/insertContactList": {
    auth: "user",
    permission: "pay",
    payload: contactFormSchema.extend({ contactId: z.number().int().optional() }),
    data: contactSchema,
  },
  "/sys/system/clientInfo/deleteContact": {
    auth: "user",
    permission: "pay",
    payload: z.object({ contactId: z.number().int() }),
    data: nothing,
  },
} satisfies Record<string, PathSpec>;
