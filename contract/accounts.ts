import * as z from "zod";
import { SECOND_FACTOR_STEPS } from "./operator-auth.ts";
import { anyPayload, nothing, type PathSpec } from "./path-spec.ts";
import {
  email,
  isDefaultPassword,
  isKeyboardSequence,
  optionalMobile,
  password,
  realName,
  required,
  ticked,
  username,
} from "./rules.ts";
import { UPLOAD_KINDS, uploadRefSchema } from "./uploads.ts";
import { TEAM_ROLES } from "./team-roles.ts";
import { creditCodeProblem } from "./certification.ts";

/* ----------------------------------------------------------------------------------------------
 * Forms (SPEC §5 Login, Registration, Password reset, Change password). Each schema is used by the
 * portal action (parseWithZod), by useForm on the client, and by the backend on the payload.
 * -------------------------------------------------------------------------------------------- */

export const captchaFields = {
  captchaKey: required(),
  captcha: z.string({ error: "errors:MSG_20002" }).trim().min(1, "errors:MSG_20002"),
};

/** SPEC §5 Login: username or email, password and captcha are all required. */
export const loginSchema = z.object({
  username: required().max(100, "validation.invalid"),
  password: z.string({ error: "validation.required" }).min(1, "validation.required").max(100, "validation.invalid"),
  ...captchaFields,
});
export type LoginInput = z.infer<typeof loginSchema>;

export const USER_TYPE = { INDIVIDUAL: "1", ENTERPRISE: "2" } as const;

/**
 * SPEC §5 Unified credit code: at least 8 characters (letters and digits, at most 18 as issued); when the country
 * is China, the GB 32100 code (18 characters, check digit): `creditCodeMatchesCountry` (docs/decisions/071).
 */
export const creditCode = () => required().regex(/^[A-Za-z0-9]{8,18}$/, "validation.creditCode.format");

const registerBase = {
  userName: username(),
  password: password(),
  confirmPassword: z.string({ error: "validation.required" }).min(1, "validation.required"),
  realName: realName(),
  email: email(),
  mobile: optionalMobile(),
  ...captchaFields,
  agreeTerms: ticked("validation.agreeTerms"),
  agreePrivacy: ticked("validation.agreePrivacy"),
};

const enterpriseFields = {
  companyName: required().max(100, "validation.tooLong"),
  companyAddress: required().max(200, "validation.tooLong"),
  contactName: required().max(50, "validation.tooLong"),
  country: required().max(60, "validation.tooLong"),
  creditCode: creditCode(),
};

/** The credit code's rule for the country given (China: GB 32100), once the code has the general form. */
export function creditCodeMatchesCountry(
  value: { country?: string; creditCode?: string },
  ctx: z.RefinementCtx,
  path: string = "creditCode",
) {
  const code = value.creditCode ?? "";
  if (!/^[A-Za-z0-9]{8,18}$/.test(code)) return;
  const problem = creditCodeProblem(value.country, code);
  if (problem) ctx.addIssue({ code: "custom", path: [path], message: problem });
}

function confirmMatches<T extends { password: string; confirmPassword: string }>(value: T, ctx: z.RefinementCtx) {
  if (value.password !== value.confirmPassword) {
    ctx.addIssue({ code: "custom", path: ["confirmPassword"], message: "validation.confirmMismatch" });
  }
}

/**
 * Registration fields without the licence file, shared by the portal form and the backend payload;
 * the licence travels as a File in the form and as an upload (its upload id) in the payload.
 */
export const registerFieldsSchema = z
  .discriminatedUnion(
    "userType",
    [
      z.object({ userType: z.literal(USER_TYPE.INDIVIDUAL), ...registerBase }),
      z.object({ userType: z.literal(USER_TYPE.ENTERPRISE), ...registerBase, ...enterpriseFields }),
    ],
    { error: "validation.userType" },
  )
  .superRefine((value, ctx) => {
    confirmMatches(value, ctx);
    if (value.userType === USER_TYPE.ENTERPRISE) creditCodeMatchesCountry(value, ctx);
  });
export type RegisterFields = z.infer<typeof registerFieldsSchema>;

/** SPEC §5 / §9: the enterprise licence is at most 8 MB; pdf or image. */
export const LICENCE_MAX_BYTES = UPLOAD_KINDS.licence.maxBytes;
export const LICENCE_TYPES = ["application/pdf", "image/png", "image/jpeg"] as const;
export const LICENCE_EXTENSIONS = [".pdf", ".png", ".jpg", ".jpeg"] as const;

