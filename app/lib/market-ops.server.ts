import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import * as z from "zod";
import { marketFormSchema } from "#contract/market.ts";
import { zipProblem } from "#contract/service-wizard.ts";
import { redirectAfter, type Api } from "#app/lib/api.server.ts";
import { formFailureStatus, replyWithFailure, replyWithFieldErrors } from "#app/lib/forms.server.ts";
import { intentOf, parseFormOr400 } from "#app/lib/intents.server.ts";
import { pageParam, positiveId, positiveParam } from "#app/lib/params.ts";
import { parseFormWithUploads, uploadError, uploadRef } from "#app/lib/uploads.server.ts";

/**
 * Operations: the chaincode market's entries (issue 15; docs/decisions/042). `?edit=<marketPackageId>` or `?new=1`
 * opens the form (its zip streamed to the backend's chaincode upload, checked like the wizard's);
 * `?confirm=<marketPackageId>` is the confirm step of a withdrawal without JavaScript. Intents: save, withdraw.
 */
export const OPS_MARKET = "/g/home/operations/ChaincodeMarket";

export async function loadMarketOps(api: Api, url: URL) {
  const { page } = await api.load("/sys/ops/market/list", { pageIndex: pageParam(url), pageSize: 50 });
  const editId = positiveParam(url.searchParams.get("edit"));
  const editing = editId ? (page.rows.find((r) => r.marketPackageId === editId) ?? null) : null;
  const creating = !editing && url.searchParams.get("new") === "1";
  const confirmId = positiveParam(url.searchParams.get("confirm"));
  const confirm = confirmId
    ? (page.rows.find((r) => r.marketPackageId === confirmId && r.status === "published") ?? null)
    : null;
  return { page, editing, creating, confirm };
}

const withdrawSchema = z.object({
  marketPackageId: z.coerce.number().int().positive(),
  withdrawn: z.enum(["0", "1"]),
  confirmed: z.literal("yes").optional(),
});

export async function marketOpsAction(request: Request, api: Api) {
  const multipart = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  const { formData, uploads } = multipart
    ? await parseFormWithUploads(request, api, {
        file: { kind: "chaincode", problem: zipProblem, tooLarge: "wizard:validation.file.zipTooLarge" },
      })
    : {
        formData: await request.formData(),
        uploads: {} as Awaited<ReturnType<typeof parseFormWithUploads>>["uploads"],
      };
  const intent = intentOf(formData, ["save", "withdraw"] as const);
  if (intent === "withdraw") {
    const v = parseFormOr400(withdrawSchema, formData);
    const withdrawn = v.withdrawn === "1";
    if (withdrawn && v.confirmed !== "yes") return redirect(`${OPS_MARKET}?confirm=${v.marketPackageId}`);
    return redirectAfter(
      request,
      await api.call("/sys/ops/market/withdraw", { marketPackageId: v.marketPackageId, withdrawn }),
      OPS_MARKET,
      withdrawn ? "market:flash.withdrawn" : "market:flash.restored",
    );
  }
  const raw = formData.get("marketPackageId");
  const marketPackageId = raw ? positiveId(String(raw)) : null;
  if (raw && !marketPackageId) throw json({ messageKey: "errors:http.400" }, { status: 400 });
  const submission = parseWithZod(formData, { schema: marketFormSchema });
  const fileError = uploadError(uploads.file, marketPackageId ? null : "wizard:validation.file.required");
  if (submission.status !== "success" || fileError) {
    return json({ result: replyWithFieldErrors(submission, fileError ? { file: [fileError] } : {}) }, { status: 400 });
  }
  const result = await api.call("/sys/ops/market/save", {
    ...(marketPackageId ? { marketPackageId } : {}),
    form: submission.value,
    file: uploadRef(uploads.file),
  });
  if (!result.ok)
    return json(
      { result: replyWithFailure(submission, result, { fieldPrefix: "form." }) },
      { status: formFailureStatus(result) },
    );
  return redirectAfter(request, result, OPS_MARKET, "market:flash.saved");
}
