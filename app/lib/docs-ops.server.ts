import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import * as z from "zod";
import { docFormSchema } from "#contract/docs.ts";
import { redirectAfter, type Api } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure } from "#app/lib/forms.server.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { positiveId, positiveParam } from "#app/lib/params.ts";
import { OPS_DOCS } from "#app/lib/docs-urls.ts";

/**
 * Operations: documentation pages (issue 15; docs/decisions/042). The page lists every page in the order of
 * the table of contents; `?edit=<docId>` or `?new=1` opens the form; `?confirm=<docId>` is the confirm step
 * of a deletion without JavaScript. Intents: save, move, publish, delete.
 */
export const DOC_INTENTS = ["save", "move", "publish", "delete"] as const;

export async function loadDocsOps(api: Api, url: URL) {
  const { page } = await api.load("/sys/ops/docs/list", { pageSize: 200 });
  const editId = positiveParam(url.searchParams.get("edit"));
  const editing = editId ? await api.load("/sys/ops/docs/detail", { docId: editId }) : null;
  const creating = !editing && url.searchParams.get("new") === "1";
  const confirmId = positiveParam(url.searchParams.get("confirm"));
  const confirm = confirmId ? (page.rows.find((r) => r.docId === confirmId) ?? null) : null;
  return { rows: page.rows, editing, creating, confirm };
}

const rowSchema = z.object({
  docId: z.coerce.number().int().positive(),
  direction: z.enum(["up", "down"]).optional(),
  published: z.enum(["0", "1"]).optional(),
  confirmed: z.literal("yes").optional(),
});

export async function docsOpsAction(request: Request, api: Api) {
  const formData = await request.formData();
  const intent = intentOf(formData, DOC_INTENTS);
  if (intent === "save") {
    const raw = formData.get("docId");
    const docId = raw ? positiveId(String(raw)) : null;
    if (raw && !docId) throw json({ messageKey: "errors:http.400" }, { status: 400 });
    const submission = parseWithZod(formData, { schema: docFormSchema });
    if (submission.status !== "success") return json({ result: submission.reply() }, { status: 400 });
    const result = await api.call("/sys/ops/docs/save", {
      ...(docId ? { docId } : {}),
      form: {
        ...submission.value,
        parentId: submission.value.parentId ? String(submission.value.parentId) : undefined,
      },
    });
    if (!result.ok)
      return json(
        { result: replyWithFailure(submission, result, { fieldPrefix: "form." }) },
        { status: formFailureStatus(result) },
      );
    return redirectAfter(request, result, OPS_DOCS, "docs:flash.saved");
  }
  const v = parseFormOr400(rowSchema, formData);
  switch (intent) {
    case "move":
      return redirectAfter(
        request,
        await api.call("/sys/ops/docs/move", { docId: v.docId, direction: v.direction ?? "up" }),
        OPS_DOCS,
        "docs:flash.moved",
      );
    case "publish": {
      const published = v.published === "1";
      return redirectAfter(
        request,
        await api.call("/sys/ops/docs/publish", { docId: v.docId, published }),
        OPS_DOCS,
        published ? "docs:flash.published" : "docs:flash.unpublished",
      );
    }
    case "delete":
      // Without JavaScript the first post answers with the confirm step.
      if (v.confirmed !== "yes") return redirect(`${OPS_DOCS}?confirm=${v.docId}`);
      return redirectAfter(
        request,
        await api.call("/sys/ops/docs/delete", { docId: v.docId }),
        OPS_DOCS,
        "docs:flash.deleted",
      );
  }
}