export function licenceProblem(file: { name: string; size: number; type: string }): string | null {
  if (file.size === 0) return "validation.licence.required";
  if (file.size > LICENCE_MAX_BYTES) return "validation.licence.tooLarge";
  const lower = file.name.toLowerCase();
  if (!LICENCE_EXTENSIONS.some((ext) => lower.endsWith(ext))) return "validation.licence.type";
  if (file.type && !(LICENCE_TYPES as readonly string[]).includes(file.type)) return "validation.licence.type";
  if (file.name.length > 50) return "validation.fileNameTooLong";
  return null;
}

/** The licence of a registration: uploaded beforehand (contract/uploads.ts), named by its upload id. */
export const licencePayloadSchema = uploadRefSchema;

export const registerPayloadSchema = z
  .object({ payload: registerFieldsSchema, licence: licencePayloadSchema.optional() })
  .superRefine((value, ctx) => {
    if (value.payload.userType === USER_TYPE.ENTERPRISE && !value.licence) {
      ctx.addIssue({ code: "custom", path: ["licence"], message: "validation.licence.required" });
    }
  });

export const activateSchema = z.object({ token: required().max(200, "validation.invalid") });

/** SPEC §2 Forget: the account (username, email or mobile) whose password is to be reset. */
export const RETRIEVE_WAY = { EMAIL: "email" } as const;
export const forgetSchema = z.object({
  phone: required().max(100, "validation.invalid"),
  retrieveWay: z.literal(RETRIEVE_WAY.EMAIL, { error: "validation.invalid" }).default(RETRIEVE_WAY.EMAIL),
  ...captchaFields,
});

export const resetCodeSchema = z.object({
  phone: required().max(100, "validation.invalid"),
  retrieveWay: z.literal(RETRIEVE_WAY.EMAIL, { error: "validation.invalid" }),
  captcha: required().regex(/^[0-9]{6}$/, "validation.resetCode.format"),
});

/** SPEC §5 Password reset: the same password rule; confirmation must match. */
export const resetPasswordSchema = z
  .object({
    phone: required().max(100, "validation.invalid"),
    retrieveWay: z.literal(RETRIEVE_WAY.EMAIL, { error: "validation.invalid" }),
    captcha: required().regex(/^[0-9]{6}$/, "validation.resetCode.format"),
    password: password(),
    confirmPassword: z.string({ error: "validation.required" }).min(1, "validation.required"),
  })
  .superRefine(confirmMatches);

/**
 * SPEC §5 Change password: all three required, new = confirm, new ≠ old, no username inside, not a
 * default or keyboard-sequence password; plus the registration password rule.
 * `userName` is supplied by the caller (the portal from its session, the backend from the token).
 */
export function changePasswordSchema(userName: string) {
  return z
    .object({
      oldPassword: z.string({ error: "validation.required" }).min(1, "validation.required"),
      password: password(),
      confirmPassword: z.string({ error: "validation.required" }).min(1, "validation.required"),
    })
    .superRefine((value, ctx) => {
      confirmMatches(value, ctx);
      const pw = value.password;
      if (!pw) return;
      if (pw === value.oldPassword) {
        ctx.addIssue({ code: "custom", path: ["password"], message: "validation.password.sameAsOld" });
      }
      for (const message of passwordStrengthProblems(pw, userName))
        ctx.addIssue({ code: "custom", path: ["password"], message });
    });
}

/**
 * The rules a chosen password follows beyond the registration rule (docs/decisions/003): no username inside
 * (case-insensitive), not a default password, no keyboard sequence. Answers their message keys.
 */
export function passwordStrengthProblems(pw: string, userName: string): string[] {
  const problems: string[] = [];
  if (userName && pw.toLowerCase().includes(userName.toLowerCase()))
    problems.push("validation.password.containsUsername");
  if (isDefaultPassword(pw)) problems.push("validation.password.default");
  else if (isKeyboardSequence(pw)) problems.push("validation.password.sequence");
  return problems;
}

/**
 * An operator account made on the server with `npm run operator:create` (backend/operator-cli.ts): the §5
 * rules of registration (username, email, real name, mobile, password) and of a chosen password.
 */
