import * as z from "zod";
import { paths, type VueapiPath } from "#contract/paths.ts";

/**
 * What the security suites read from the contract (contract/paths.ts): each path's payload as JSON Schema
 * (z.toJSONSchema, input side), the id-like fields in it, and a minimal valid payload built from it.
 */

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type JsonObject = { [key: string]: Json };

export type Schema = {
  type?: string | string[];
  properties?: Record<string, Schema>;
  required?: string[];
  items?: Schema;
  anyOf?: Schema[];
  oneOf?: Schema[];
  allOf?: Schema[];
  enum?: Json[];
  const?: Json;
  minLength?: number;
  maxLength?: number;
  pattern?: string;
  minimum?: number;
  exclusiveMinimum?: number;
  maximum?: number;
  minItems?: number;
  additionalProperties?: unknown;
};

export const allPaths = Object.keys(paths) as VueapiPath[];

export function jsonSchemaOf(path: VueapiPath): Schema {
  return z.toJSONSchema(paths[path].payload, { io: "input", unrepresentable: "any" }) as Schema;
}

/** Field names that name a record: ending in Id, Ids, No or Ref, `id` itself, and the join ticket. */
export const ID_NAME = /(Id|Ids|No|Ref)$|^id$|^ticket$/;

/** Where a field sits in a payload: object keys, "[]" for every element of an array. */
export type FieldPath = string[];
export type IdField = { at: FieldPath; name: string; key: string };

const alternatives = (s: Schema) => [...(s.anyOf ?? []), ...(s.oneOf ?? []), ...(s.allOf ?? [])];

/** The id-like fields of a path's payload, with their place (every branch of a union counted once). */
export function idFieldsOf(path: VueapiPath): IdField[] {
  const found = new Map<string, IdField>();
  const walk = (s: Schema | undefined, at: FieldPath) => {
    if (!s || typeof s !== "object") return;
    for (const [name, child] of Object.entries(s.properties ?? {})) {
      if (ID_NAME.test(name))
        found.set([...at, name].join("."), { at: [...at, name], name, key: [...at, name].join(".") });
      walk(child, [...at, name]);
    }
    if (s.items) walk(s.items, [...at, "[]"]);
    for (const alt of alternatives(s)) walk(alt, at);
  };
  walk(jsonSchemaOf(path), []);
  return [...found.values()];
}

/** Whether the payload is an open record somewhere (`page.condition` of a paged request, a passthrough object). */
export function openObjectsOf(path: VueapiPath): FieldPath[] {
  const out: FieldPath[] = [];
  const walk = (s: Schema | undefined, at: FieldPath) => {
    if (!s || typeof s !== "object") return;
    const open = s.additionalProperties !== undefined && s.additionalProperties !== false;
    if ((s.type === "object" || s.properties) && open) out.push(at);
    for (const [name, child] of Object.entries(s.properties ?? {})) walk(child, [...at, name]);
    for (const alt of alternatives(s)) walk(alt, at);
  };
  walk(jsonSchemaOf(path), []);
  return out;
}

/** The value a field of this name gets in a minimal payload, when its schema alone cannot say (regex refinements, §5 rules). */
export type Namer = (name: string, at: FieldPath, schema: Schema) => Json | undefined;

/**
 * A minimal value of a schema: required properties only (plus the id-like ones, which the suites fill),
 * the first enum value, the smallest number allowed, strings of the smallest valid length.
 */
export function minimalValue(s: Schema, name: string, at: FieldPath, namer: Namer): Json | undefined {
  const named = namer(name, at, s);
  if (named !== undefined) return named;
  if (s.const !== undefined) return s.const;
  if (s.enum?.length) return s.enum[0];
  const alts = s.anyOf ?? s.oneOf;
  if (alts?.length) return minimalValue(alts[0], name, at, namer);
  const type = Array.isArray(s.type) ? s.type[0] : s.type;
  if (type === "object" || s.properties) {
    const out: JsonObject = {};
    const required = new Set(s.required ?? []);
    for (const [key, child] of Object.entries(s.properties ?? {})) {
      // Optional fields are left out, but for the ids the caller can name (the suites vary them).
      const value = required.has(key)
        ? minimalValue(child, key, [...at, key], namer)
        : ID_NAME.test(key)
          ? namer(key, [...at, key], child)
          : undefined;
      if (value !== undefined) out[key] = value;
    }
    return out;
  }
  if (type === "array") {
    const n = Math.max(s.minItems ?? 0, 1);
    const item = s.items ? minimalValue(s.items, name, [...at, "[]"], namer) : "x";
    return item === undefined ? [] : Array.from({ length: n }, () => item);
  }
  if (type === "integer" || type === "number") {
    const min = s.minimum ?? (s.exclusiveMinimum !== undefined ? s.exclusiveMinimum + 1 : 1);
    return Math.max(min, Math.min(1, s.maximum ?? 1));
  }
  if (type === "boolean") return false;
  if (type === "null") return null;
  if (type === "string") return "x".repeat(Math.max(s.minLength ?? 1, 1));
  return undefined;
}

/** Reads the value at a field path ("[]" reads the first element). */
export function getAt(value: Json, at: FieldPath): Json | undefined {
  let cur: Json | undefined = value;
  for (const key of at) {
    if (cur === null || typeof cur !== "object") return undefined;
    cur = key === "[]" ? (Array.isArray(cur) ? cur[0] : undefined) : Array.isArray(cur) ? undefined : cur[key];
  }
  return cur;
}

/** A copy of `value` with the field at `at` set (every element for "[]"); missing objects are created. */
export function setAt(value: Json, at: FieldPath, next: Json | undefined): Json {
  if (at.length === 0) return next ?? null;
  const [key, ...rest] = at;
  if (key === "[]") {
    const list = Array.isArray(value) ? value : [];
    return list.map((item) => setAt(item, rest, next));
  }
  const obj: JsonObject = value && typeof value === "object" && !Array.isArray(value) ? { ...value } : {};
  if (rest.length === 0 && next === undefined) delete obj[key];
  else obj[key] = setAt(obj[key] ?? null, rest, next);
  return obj;
}

/** Whether the contract accepts this payload for the path (the router's own check). */
export function accepts(path: VueapiPath, payload: unknown): boolean {
  return paths[path].payload.safeParse(payload).success;
}

export function issuesOf(path: VueapiPath, payload: unknown): string {
  const parsed = paths[path].payload.safeParse(payload);
  return parsed.success
    ? ""
    : parsed.error.issues.map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`).join("; ");
}
