import * as z from "zod";
import type { Permission } from "./team-roles.ts";

/**
 * Who may call a path or a download kind. `auth`: "anon" needs no token; "user" needs a valid token;
 * "operator" needs an operator's token (others get code 4, SPEC §8). A "user" path declares the
 * `permission` the acting member's role must have (contract/team-roles.ts, docs/decisions/075): without
 * one it does not typecheck.
 */
export type Access =
  | { readonly auth: "anon" | "operator"; readonly permission?: undefined }
  | { readonly auth: "user"; readonly permission: Permission };

/** One /vueapi path: who may call it and the Zod schemas of its payload and of its `data`. */
export type PathSpec = Access & {
  payload: z.ZodType;
  data: z.ZodType;
  /**
   * The path also accepts an operator's token that has not passed the second factor yet (the two-factor
   * paths and logout; docs/decisions/022). Every other path refuses such a token with code 3.
   */
  readonly beforeSecondFactor?: true;
};

/** A payload with no fields of its own (userLanguage and portalCode are removed before validation). */
export const anyPayload = z.object({}).passthrough();
/** A path that answers no data. */
export const nothing = z.null().optional();
