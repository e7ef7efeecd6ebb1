import { Msg } from "#contract/messages.ts";
import { parseWithZod } from "@conform-to/zod/v4";
import { json, redirect } from "@remix-run/node";
import { invoiceApplicationSchema, selectBillsSchema } from "#contract/invoices.ts";
import { invoiceStepUrl } from "./invoices-urls.ts";
import { failureResponse, notFound, type Api } from "./api.server.ts";
import { replyWithFailure } from "./forms.server.ts";
import { pageParam } from "./params.ts";
import { redirectWithFlash } from "./session.server.ts";
import type { VueapiFailure } from "./vueapi.server.ts";

/* Server helpers of the invoice pages (user and operator). */

/** A record id from the query string, or a 404 for anything else. */
export function idFromQuery(url: URL, name = "id"): number {
  const id = optionalId(url, name);
  if (id === null) throw notFound();
  return id;
}

/** An optional record id from the query string (null when absent or malformed). */
export function optionalId(url: URL, name: string): number | null {
  const raw = url.searchParams.get(name) ?? "";
  return /^[1-9][0-9]{0,9}$/.test(raw) ? Number(raw) : null;
}

/** A failure of a read: "not found" (also another user's record) is a 404, the rest as usual. */
export function readFailure(failure: VueapiFailure): Response {
  if (failure.messageKey === "errors:MSG_10002") return json({ messageKey: failure.messageKey }, { status: 404 });
  return failureResponse(failure);
}

/** A title or an address added from the application page goes back there (`?back=`), never elsewhere. */
export function backToApplication(value: unknown): string | null {
  return typeof value === "string" && value.startsWith("/g/home/userCenter/Invoices/Add") && !value.includes("//")
    ? value
    : null;
}

type Page<T> = { rows: T[]; pageIndex: number; pageSize: number; total: number };

/**
 * The loader data of the invoice titles and receiving addresses pages: the asked page of the caller's
 * records, the one being edited (`?edit=<id>`, a 404 when it is not one of theirs), whether the add form
 * is open (`?form=new`), the one whose deletion is being confirmed (`?delete=<id>`) and the way back.
 */
export async function loadSavedList<T>(
  url: URL,
  pageSize: number,
  list: (page: { pageSize: number; pageIndex: number; condition: Record<string, never> }) => Promise<{ page: Page<T> }>,
  idOf: (row: T) => number,
) {
  const { page } = await list({ pageSize, pageIndex: pageParam(url), condition: {} });
  const editId = optionalId(url, "edit");
  let editing: T | null = null;
  if (editId !== null) {
    // A user keeps a handful of these: the record is looked for among all of them.
    const all = await list({ pageSize: 100, pageIndex: 1, condition: {} });
    editing = all.page.rows.find((r) => idOf(r) === editId) ?? null;
    if (!editing) throw notFound();
  }
  return {
    page,
    editing,
    adding: url.searchParams.get("form") === "new",
    deleting: optionalId(url, "delete"),
    back: backToApplication(url.searchParams.get("back")),
  };
}

/* The application (Invoices/Add): its two forms. */

/** The bills chosen at the first step, carried to the second in its URL. */
export function selectInvoiceBills(formData: FormData) {
  const submission = parseWithZod(formData, { schema: selectBillsSchema });
  if (submission.status !== "success")
    return json({ intent: "select" as const, result: submission.reply() }, { status: 400 });
  return redirect(invoiceStepUrl("confirm", submission.value.billIds));
}

/** The application itself; once made, its detail page. */
export async function applyForInvoice(request: Request, api: Api, formData: FormData) {
  const submission = parseWithZod(formData, { schema: invoiceApplicationSchema });
  if (submission.status !== "success")
    return json({ intent: "apply" as const, result: submission.reply() }, { status: 400 });
  const result = await api.call("/sys/system/invoiceAccountTrade/h5insertInvoiceAccountTrade", submission.value);
  if (!result.ok) {
    // A bill of the selection that can no longer be invoiced (paid back, invoiced from another tab) is the
    // selection's problem: its message is shown at the chosen bills, with "Change selection" beside it.
    const failure =
      result.messageKey === `errors:${Msg.BILL_NOT_INVOICEABLE}`
        ? { ...result, fieldErrors: { billIds: [Msg.BILL_NOT_INVOICEABLE] } }
        : result;
    return json({ intent: "apply" as const, result: replyWithFailure(submission, failure) }, { status: 400 });
  }
  return redirectWithFlash(request, `/g/home/userCenter/Invoices/Detail?id=${result.data.invoiceId}`, {
    kind: "success",
    key: "invoices:add.done",
    params: { no: result.data.applicationNo },
  });
}
