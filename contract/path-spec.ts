import * as z from "zod";

/**
 * One /vueapi path: who may call it and the Zod schemas of its payload and of its `data`.
 * `auth`: "anon" needs no token; "user" needs a valid token; "operator" needs an operator's token
 * (others get code 4, SPEC §8).
 */
export type PathSpec = {
  readonly auth: "anon" | "user" | "operator";
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
