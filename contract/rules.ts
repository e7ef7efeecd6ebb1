import * as z from "zod";

/**
 * Field rules of SPEC §5, written once. Every message is an i18n key of the `validation` namespace.
 * Schemas do not transform their input (apart from trimming), so the portal can forward the parsed
 * form value and the backend can parse the same value again with the same schema.
 */

/** A required string: missing (Conform turns "" into undefined) and "" both give `validation.required`. */
export const required = () =>
  z
    .string({
      error: (iss) => (iss.input === undefined || iss.input === null ? "validation.required" : "validation.invalid"),
    })
    .trim()
    .min(1, "validation.required");

export const optionalText = () =>
  z
    .string()
    .trim()
    .optional()
    .transform((v) => (v === "" ? undefined : v));

/** SPEC §5 Registration: 6-25 letters and digits, starting with a letter. */
export const USERNAME_RE = /^[A-Za-z][A-Za-z0-9]{5,24}$/;
export const username = () => required().regex(USERNAME_RE, "validation.username.format");

/** SPEC §5: the special characters a password may hold. */
export const PASSWORD_SPECIALS = "~!@#$%^&*";
const PASSWORD_CHARS_RE = /^[A-Za-z0-9~!@#$%^&*]+$/;

/**
 * SPEC §5 Registration password: 8-20 characters of letters, digits and ~!@#$%^&*, with at least two
 * of each class (two letters, two digits, two special characters). See docs/decisions/003.
 */
export function passwordProblem(value: string): string | null {
  if (value.length < 8 || value.length > 20) return "validation.password.length";
  if (!PASSWORD_CHARS_RE.test(value)) return "validation.password.chars";
  const letters = value.match(/[A-Za-z]/g)?.length ?? 0;
  const digits = value.match(/[0-9]/g)?.length ?? 0;
  const specials = value.match(/[~!@#$%^&*]/g)?.length ?? 0;
  if (letters < 2 || digits < 2 || specials < 2) return "validation.password.classes";
  return null;
}

export const password = () =>
  z
    .string({ error: (iss) => (iss.input === undefined ? "validation.required" : "validation.invalid") })
    .min(1, "validation.required")
    .superRefine((value, ctx) => {
      const problem = passwordProblem(value);
      if (problem) ctx.addIssue({ code: "custom", message: problem });
    });

/** SPEC §5 certificate and other forms: 6-20 letters and digits. */
export const shortSecret = () => required().regex(/^[A-Za-z0-9]{6,20}$/, "validation.shortSecret.format");

/** SPEC §5 Registration: a real name written in Chinese, at most 6 Chinese characters. */
export const REAL_NAME_RE = /^\p{Script=Han}{1,6}$/u;
/**
 * A real name written in the Latin script (docs/decisions/056): letters with their diacritics, and spaces,
 * hyphens, apostrophes and dots between or after them; it starts with a letter. 2-50 characters after NFC.
 */
export const LATIN_NAME_RE = /^\p{Script=Latin}\p{M}*(?:[\p{Script=Latin}\p{M} '’.-])*$/u;

/**
 * Which rule a real name falls under, or why it is refused: a name written in Chinese takes SPEC §5's rule
 * (1-6 Han characters); one in the Latin script takes 2-50 characters after NFC. A name mixing the two, or in
 * another script, is refused (docs/decisions/056).
 */
export function realNameProblem(value: string): string | null {
  const name = value.normalize("NFC");
  if (/\p{Script=Han}/u.test(name)) return REAL_NAME_RE.test(name) ? null : "validation.realName.format";
  const length = [...name].length;
  if (!LATIN_NAME_RE.test(name)) return "validation.realName.format";
  return length >= 2 && length <= 50 ? null : "validation.realName.latinLength";
}

export const realName = () =>
  required().superRefine((value, ctx) => {
    if (value === "") return; // required() said so
    const problem = realNameProblem(value);
    if (problem) ctx.addIssue({ code: "custom", message: problem });
  });

export const email = () => required().max(100, "validation.email.format").pipe(z.email("validation.email.format"));

/** An international mobile number: optional +, 6 to 15 digits, the first not 0. */
export const MOBILE_RE = /^\+?[1-9][0-9]{5,14}$/;
export const mobile = () => required().regex(MOBILE_RE, "validation.mobile.format");
export const optionalMobile = () =>
  optionalText().refine((v) => v === undefined || MOBILE_RE.test(v), "validation.mobile.format");

/** A checkbox that must be ticked (Conform submits "on"). */
export const ticked = (messageKey: string) => z.literal("on", { error: messageKey });

/** Keyboard rows and the alphabet: four neighbouring keys in a row, either way, make a sequence. */
const SEQUENCES = [
  "1234567890",
  "qwertyuiop",
  "asdfghjkl",
  "zxcvbnm",
  "abcdefghijklmnopqrstuvwxyz",
  "!@#$%^&*",
  "~!@#$%^&*",
];
const DEFAULT_PASSWORDS = new Set(
  [
    "password",
    "password1",
    "password123",
    "passw0rd",
    "p@ssw0rd",
    "p@ssword",
    "admin123",
    "admin@123",
    "12345678",
    "123456789",
    "1234567890",
    "11111111",
    "88888888",
    "00000000",
    "aa123456",
    "abc12345",
    "abcd1234",
    "qwer1234",
    "qwerty123",
    "1q2w3e4r",
    "1qaz2wsx",
    "demo12!@pass",
    "aa11!!aa",
    "root1234",
    "test1234",
    "welcome1",
  ].map((p) => p.toLowerCase()),
);

export function isKeyboardSequence(value: string, run = 4): boolean {
  const lower = value.toLowerCase();
  for (const row of SEQUENCES) {
    const reversed = [...row].reverse().join("");
    for (let i = 0; i + run <= lower.length; i++) {
      const piece = lower.slice(i, i + run);
      if (row.includes(piece) || reversed.includes(piece)) return true;
    }
  }
  return false;
}

export function isDefaultPassword(value: string): boolean {
  return DEFAULT_PASSWORDS.has(value.toLowerCase());
}

/** USD amounts on forms (SPEC §5 Money): up to 2 decimals, greater than 0, at most 1,000,000.00. */
export const MONEY_RE = /^(0|[1-9][0-9]{0,6})(\.[0-9]{1,2})?$/;
export const MAX_AMOUNT_CENTS = 100_000_000;

/** Integer cents of a form amount such as "12.5" (1250); exact, no floating point. */
export function toCents(value: string): number {
  const [whole, fraction = ""] = value.trim().split(".");
  return Number(whole) * 100 + Number((fraction + "00").slice(0, 2));
}

/** A form amount in USD, kept as the typed string; the backend converts it with `toCents`. */
export const moneyAmount = () =>
  z
    .string({
      error: (iss) =>
        iss.input === undefined || iss.input === null ? "validation.amount.required" : "validation.amount.format",
    })
    .trim()
    .min(1, "validation.amount.required")
    .superRefine((value, ctx) => {
      if (!MONEY_RE.test(value)) return void ctx.addIssue({ code: "custom", message: "validation.amount.format" });
      const amount = toCents(value);
      if (amount <= 0) ctx.addIssue({ code: "custom", message: "validation.amount.positive" });
      else if (amount > MAX_AMOUNT_CENTS) ctx.addIssue({ code: "custom", message: "validation.amount.max" });
    });

/** SPEC §5 review comments (services, refunds, participations, products): at most this many characters. */
export const REVIEW_COMMENTS_MAX = 500;

/** The fields of an approve/reject decision in a /vueapi payload: optional review comments. */
export const decisionFields = () => ({
  decision: z.enum(["approve", "reject"]),
  comments: z.string().trim().max(REVIEW_COMMENTS_MAX, "validation.tooLong").optional(),
});

/**
 * A decision form on one item (`item`: its id field), one schema for Conform and the action: review
 * comments are required to reject (SPEC §5 "Review comments are required").
 */
export function decisionFormSchema<T extends z.ZodRawShape>(item: T) {
  return z.object({ ...item, ...decisionFields() }).superRefine((value, ctx) => {
    const v = value as { decision: "approve" | "reject"; comments?: string };
    if (v.decision === "reject" && !v.comments)
      ctx.addIssue({ code: "custom", path: ["comments"], message: "validation.required" });
  });
}

/** A key the form carries so that submitting it twice does the work once (issued by the loader). */
export const idempotencyKey = () =>
  z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{16,64}$/, "validation.invalid");
