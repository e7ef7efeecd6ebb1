import type * as z from "zod";

/**
 * The empty value of a /vueapi path's `data` schema: what a page shows when the backend answered
 * SPEC §8 MSG_32029 ("silent") to a load, so the page renders as if there were nothing rather than
 * failing. Objects get every field empty, lists [], text "", numbers 0, flags false, nullable and
 * optional fields null or nothing, an enum or literal its first value, a default its default.
 * Null when the schema does not accept the result (a rule that empty values break): the caller then
 * treats the answer as a failure.
 */
export function emptyDataOf<S extends z.ZodType>(schema: S): { data: z.output<S> } | null {
  const parsed = schema.safeParse(emptyOf(schema));
  return parsed.success ? { data: parsed.data } : null;
}

/** The parts of Zod 4's schema definition (`schema._zod.def`) that describe its structure. */
type Def = {
  type: string;
  shape: Record<string, z.ZodType>;
  entries: Record<string, unknown>;
  values: unknown[];
  options: z.ZodType[];
  in: z.ZodType;
  innerType: z.ZodType;
  getter: () => z.ZodType;
};

function emptyOf(schema: z.ZodType): unknown {
  const def = (schema as unknown as { _zod: { def: Def } })._zod.def;
  switch (def.type) {
    case "object":
      return Object.fromEntries(Object.entries(def.shape).map(([k, v]) => [k, emptyOf(v)]));
    case "array":
      return [];
    case "record":
      return {};
    case "string":
      return "";
    case "number":
      return 0;
    case "bigint":
      return BigInt(0);
    case "boolean":
      return false;
    case "enum":
      return Object.values(def.entries)[0];
    case "literal":
      return def.values[0];
    case "nullable":
    case "null":
      return null;
    case "optional":
    case "undefined":
    case "unknown":
    case "any":
      return undefined;
    case "default":
    case "prefault":
      // Nothing, so the schema puts its default in.
      return undefined;
    case "union":
      return emptyOf(def.options[0]);
    case "pipe":
      return emptyOf(def.in);
    case "catch":
    case "readonly":
    case "nonoptional":
      return emptyOf(def.innerType);
    case "lazy":
      return emptyOf(def.getter());
    default:
      return undefined;
  }
}
