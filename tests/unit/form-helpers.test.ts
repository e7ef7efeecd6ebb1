import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { replyWithFailure, replyWithFieldErrors } from "#app/lib/forms.server.ts";
import { positiveId, positiveParam, recordNumberParam } from "#app/lib/params.ts";
import { uploadError, uploadRef } from "#app/lib/uploads.server.ts";
import type { VueapiFailure } from "#app/lib/vueapi.server.ts";

const schema = z.object({
  name: z.string({ error: "validation.required" }),
  nodes: z.array(z.object({ tps: z.coerce.number() })).optional(),
});

function submissionOf(fields: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return parseWithZod(data, { schema });
}

const failure = (messageKey: string, fieldErrors: Record<string, string[]> = {}, silent = false): VueapiFailure => ({
  ok: false,
  messageKey,
  fieldErrors,
  silent,
  code: 1,
  status: 200,
});

describe("positiveId", () => {
  it.each([
    ["12", 12],
    ["1", 1],
    ["012", null],
    ["12x", null],
    ["1.0", null],
    ["0", null],
    ["-3", null],
    ["", null],
    [null, null],
    ["99999999999999999", null],
  ])("%s → %s", (raw, id) => {
    expect(positiveId(raw)).toBe(id);
  });

  it("refuses what positiveParam refuses: a number with anything after it is no id (Hardening 5)", () => {
    expect(positiveParam("12x")).toBeNull();
    expect(positiveId("12x")).toBeNull();
  });

  it.each([
    ["RC20261123B8ED9F4A", "RC20261123B8ED9F4A"],
    [" WD2026112373C80AAF ", "WD2026112373C80AAF"],
    ["RC2026\u0000", null],
    ["RC-1", null],
    ["x' OR '1'='1", null],
    ["R".repeat(41), null],
    ["", null],
    [null, null],
  ])("reads the record number %j as %j (a malformed one is a 404, never text the backend refuses)", (raw, number) => {
    expect(recordNumberParam(raw)).toBe(number);
  });
});

describe("replyWithFailure", () => {
  it("shows a message without field errors as a form error", () => {
    const reply = replyWithFailure(submissionOf({ name: "a" }), failure("errors:MSG_20006"));
    expect(reply.error).toEqual({ "": ["errors:MSG_20006"] });
  });

  it("puts field errors at their fields, the prefix off and list indexes as Conform names them", () => {
    const reply = replyWithFailure(
      submissionOf({ name: "a" }),
      failure("errors:MSG_10001", {
        "form.name": ["validation.tooLong"],
        "form.nodes.0.tps": ["MSG_30012"],
        other: ["validation.invalid"],
      }),
      { fieldPrefix: "form." },
    );
    expect(reply.error).toEqual({
      name: ["validation.tooLong"],
      // A bare §8 key is one of the errors namespace.
      "nodes[0].tps": ["errors:MSG_30012"],
      other: ["validation.invalid"],
    });
  });

  it("shows nothing for a silent failure", () => {
    expect(replyWithFailure(submissionOf({ name: "a" }), failure("errors:MSG_32029", {}, true)).error).toBeUndefined();
  });
});

describe("replyWithFieldErrors", () => {
  it("adds the errors found beside the submission to its own", () => {
    const reply = replyWithFieldErrors(submissionOf({}), { cover: ["wizard:validation.file.coverTooLarge"] });
    expect(reply.error).toEqual({ cover: ["wizard:validation.file.coverTooLarge"], name: ["validation.required"] });
  });

  it("answers a valid submission with the extra errors only", () => {
    expect(
      replyWithFieldErrors(submissionOf({ name: "a" }), { file: ["wizard:validation.file.required"] }).error,
    ).toEqual({ file: ["wizard:validation.file.required"] });
  });
});

describe("uploadError and uploadRef", () => {
  it("reports a refused file, and a missing one only when it is required", () => {
    expect(
      uploadError(
        { status: "refused", error: "wizard:validation.file.zipTooLarge" },
        "wizard:validation.file.required",
      ),
    ).toBe("wizard:validation.file.zipTooLarge");
    expect(uploadError({ status: "none" }, "wizard:validation.file.required")).toBe("wizard:validation.file.required");
    expect(uploadError(undefined, null)).toBeNull();
    expect(uploadRef({ status: "refused", error: "x" })).toBeUndefined();
  });

  it("names an uploaded file by its upload id", () => {
    const uploaded = { status: "uploaded" as const, uploadId: "u1", name: "a.zip", size: 3 };
    expect(uploadError(uploaded, "wizard:validation.file.required")).toBeNull();
    expect(uploadRef(uploaded)).toEqual({ uploadId: "u1" });
  });
});