export const operatorAccountSchema = z
  .object({
    userName: username(),
    email: email(),
    realName: realName(),
    mobile: optionalMobile(),
    password: password(),
  })
  .superRefine((value, ctx) => {
    for (const message of passwordStrengthProblems(value.password, value.userName))
      ctx.addIssue({ code: "custom", path: ["password"], message });
  });

/* ----------------------------------------------------------------------------------------------
 * Response data shapes.
 * -------------------------------------------------------------------------------------------- */

export const userSchema = z.object({
  userId: z.number().int(),
  userName: z.string(),
  realName: z.string(),
  email: z.string(),
  mobile: z.string().nullable(),
  /** SPEC §3 user type: 1 individual, 2 enterprise. */
  userType: z.union([z.literal(1), z.literal(2)]),
  companyName: z.string().nullable(),
  /** user | operator */
  role: z.enum(["user", "operator"]),
  createdAt: z.string(),
  lastLoginAt: z.string().nullable(),
});
export type User = z.infer<typeof userSchema>;

/**
 * getClientInfo: the account the session acts for (the user above) and the login acting in it with its role
 * (issue 33, docs/decisions/075); `member` is the account's own login, owner, unless the session switched.
 */
export const clientInfoSchema = userSchema.extend({
  member: z
    .object({
      memberId: z.number().int(),
      userName: z.string(),
      realName: z.string().nullable(),
      role: z.enum(TEAM_ROLES),
    })
    .optional(),
});

export const captchaDataSchema = z.object({
  captchaKey: z.string(),
  /** A PNG image as a data: URI, so the page needs no second request and no JavaScript. */
  image: z.string(),
  expiresInSeconds: z.number().int(),
  /**
   * The proof-of-work challenge (ALTCHA, docs/decisions/061) that a page with JavaScript solves instead: its
   * solution goes back as `captcha` with `captchaKey` "pow".
   */
  pow: z.object({
    algorithm: z.string(),
    challenge: z.string(),
    maxnumber: z.number().int(),
    salt: z.string(),
    signature: z.string(),
  }),
});

export const loginDataSchema = z.object({ token: z.string(), user: userSchema });
export const registerDataSchema = z.object({ userName: z.string(), email: z.string() });
export const forgetDataSchema = z.object({ phone: z.string(), maskedEmail: z.string() });
export const emptyDataSchema = z.null().or(z.undefined()).or(z.object({}).passthrough());
export const logoutEverywhereDataSchema = z.object({ sessions: z.number().int().nonnegative() });

/**
 * The /vueapi paths of registration, activation, login, password reset and change (SPEC §7). Change password
 * is validated against the user's name, so its payload schema is built by the backend with the token's user
 * (see `changePasswordSchema`).
 */
export const accountPaths = {
  "/anon/captcha/create": { auth: "anon", payload: anyPayload, data: captchaDataSchema },
  "/anon/user/register": { auth: "anon", payload: registerPayloadSchema, data: registerDataSchema },
  "/anon/user/activate": { auth: "anon", payload: activateSchema, data: z.object({ userName: z.string() }) },
  "/anon/password/sendResetCode": { auth: "anon", payload: forgetSchema, data: forgetDataSchema },
  "/anon/password/checkResetCode": { auth: "anon", payload: resetCodeSchema, data: nothing },
  "/main/updateEmailPassword": { auth: "anon", payload: resetPasswordSchema, data: nothing },
  "/main/user/login": {
    auth: "anon",
    payload: loginSchema,
    // An operator's token is good only for the second step until it is passed (docs/decisions/022).
    data: loginDataSchema.extend({ secondFactor: z.enum(SECOND_FACTOR_STEPS).nullable() }),
  },
  "/main/user/logout": {
    auth: "user",
    permission: "own",
    beforeSecondFactor: true,
    payload: anyPayload,
    data: nothing,
  },
  /** Revokes every live token of the account, the caller's too (docs/decisions/021); answers how many. */
  "/main/user/logoutEverywhere": {
    auth: "user",
    permission: "own",
    payload: anyPayload,
    data: logoutEverywhereDataSchema,
  },
  "/main/getClientInfo": { auth: "user", permission: "read", payload: anyPayload, data: clientInfoSchema },
  "/main/updatePassword": { auth: "user", permission: "own", payload: anyPayload, data: nothing },
} satisfies Record<string, PathSpec>;
