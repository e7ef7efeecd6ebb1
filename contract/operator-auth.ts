import * as z from "zod";
import type { PathSpec } from "./path-spec.ts";
import { required } from "./rules.ts";

/* ------------------------------------------------------------------------------------------------
 * Operators' second factor (docs/decisions/022): TOTP (RFC 6238: SHA-1, 6 digits, 30 s) enrolled once,
 * then asked for at every login, with 10 single-use recovery codes.
 * ---------------------------------------------------------------------------------------------- */

export const TOTP_DIGITS = 6;
export const TOTP_PERIOD_SECONDS = 30;
export const RECOVERY_CODE_COUNT = 10;

/** A 6-digit authentication code. */
export const TOTP_CODE_RE = /^[0-9]{6}$/;
/** A recovery code as shown, "xxxxx-xxxxx" (10 characters of a-z and 2-7); case, spaces and dashes are ignored. */
export const RECOVERY_CODE_RE = /^[a-z2-7]{10}$/;

/** The code as typed, without spaces and dashes, lower case. */
export function normaliseSecondFactorCode(value: string): string {
  return value.replace(/[\s-]/g, "").toLowerCase();
}

/** Enrolment is confirmed with a code of the new authenticator. */
export const enrolConfirmSchema = z.object({
  code: required().refine(
    (v) => v === "" || TOTP_CODE_RE.test(normaliseSecondFactorCode(v)),
    "auth:twoFactor.validation.digits",
  ),
});

/** The second step of a login: a 6-digit code or one of the recovery codes. */
export const secondFactorSchema = z.object({
  code: required()
    .max(40, "auth:twoFactor.validation.format")
    .refine((v) => {
      const code = normaliseSecondFactorCode(v);
      // An empty field is told once, as required.
      return v === "" || TOTP_CODE_RE.test(code) || RECOVERY_CODE_RE.test(code);
    }, "auth:twoFactor.validation.format"),
});

/** What login answers about the second step: enrol first, give a code, or nothing (not an operator). */
export const SECOND_FACTOR_STEPS = ["enrol", "verify"] as const;
export type SecondFactorStep = (typeof SECOND_FACTOR_STEPS)[number];

export const enrolmentSchema = z.discriminatedUnion("enrolled", [
  z.object({ enrolled: z.literal(true) }),
  z.object({
    enrolled: z.literal(false),
    /** The secret in base32, for typing it in by hand (grouped by 4 when shown). */
    secret: z.string(),
    /** The otpauth:// URI the QR code holds. */
    otpauthUri: z.string(),
    /** The QR code as an SVG data: URI, so the page needs no script and no second request. */
    qrImage: z.string(),
  }),
]);

export const operatorAuthPaths = {
  /** The operator's enrolment: the pending secret (made on first call, the same until confirmed), or enrolled. */
  "/main/mfa/enrolment": { auth: "operator", beforeSecondFactor: true, payload: z.object({}), data: enrolmentSchema },
  /** Confirms the enrolment with a code; answers the recovery codes, shown this once. */
  "/main/mfa/confirm": {
    auth: "operator",
    beforeSecondFactor: true,
    payload: enrolConfirmSchema,
    data: z.object({ recoveryCodes: z.array(z.string()) }),
  },
  /** The second step of a login; the token is then good for every operator path. */
  "/main/mfa/verify": {
    auth: "operator",
    beforeSecondFactor: true,
    payload: secondFactorSchema,
    data: z.object({ method: z.enum(["totp", "recovery"]), recoveryCodesLeft: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;

/** Tests only (TEST_FIXTURES=1, refused in production): the caller becomes an operator with no second factor yet. */
export const operatorAuthFixturePaths = {
  "/test/accounts/operator": { auth: "user", permission: "own", payload: z.object({}), data: z.null().optional() },
} satisfies Record<string, PathSpec>;
