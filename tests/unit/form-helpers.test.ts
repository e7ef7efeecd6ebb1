import { parseWithZod } from "@conform-to/zod/v4";
import { describe, expect, it } from "vitest";
import * as z from "zod";
import { replyWithFailure, replyWithFieldErrors } from "~/lib/forms.server";
import { positiveId, positiveParam } from "~/lib/params";
import { fileProblem } from "~/lib/uploads.server";
import type { VueapiFailure } from "~/lib/vueapi.server";

const schema = z.object({ name: z.string({ error: "validation.required" }), nodes: z.array(z.object({ tps: z.coerce.number() })).optional() });

function submissionOf(fields: Record<string, string>) {
  const data = new FormData();
  for (const [k, v] of Object.entries(fields)) data.append(k, v);
  return parseWithZod(data, { schema });
}

const failure = (messageKey: string, fieldErrors: Record<string, string[]> = {}, silent = false): VueapiFailure => ({
  ok: false, messageKey, fieldErrors, silent, code: 1, status: 200,
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
});

describe("replyWithFailure", () => {
  it("shows a message without field errors as a form error", () => {
    const reply = replyWithFailure(submissionOf({ name: "a" }), failure("errors:MSG_20006"));
    expect(reply.error).toEqual({ "": ["errors:MSG_20006"] });
  });

  it("puts field errors at their fields, the prefix off and list indexes as Conform names them", () => {
    const reply = replyWithFailure(
      submissionOf({ name: "a" }),
      failure("errors:MSG_10001", { "form.name": ["validation.tooLong"], "form.nodes.0.tps": ["MSG_30012"], other: ["validation.invalid"] }),
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
    expect(replyWithFieldErrors(submissionOf({ name: "a" }), { file: ["wizard:validation.file.required"] }).error).toEqual({ file: ["wizard:validation.file.required"] });
  });
});

describe("fileProblem", () => {
  const onlyZip = (f: { name: string }) => (f.name.endsWith(".zip") ? null : "wizard:validation.file.zipOnly");
  const form = (file?: File) => {
    const data = new FormData();
    if (file) data.append("file", file);
    return data;
  };

  it("reports a file over its limit, a missing one and a refused one", () => {
    expect(fileProblem(form(new File([], "a.zip")), new Set(["file"]), "file", onlyZip, "tooLarge")).toBe("tooLarge");
    expect(fileProblem(form(), new Set(), "file", onlyZip, "tooLarge")).toBe("wizard:validation.file.required");
    expect(fileProblem(form(new File([], "")), new Set(), "file", onlyZip, "tooLarge")).toBe("wizard:validation.file.required");
    expect(fileProblem(form(new File(["x"], "a.txt")), new Set(), "file", onlyZip, "tooLarge")).toBe("wizard:validation.file.zipOnly");
  });

  it("accepts a good file, and no file when it is optional", () => {
    expect(fileProblem(form(new File(["x"], "a.zip")), new Set(), "file", onlyZip, "tooLarge")).toBeNull();
    expect(fileProblem(form(), new Set(), "file", onlyZip, "tooLarge", true)).toBeNull();
  });
});
