import type * as z from "zod";
import { badRequest } from "./api.server.ts";

/**
 * House habits 2 and 11: the forms of a route are told apart by their `intent` field. An action reads it
 * with this, then switches on it with one function per intent:
 *
 *   switch (intentOf(formData, ["save", "delete"])) {
 *     case "save": return save(...);
 *     case "delete": return remove(...);
 *   }
 *
 * A missing or unknown intent (or a file posted as one) is a 400, thrown as a Response.
 */
export function intentOf<const Intent extends string>(formData: FormData, intents: readonly Intent[]): Intent {
  const intent = formData.get("intent");
  if (typeof intent === "string" && (intents as readonly string[]).includes(intent)) return intent as Intent;
  throw badRequest();
}

/**
 * The values of a form the user does not type into (ids, keys, a choice made by a button), parsed by
 * `schema`; anything else is a 400, thrown as a Response (a form the user types into answers with
 * Conform's reply instead).
 */
export function parseFormOr400<S extends z.ZodType>(schema: S, formData: FormData): z.output<S> {
  const parsed = schema.safeParse(Object.fromEntries(formData));
  if (!parsed.success) throw badRequest();
  return parsed.data;
}
