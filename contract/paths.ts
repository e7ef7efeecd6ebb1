import * as z from "zod";
import {
  activateSchema,
  captchaDataSchema,
  forgetDataSchema,
  forgetSchema,
  loginDataSchema,
  loginSchema,
  registerDataSchema,
  registerPayloadSchema,
  resetCodeSchema,
  resetPasswordSchema,
  userSchema,
} from "./accounts";
import { cityNodeSchema, homeSummarySchema, messageListSchema, pageRequestSchema } from "./platform";

import { anyPayload, nothing, type PathSpec } from "./path-spec";
import { billingPaths } from "./billing";
import { paymentPaths } from "./payments";
import { invoicePaths } from "./invoices";
import { profilePaths } from "./profile";
import { servicePaths } from "./services";
import { testingPaths } from "./testing";
import { serviceWizardPaths } from "./service-wizard";
import { storePaths } from "./store";
import { participationPaths } from "./participation";
import { operatorAuthFixturePaths, operatorAuthPaths, SECOND_FACTOR_STEPS } from "./operator-auth";
import { auditPaths } from "./audit";

export type { PathSpec } from "./path-spec";

/**
 * The /vueapi paths (SPEC §7) with their payload and `data` schemas: written once, imported by the
 * portal's request layer and by the backend's router. Each domain keeps its paths in its own module
 * (contract/billing.ts, payments.ts, invoices.ts, profile.ts) and they are merged here.
 *
 * Change password is validated against the user's name, so its payload schema is built by the backend
 * with the token's user (see `changePasswordSchema`).
 */
const accountPaths = {
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
  "/anon/platform/cityNodes": { auth: "anon", payload: anyPayload, data: z.array(cityNodeSchema) },
  "/main/user/logout": { auth: "user", beforeSecondFactor: true, payload: anyPayload, data: nothing },
  "/main/getClientInfo": { auth: "user", payload: anyPayload, data: userSchema },
  "/main/updatePassword": { auth: "user", payload: anyPayload, data: nothing },
  "/main/home/summary": { auth: "user", payload: anyPayload, data: homeSummarySchema },
  "/sys/system/message/list": { auth: "user", payload: pageRequestSchema, data: messageListSchema },
  "/sys/system/message/read": {
    auth: "user",
    payload: z.object({ messageIds: z.array(z.number().int()).max(200).optional(), all: z.boolean().optional() }),
    data: z.object({ unread: z.number().int() }),
  },
} satisfies Record<string, PathSpec>;

export const paths = {
  ...accountPaths,
  ...billingPaths,
  ...paymentPaths,
  ...invoicePaths,
  ...profilePaths,
  ...servicePaths,
  ...testingPaths,
  ...serviceWizardPaths,
  ...storePaths,
  ...participationPaths,
  ...operatorAuthPaths,
  ...operatorAuthFixturePaths,
  ...auditPaths,
} satisfies Record<string, PathSpec>;

export type VueapiPath = keyof typeof paths;
export type PayloadOf<P extends VueapiPath> = z.input<(typeof paths)[P]["payload"]>;
export type DataOf<P extends VueapiPath> = z.output<(typeof paths)[P]["data"]>;

/** SPEC §7: paths that receive portalCode 1 on portal pages (inside `condition` when paged). */
export const PORTAL_CODE_PATHS: readonly string[] = ["/anon/platform/cityNodes"];
