import * as z from "zod";
import type { DownloadSpec } from "./download-spec.ts";
import { Msg } from "./messages.ts";
import type { PathSpec } from "./path-spec.ts";
import { decisionFields, required } from "./rules.ts";
import { defineMachine } from "./state-machine.ts";
import { uploadRefSchema } from "./uploads.ts";

/* ------------------------------------------------------------------------------------------------
 * Enterprise certification, reviewed by operations (issue 31 item 3; docs/decisions/071). SPEC §1 and §6 say
 * enterprise certification gates company products; SPEC gives no states, so these are ours:
 *
 * | state | meaning        |
 * |-------|----------------|
 * | 0     | not submitted  |
 * | 1     | pending review |
 * | 5     | rejected       |
 * | 10    | approved       |
 *
 * | event   | actor    | from  | to | comments |
 * |---------|----------|-------|----|----------|
 * | submit  | user     | 0, 5  | 1  |          |
 * | approve | operator | 1     | 10 |          |
 * | reject  | operator | 1     | 5  | required |
 * ---------------------------------------------------------------------------------------------- */

export const CertState = { NONE: 0, PENDING: 1, REJECTED: 5, APPROVED: 10 } as const;
export type CertStateValue = (typeof CertState)[keyof typeof CertState];
export const CERT_STATES: readonly CertStateValue[] = [
  CertState.NONE,
  CertState.PENDING,
  CertState.REJECTED,
  CertState.APPROVED,
];

const C = CertState;

export const certificationMachine = defineMachine<
  CertStateValue,
  "submit" | "approve" | "reject",
  "user" | "operator",
  { comments?: string | null }
>({
  name: "enterprise certification",
  states: CERT_STATES,
  actors: ["user", "operator"],
  rules: [
    { event: "submit", actor: "user", from: [C.NONE, C.REJECTED], to: C.PENDING },
    { event: "approve", actor: "operator", from: [C.PENDING], to: C.APPROVED },
    { event: "reject", actor: "operator", from: [C.PENDING], to: C.REJECTED, commentsRequired: true },
  ],
  refusals: {
    notAvailable: Msg.CERT_NOT_AVAILABLE,
    notAllowed: Msg.NO_PERMISSION,
    commentsRequired: Msg.COMMENTS_REQUIRED,
  },
});

/** Whether an account may use what enterprise certification gates (company products, the DID credential). */
export const isCertified = (user: { userType: number; certState: number }) =>
  user.userType === 2 && user.certState === CertState.APPROVED;

/* ------------------------------------------------------------------------------------------------ credit code */

/** GB 32100-2015: the 31 characters of a unified social credit code (no I, O, Z, S, V), by value. */
export const USCC_ALPHABET = "0123456789ABCDEFGHJKLMNPQRTUWXY";
/** The weights of the first 17 characters: 3^i mod 31. */
export const USCC_WEIGHTS = [1, 3, 9, 27, 19, 26, 16, 17, 20, 29, 25, 13, 8, 24, 10, 30, 28] as const;

/** The check character of the first 17 characters of a code, or null when one is not in the alphabet. */
export function usccCheckChar(first17: string): string | null {
  if (first17.length !== 17) return null;
  let sum = 0;
  for (let i = 0; i < 17; i++) {
    const value = USCC_ALPHABET.indexOf(first17[i]!);
    if (value < 0) return null;
    sum += value * USCC_WEIGHTS[i]!;
  }
  const check = (31 - (sum % 31)) % 31;
  return USCC_ALPHABET[check]!;
}

/** A unified social credit code: 18 characters of the alphabet whose last is the check character. */
export function isValidUscc(code: string): boolean {
  const upper = code.toUpperCase();
  return upper.length === 18 && usccCheckChar(upper.slice(0, 17)) === upper[17];
}

/** Whether a country as typed names China (the country field is free text). */
export function isChina(country: string | null | undefined): boolean {
  const c = (country ?? "").trim().toLowerCase().replace(/\s+/g, " ");
  return [
    "china",
    "cn",
    "chn",
    "prc",
    "中国",
    "中华人民共和国",
    "people's republic of china",
    "mainland china",
  ].includes(c);
}

