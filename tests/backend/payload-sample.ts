import type * as z from "zod";

type Leaf = string | ((leaf: z.ZodType) => string);

/**
 * A payload shaped like a path's Zod schema whose strings are `text` (or what `text` gives for each
 * string's own schema): numbers are 1, booleans true, enums and literals their first value, arrays and
 * records one element, optional and nullable fields present. It follows the schema's shape; refinements
 * across fields are not honoured. Used by the suites that send refused text (NUL, lone surrogates) to
 * every path of contract/paths.ts.
 */
export function sampleOf(schema: z.ZodType, text: Leaf): unknown {
  // Zod 4's schema definition, which describes the schema's structure.
  const def = (schema as unknown as { _zod: { def: Record<string, any> } })._zod.def;
  switch (def.type) {
    case "object":
      return Object.fromEntries(
        Object.entries(def.shape as Record<string, z.ZodType>).map(([k, v]) => [k, sampleOf(v, text)]),
      );
    case "string":
    case "unknown":
    case "any":
      return typeof text === "string" ? text : text(schema);
    case "number":
    case "bigint":
      return 1;
    case "boolean":
      return true;
    case "enum":
      return Object.values(def.entries as Record<string, unknown>)[0];
    case "literal":
      return (def.values as unknown[])[0];
    case "array":
      return [sampleOf(def.element, text)];
    case "record":
      return { [String(sampleOf(def.keyType, text) ?? "k")]: sampleOf(def.valueType, text) };
    case "union":
      return sampleOf(def.options[0], text);
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "catch":
    case "readonly":
    case "nonoptional":
      return sampleOf(def.innerType, text);
    case "pipe":
      return sampleOf(def.in, text);
    case "lazy":
      return sampleOf(def.getter(), text);
    case "null":
      return null;
    default:
      return undefined;
  }
}

/** Strings that pass common field rules (names, e-mail, passwords, phone numbers, keys, amounts, dates). */
const CANDIDATES = [
  "Abcdef12",
  "test@example.com",
  "Gd47!@kw",
  "测试",
  "+8613800138000",
  "abcdefghijklmnop1234",
  "12.50",
  "2026-01-01",
  "1",
  "x",
];

/** A string its field's schema accepts, when one of the candidates does ("x" otherwise). */
export function plausible(leaf: z.ZodType): string {
  return CANDIDATES.find((c) => leaf.safeParse(c).success) ?? "x";
}

/**
 * Payloads that reach as deep as a careless client's would: every string plausible for its field except
 * one, which is its plausible value followed by `text`; one payload per string field.
 */
export function oneFieldVariants(schema: z.ZodType, text: string): unknown[] {
  let count = 0;
  sampleOf(schema, () => String(count++));
  return Array.from({ length: count }, (_, i) => {
    let n = 0;
    return sampleOf(schema, (leaf) => (n++ === i ? plausible(leaf) + text : plausible(leaf)));
  });
}

/** The dotted paths (as the router names fields) of the strings and keys of `value` that contain `text`. */
export function pathsOf(value: unknown, text: string, at: string[] = []): string[] {
  if (typeof value === "string") return value.includes(text) ? [at.join(".")] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => pathsOf(v, text, [...at, String(i)]));
  if (value && typeof value === "object") {
    // A key holding `text` names its field once, whatever its value holds.
    return Object.entries(value).flatMap(([k, v]) =>
      k.includes(text) ? [[...at, k].join(".")] : pathsOf(v, text, [...at, k]),
    );
  }
  return [];
}
