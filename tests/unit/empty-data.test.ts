import * as z from "zod";
import { describe, expect, it } from "vitest";
import { paths, type PathSpec } from "#contract/paths.ts";
import { emptyDataOf } from "#app/lib/empty-data.ts";
import { MAX_ID, positiveParam } from "#app/lib/params.ts";

describe("the empty data of a silent answer (app/lib/empty-data.ts)", () => {
  it("exists for the data of every /vueapi path of the contract", () => {
    const without = (Object.entries(paths) as [string, PathSpec][])
      .filter(([, spec]) => emptyDataOf(spec.data) === null)
      .map(([p]) => p);
    expect(without).toEqual([]);
  });

  it("is empty: no rows, zero, blank text, null where allowed, defaults and first choices", () => {
    const schema = z.object({
      page: z.object({ rows: z.array(z.object({ id: z.number() })), total: z.number().int() }),
      name: z.string(),
      note: z.string().nullable(),
      maybe: z.string().optional(),
      flag: z.boolean(),
      kind: z.enum(["a", "b"]),
      one: z.union([z.literal(1), z.literal(2)]),
      size: z.number().default(10),
      map: z.record(z.string(), z.number()),
    });
    expect(emptyDataOf(schema)).toEqual({
      data: {
        page: { rows: [], total: 0 },
        name: "",
        note: null,
        maybe: undefined,
        flag: false,
        kind: "a",
        one: 1,
        size: 10,
        map: {},
      },
    });
    expect(emptyDataOf(z.null().optional())).toEqual({ data: undefined });
  });

  it("is null when a rule of the schema refuses empty values", () => {
    expect(emptyDataOf(z.object({ name: z.string().min(1) }))).toBeNull();
  });
});

describe("ids in the address (app/lib/params.ts)", () => {
  it("are plain digits up to the largest database id; anything else is no id", () => {
    expect(["1", "42", String(MAX_ID)].map(positiveParam)).toEqual([1, 42, MAX_ID]);
    for (const bad of [
      null,
      undefined,
      "",
      "0",
      "-1",
      "1.5",
      "1e3",
      "0x10",
      " 7",
      "7 ",
      "12abc",
      "abc",
      "01",
      String(MAX_ID + 1),
      "99999999999",
    ]) {
      expect(positiveParam(bad), String(bad)).toBeNull();
    }
  });
});