/**
 * The refusal of a credit code for a country, as a message key (forms namespace), or null. China: exactly 18
 * characters passing the GB 32100 check digit; elsewhere SPEC §5's "at least 8" (letters and digits, at most 18).
 */
export function creditCodeProblem(country: string | null | undefined, code: string): string | null {
  const v = code.trim();
  if (!v) return "validation.required";
  if (isChina(country)) {
    if (v.length !== 18) return "validation.creditCode.china";
    if (!isValidUscc(v)) return "validation.creditCode.checkDigit";
    return null;
  }
  return /^[A-Za-z0-9]{8,18}$/.test(v) ? null : "validation.creditCode.format";
}

/* ------------------------------------------------------------------------------------------------ paths */

/** The user's answer to a rejection: the credit code again (kept or corrected) and a new licence. */
export const resubmitFieldsSchema = z.object({ creditCode: required().max(18, "validation.creditCode.format") });

export const certificationSchema = z.object({
  userType: z.number().int(),
  state: z.number().int(),
  reason: z.string().nullable(),
  companyName: z.string().nullable(),
  country: z.string().nullable(),
  creditCode: z.string().nullable(),
  licenceName: z.string().nullable(),
  submittedAt: z.string().nullable(),
  decidedAt: z.string().nullable(),
});
export type Certification = z.infer<typeof certificationSchema>;

export const certificationRowSchema = z.object({
  userId: z.number().int(),
  userName: z.string(),
  companyName: z.string().nullable(),
  country: z.string().nullable(),
  creditCode: z.string().nullable(),
  /** Whether the credit code passes the check digit (China only; null elsewhere). */
  checkDigitOk: z.boolean().nullable(),
  licenceName: z.string().nullable(),
  state: z.number().int(),
  reason: z.string().nullable(),
  submittedAt: z.string().nullable(),
});
export type CertificationRow = z.infer<typeof certificationRowSchema>;

export const certificationReviewSchema = z
  .object({ userId: z.coerce.number().int().positive(), ...decisionFields() })
  .superRefine((v, ctx) => {
    if (v.decision === "reject" && !v.comments)
      ctx.addIssue({ code: "custom", path: ["comments"], message: "validation.required" });
  });

/* contract/platform.ts imports contract/accounts.ts, which imports this module: the page shape is written here. */
const pagingFields = {
  pageIndex: z.number().int().min(1).default(1),
  pageSize: z.number().int().min(1).max(50).default(10),
};
const certificationPageSchema = z.object({
  page: z.object({
    rows: z.array(certificationRowSchema),
    total: z.number().int(),
    pageIndex: z.number().int(),
    pageSize: z.number().int(),
  }),
});

export const certificationPaths = {
  "/sys/system/clientInfo/certification": {
    auth: "user",
    permission: "read",
    payload: z.object({}).passthrough(),
    data: certificationSchema,
  },
  /** Answers a rejection (5 → 1), or submits an enterprise account that never did (0 → 1). */
  "/sys/system/clientInfo/resubmitCertification": {
    auth: "user",
    permission: "account",
    payload: z.object({ creditCode: required().max(18, "validation.creditCode.format"), licence: uploadRefSchema }),
    data: z.object({ state: z.number().int() }),
  },
  "/sys/ops/certifications/list": {
    auth: "operator",
    payload: z.object({ ...pagingFields, status: z.enum(["open", "all"]).default("open") }),
    data: certificationPageSchema,
  },
  "/sys/ops/certifications/review": {
    auth: "operator",
    payload: certificationReviewSchema,
    data: z.object({ userId: z.number().int(), state: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;

/** The licence an account uploaded, for the operators reviewing it. */
export const certificationDownloads = {
  "ops-certification-licence": { auth: "operator", payload: z.object({ userId: z.number().int().positive() }) },
} satisfies Record<string, DownloadSpec>;
