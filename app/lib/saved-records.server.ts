import { parseWithZod } from "@conform-to/zod/v4";
import { json } from "@remix-run/node";
import type { $ZodType, output } from "zod/v4/core";
import { badRequest, failureResponse } from "./api.server.ts";
import { replyWithFailure } from "./forms.server.ts";
import { intentOf } from "./intents.server.ts";
import { redirectWithFlash } from "./session.server.ts";
import type { VueapiResult } from "./vueapi.server.ts";

type SavedRecordsOptions<S extends $ZodType> = {
  schema: S;
  idName: string;
  /** Where a saved or deleted record leads. */
  listPath: string;
  /** Where a record saved from another page goes back to, read from the form's `back` (null: the list). */
  back?: (value: FormDataEntryValue | null) => string | null;
  flash: { added: string; updated: string; deleted: string };
  save: (value: output<S>) => Promise<VueapiResult<unknown>>;
  remove: (id: number) => Promise<VueapiResult<unknown>>;
};

/**
 * The action of a page of the caller's own saved records (contacts, invoice titles, receiving addresses):
 * intent "save" adds a record, or updates the one whose id (`idName`) the form carries; intent "delete"
 * removes one after the page asked for confirmation. A refused form comes back as Conform's reply with
 * what was typed, a done one redirects with a flash message; an unknown intent is a 400 (house habit 2).
 */
export async function savedRecordsAction<S extends $ZodType>(request: Request, options: SavedRecordsOptions<S>) {
  const formData = await request.formData();
  switch (intentOf(formData, ["save", "delete"])) {
    case "save":
      return saveRecord(request, formData, options);
    case "delete":
      return deleteRecord(request, formData, options);
  }
}

async function saveRecord<S extends $ZodType>(request: Request, formData: FormData, options: SavedRecordsOptions<S>) {
  const submission = parseWithZod(formData, { schema: options.schema });
  if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
  const result = await options.save(submission.value);
  if (!result.ok) return json({ result: replyWithFailure(submission, result) }, { status: 400 });
  const updated = Boolean((submission.value as Record<string, unknown>)[options.idName]);
  const to = options.back?.(formData.get("back")) ?? options.listPath;
  return redirectWithFlash(request, to, {
    kind: "success",
    key: updated ? options.flash.updated : options.flash.added,
  });
}

async function deleteRecord<S extends $ZodType>(request: Request, formData: FormData, options: SavedRecordsOptions<S>) {
  const raw = String(formData.get(options.idName) ?? "");
  if (!/^[1-9][0-9]{0,14}$/.test(raw)) throw badRequest();
  const result = await options.remove(Number(raw));
  if (!result.ok) throw failureResponse(result);
  return redirectWithFlash(request, options.listPath, { kind: "success", key: options.flash.deleted });
}
